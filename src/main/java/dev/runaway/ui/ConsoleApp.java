// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.ui;

import javafx.application.Platform;
import javafx.stage.Stage;

import java.lang.management.ManagementFactory;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/** Starts JavaFX (once per process) and shows a console window, blocking until it closes. */
public final class ConsoleApp {
    private static final AtomicBoolean TOOLKIT_STARTED = new AtomicBoolean();

    private ConsoleApp() {
    }

    /**
     * Opens the window for the session and waits until the user closes it; the caller closes the
     * session afterwards (a drill's teardown must finish before the process exits).
     *
     * @param opened told once, on the first frame, how many ms after the JVM started the window showed
     */
    public static void show(ConsoleSession session, boolean dark, java.util.function.LongConsumer opened) throws InterruptedException {
        CountDownLatch closed = new CountDownLatch(1);
        AtomicLong once = new AtomicLong(-1);
        Runnable open = () -> {
            WindowClass.apply();
            Stage stage = new Stage();
            stage.setOnShown(e -> Platform.runLater(() -> {
                if (once.compareAndSet(-1, 0)) {
                    opened.accept(ManagementFactory.getRuntimeMXBean().getUptime());
                }
            }));
            ConsoleWindow.open(stage, session, dark, closed::countDown);
        };
        Platform.setImplicitExit(false);
        if (TOOLKIT_STARTED.compareAndSet(false, true)) {
            try {
                Platform.startup(open);
            } catch (IllegalStateException alreadyRunning) {
                Platform.runLater(open);
            }
        } else {
            Platform.runLater(open);
        }
        closed.await();
    }
}
