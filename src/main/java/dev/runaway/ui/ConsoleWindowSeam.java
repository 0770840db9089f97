// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.ui;

import dev.runaway.view.ConsoleRow;
import javafx.application.Platform;
import javafx.scene.control.TreeItem;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;

/** {@link WindowSeam} over a {@link ConsoleWindow}: each call done on the JavaFX thread. */
final class ConsoleWindowSeam implements WindowSeam {
    private static final long WAIT_SECONDS = 60;

    private final ConsoleWindow window;

    private ConsoleWindowSeam(ConsoleWindow window) {
        this.window = window;
    }

    static ConsoleWindowSeam open(ConsoleSession session) throws InterruptedException {
        CountDownLatch shown = new CountDownLatch(1);
        AtomicReference<ConsoleWindow> window = new AtomicReference<>();
        Runnable open = () -> {
            window.set(ConsoleWindow.open(new javafx.stage.Stage(), session, false, () -> { }));
            shown.countDown();
        };
        Platform.setImplicitExit(false);
        try {
            ConsoleApp.quietenClassPathWarning();
            Platform.startup(open);
        } catch (IllegalStateException alreadyRunning) {
            Platform.runLater(open);
        }
        if (!shown.await(WAIT_SECONDS, TimeUnit.SECONDS)) throw new IllegalStateException("the window did not open within 60 s");
        return new ConsoleWindowSeam(window.get());
    }

    @Override
    public void runLater(Runnable task) {
        Platform.runLater(task);
    }

    @Override
    public void onRender(Consumer<Long> arrivalNanos) {
        window.onRender(arrivalNanos);
    }

    @Override
    public List<Integer> toolkitThreads() {
        return ToolkitThreads.others();
    }

    @Override
    public void expandBiggestGroup() throws InterruptedException {
        onFx(() -> {
            TreeItem<ConsoleRow> biggest = null;
            for (TreeItem<ConsoleRow> g : window.tree.root().getChildren()) {
                if (biggest == null || ChainTree.current(g).tasks() > ChainTree.current(biggest).tasks()) biggest = g;
            }
            if (biggest != null) {
                window.table.view.getSelectionModel().select(biggest);
                biggest.setExpanded(true);
                if (!biggest.getChildren().isEmpty()) biggest.getChildren().get(0).setExpanded(true);
            }
            return null;
        });
    }

    @Override
    public boolean pressStop(String commandKey) throws InterruptedException {
        Boolean pressed = onFx(() -> {
            for (TreeItem<ConsoleRow> g : window.tree.root().getChildren()) {
                ConsoleRow row = ChainTree.current(g); // the row as now (an item's value is the row as first made)
                if (row != null && commandKey.equals(row.command())) {
                    window.table.view.getSelectionModel().select(g);
                    if (window.stopButton.isDisabled()) return false;
                    window.stopButton.fire();
                    return true;
                }
            }
            return false;
        });
        return Boolean.TRUE.equals(pressed);
    }

    @Override
    public boolean planReady() throws InterruptedException {
        return Boolean.TRUE.equals(onFx(() -> window.stopPanel != null && !window.stopPanel.confirm.isDisabled()));
    }

    @Override
    public String plan() throws InterruptedException {
        String plan = onFx(() -> window.stopPanel == null ? "" : window.stopPanel.plan.getText());
        return plan == null ? "" : plan;
    }

    @Override
    public void pressEnter() {
        // A key as the keyboard gives it, to what has the focus: pressed, then released. A button
        // with the focus takes Enter itself, arming on the press and firing on the release (a press
        // alone fired nothing: bench ui never confirmed a plan before this).
        Platform.runLater(() -> {
            if (window.stopPanel == null) return;
            javafx.scene.Node focused = window.stopPanel.confirm.getScene() == null ? null
                    : window.stopPanel.confirm.getScene().getFocusOwner();
            javafx.event.EventTarget to = focused != null ? focused : window.stopPanel.confirm;
            for (var type : List.of(javafx.scene.input.KeyEvent.KEY_PRESSED, javafx.scene.input.KeyEvent.KEY_RELEASED)) {
                javafx.event.Event.fireEvent(to, new javafx.scene.input.KeyEvent(type, "\r", "", javafx.scene.input.KeyCode.ENTER,
                        false, false, false, false));
            }
        });
    }

    @Override
    public String stopState() throws InterruptedException {
        String state = onFx(() -> window.stopPanel == null ? "" : window.stopPanel.state.getText());
        return state == null ? "" : state;
    }

    @Override
    public int rowsMade() throws InterruptedException {
        Integer rows = onFx(window.tree::madeRows);
        return rows == null ? 0 : rows;
    }

    @Override
    public String sceneNodes() throws InterruptedException {
        String nodes = onFx(() -> {
            int total = 0;
            List<java.util.Map.Entry<String, Integer>> parents = new ArrayList<>();
            java.util.ArrayDeque<javafx.scene.Node> todo = new java.util.ArrayDeque<>();
            todo.add(window.overlay.getScene().getRoot());
            while (!todo.isEmpty()) {
                javafx.scene.Node n = todo.poll();
                total++;
                if (n instanceof javafx.scene.Parent p) {
                    var children = p.getChildrenUnmodifiable();
                    parents.add(java.util.Map.entry(p.getClass().getSimpleName() + (p.getId() == null ? "" : "#" + p.getId()), children.size()));
                    todo.addAll(children);
                }
            }
            parents.sort(java.util.Map.Entry.<String, Integer>comparingByValue().reversed());
            return String.format("%,d nodes; most children: %s", total, String.join(", ",
                    parents.stream().limit(5).map(e -> e.getKey() + " " + e.getValue()).toList()));
        });
        return nodes == null ? "not counted: the JavaFX thread did not answer within 60 s" : nodes;
    }

    @Override
    public void close() {
        Platform.runLater(() -> window.overlay.getScene().getWindow().hide());
    }

    /** What {@code read} gives on the JavaFX thread; null when it did not answer in time. */
    private static <T> T onFx(Supplier<T> read) throws InterruptedException {
        CompletableFuture<T> out = new CompletableFuture<>();
        Platform.runLater(() -> {
            try {
                out.complete(read.get());
            } catch (RuntimeException e) {
                out.completeExceptionally(e);
            }
        });
        try {
            return out.get(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException late) {
            return null;
        } catch (ExecutionException failed) {
            throw new IllegalStateException(failed.getCause());
        }
    }
}
