// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.ui;

import org.testfx.api.FxToolkit;

import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/** Console windows on TestFX's stage, as the tests open them. */
final class TestWindows {
    private TestWindows() {
    }

    /** A window for the session, in the dark theme or not; closing it does nothing more. */
    static ConsoleWindow open(ConsoleSession session, boolean dark) throws TimeoutException {
        AtomicReference<ConsoleWindow> w = new AtomicReference<>();
        FxToolkit.setupStage(stage -> w.set(ConsoleWindow.open(stage, session, dark, () -> { })));
        return w.get();
    }
}
