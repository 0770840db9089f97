// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.ui;

import javafx.application.Platform;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Makes the chains view's rows off the JavaFX thread, one batch at a time, and hands each batch
 * to the JavaFX thread: at 50,000 processes building rows takes longer than a frame.
 */
final class RowPreparer implements AutoCloseable {
    private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "runaway-console-rows");
        t.setDaemon(true);
        return t;
    });

    /** Makes {@code rows} on the preparer's thread, then gives them to {@code show} on the JavaFX thread. */
    <T> void prepare(Supplier<T> rows, Consumer<T> show) {
        thread.execute(() -> {
            T made = rows.get();
            Platform.runLater(() -> show.accept(made));
        });
    }

    boolean closed() {
        return thread.isShutdown();
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
