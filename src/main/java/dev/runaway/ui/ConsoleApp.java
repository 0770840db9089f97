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
    /**
     * JavaFX warns "Unsupported JavaFX configuration: classes were loaded from 'unnamed module'"
     * at every start when it is on the class path, as here (ChartFX, OSHI and JNA have no module
     * descriptors, so the console cannot run on the module path; docs/packaging.md). The warning
     * is about a setup we chose and test; its logger is quietened to SEVERE. Held here: JUL keeps
     * loggers weakly, and a collected logger forgets its level.
     */
    private static final java.util.logging.Logger JAVAFX_LOG = java.util.logging.Logger.getLogger("javafx");

    /** Quietens JavaFX's class-path warning; call before the toolkit starts. */
    static void quietenClassPathWarning() {
        JAVAFX_LOG.setLevel(java.util.logging.Level.SEVERE);
    }

    private ConsoleApp() {
    }

    /**
     * Opens the window for the session and waits until the user closes it; the caller closes the
     * session afterwards (a drill's teardown must finish before the process exits).
     *
     * @param opened told once, on the first frame, how many ms after the JVM started the window showed
     */
    public static void show(ConsoleSession session, boolean dark, java.util.function.LongConsumer opened) throws InterruptedException {
        show(session, dark, null, opened);
    }

    /** The person's theme file: $XDG_CONFIG_HOME/runaway/console (see {@link dev.runaway.view.ThemeChoice}). */
    public static java.nio.file.Path themeFile() {
        return dev.runaway.view.ThemeChoice.file(System.getenv("XDG_CONFIG_HOME"), System.getProperty("user.home"));
    }

    /**
     * Dark or light at start: {@code --dark}, else the choice remembered in {@code themeFile}, else
     * the desktop's color-scheme (asked of the settings portal only then, for at most half a second).
     */
    public static boolean darkAtStart(boolean darkFlag, java.nio.file.Path themeFile) {
        java.util.Optional<Boolean> remembered = dev.runaway.view.ThemeChoice.read(themeFile);
        java.util.OptionalInt desktop = darkFlag || remembered.isPresent() ? java.util.OptionalInt.empty()
                : DesktopScheme.read(java.time.Duration.ofMillis(500));
        return dev.runaway.view.ThemeChoice.dark(darkFlag, remembered, desktop);
    }

    /** @param themeFile where a theme chosen in the window (Ctrl+T) is remembered; null: not remembered (tests) */
    public static void show(ConsoleSession session, boolean dark, java.nio.file.Path themeFile, java.util.function.LongConsumer opened)
            throws InterruptedException {
        CountDownLatch closed = new CountDownLatch(1);
        AtomicLong once = new AtomicLong(-1);
        Runnable open = () -> {
            dev.runaway.view.FirstContact.startup(dev.runaway.view.FirstContact.Kind.TOOLKIT_STARTED);
            WindowClass.apply();
            Stage stage = new Stage();
            stage.setOnShown(e -> Platform.runLater(() -> {
                if (once.compareAndSet(-1, 0)) {
                    opened.accept(ManagementFactory.getRuntimeMXBean().getUptime());
                }
            }));
            ConsoleWindow.open(stage, session, dark, closed::countDown).themeFile = themeFile;
        };
        Platform.setImplicitExit(false);
        quietenClassPathWarning();
        BornRaised.atStart(ConsoleWindow.displayServer.get());
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
