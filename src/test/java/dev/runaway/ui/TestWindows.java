// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.ui;

import dev.runaway.drill.Drill;
import org.testfx.api.FxToolkit;

import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/** Console windows on TestFX's stage, as the tests open them. */
final class TestWindows {
    private TestWindows() {
    }

    /** A window for the session, in the dark theme or not; closing it does nothing more. */
    static ConsoleWindow open(ConsoleSession session, boolean dark) throws TimeoutException {
        return open(() -> new ConsoleWindow(session), dark, w -> { });
    }

    /**
     * A window the test makes (on the JavaFX thread: its controls are made with it), opened;
     * {@code then} runs on that thread right after, before the next pulse.
     */
    static ConsoleWindow open(java.util.function.Supplier<ConsoleWindow> window, boolean dark, Consumer<ConsoleWindow> then)
            throws TimeoutException {
        AtomicReference<ConsoleWindow> w = new AtomicReference<>();
        FxToolkit.setupStage(stage -> {
            w.set(ConsoleWindow.open(stage, window.get(), dark, () -> { }));
            then.accept(w.get());
        });
        return w.get();
    }

    /**
     * A live session that owns {@code drill} (closing the session tears it down); the drill is torn
     * down here when the session cannot be made.
     */
    static ConsoleSession liveOn(Drill drill) throws IOException {
        ConsoleSession session = null;
        try {
            session = ConsoleSession.live(Optional.empty());
            session.adopt(drill);
            return session;
        } catch (IOException | RuntimeException e) {
            if (session != null) session.close();
            drill.teardown();
            throw e;
        }
    }
}
