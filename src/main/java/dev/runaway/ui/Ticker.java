// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.ui;

import javafx.application.Platform;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs a task on the JavaFX thread at a fixed period, skipping a tick while the last one is
 * still queued. Not an AnimationTimer: a running animation keeps JavaFX rendering 60 frames a
 * second, which in software rendering (no GPU, Xvfb, most servers) costs a core by itself.
 */
final class Ticker implements AutoCloseable {
    private final ScheduledExecutorService timer;

    private Ticker(ScheduledExecutorService timer) {
        this.timer = timer;
    }

    static Ticker every(long millis, Runnable onFxThread) {
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "runaway-console-ticker");
            t.setDaemon(true);
            return t;
        });
        AtomicBoolean queued = new AtomicBoolean();
        timer.scheduleAtFixedRate(() -> {
            if (!queued.compareAndSet(false, true)) return;
            Platform.runLater(() -> {
                queued.set(false);
                onFxThread.run();
            });
        }, millis, millis, TimeUnit.MILLISECONDS);
        return new Ticker(timer);
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
