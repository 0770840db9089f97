package dev.runaway.ui;

import dev.runaway.drill.Drill;
import dev.runaway.model.Units;
import dev.runaway.sandbox.SampleRates;
import dev.runaway.sandbox.SandboxMonitor;
import dev.runaway.sandbox.SandboxSample;
import dev.runaway.sandbox.TeardownReport;
import io.fair_acc.chartfx.XYChart;
import io.fair_acc.chartfx.axes.spi.DefaultNumericAxis;
import io.fair_acc.chartfx.renderer.spi.ErrorDataSetRenderer;
import io.fair_acc.chartfx.ui.geometry.Side;
import io.fair_acc.dataset.spi.DoubleDataSet;
import javafx.application.Platform;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The window of a running drill: what it is, live figures in large type, tasks and memory
 * over time, and one button that tears it down in the stop order. Chart data sets are written
 * from the monitor's thread, never from the JavaFX thread (ChartFX 11.3 read-locks them during
 * layout; adding from {@code Platform.runLater} before the first frame deadlocks).
 */
public final class DrillWindow {
    private static final AtomicBoolean TOOLKIT_STARTED = new AtomicBoolean();
    private static final String FIGURE_STYLE = "-fx-font-size: 28px; -fx-font-weight: bold;";

    final Drill drill;
    final SandboxMonitor monitor;
    final DoubleDataSet tasks = new DoubleDataSet("tasks");
    final DoubleDataSet cap = new DoubleDataSet("cap");
    final DoubleDataSet memory = new DoubleDataSet("memory (MiB)");
    final Label tasksFigure = figure();
    final Label rateFigure = figure();
    final Label memoryFigure = figure();
    final Label refusedFigure = figure();
    final Label status = new Label();
    final Button tearDown = new Button("Tear down drill: stop growth, kill, confirm zero");
    private volatile boolean tornDown;

    DrillWindow(Drill drill, SandboxMonitor monitor) {
        this.drill = drill;
        this.monitor = monitor;
    }

    /** Opens the window and blocks until the user closes it. */
    public static void show(Drill drill, SandboxMonitor monitor) throws InterruptedException {
        CountDownLatch closed = new CountDownLatch(1);
        Runnable open = () -> {
            Stage stage = new Stage();
            DrillWindow window = new DrillWindow(drill, monitor);
            stage.setTitle("Runaway: DRILL " + drill.info().id());
            stage.setScene(new Scene(window.build(), 1000, 680));
            stage.setOnHidden(e -> closed.countDown());
            stage.show();
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

    /** Builds the scene graph and starts feeding it from the monitor. */
    Parent build() {
        Label banner = new Label("DRILL  " + drill.info().id() + "  (a contained practice incident)");
        banner.setStyle("-fx-font-size: 16px; -fx-font-weight: bold; -fx-text-fill: white; -fx-padding: 6 12;"
                + " -fx-background-color: #b35900;");
        banner.setMaxWidth(Double.MAX_VALUE);
        Label what = new Label(drill.info().scenario().description());
        what.setPadding(new Insets(4, 12, 0, 12));

        HBox figures = new HBox(32, labelled("tasks", tasksFigure), labelled("growth", rateFigure),
                labelled("memory", memoryFigure), labelled("forks refused by the cap", refusedFigure));
        figures.setPadding(new Insets(8, 12, 8, 12));

        tearDown.setStyle("-fx-font-size: 14px; -fx-font-weight: bold;");
        tearDown.setDefaultButton(true);
        tearDown.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        tearDown.setOnAction(e -> tearDownInBackground());
        status.setText("sandbox: " + drill.sandbox().containment());
        status.setWrapText(true);
        HBox.setHgrow(status, Priority.ALWAYS);
        status.setMaxWidth(Double.MAX_VALUE);
        HBox bottom = new HBox(12, tearDown, status);
        bottom.setAlignment(Pos.CENTER_LEFT);
        bottom.setPadding(new Insets(8, 12, 10, 12));

        BorderPane root = new BorderPane(chart(), new VBox(banner, what, figures), null, bottom, null);
        monitor.addListener(this::onSample);
        return root;
    }

    private XYChart chart() {
        DefaultNumericAxis time = new DefaultNumericAxis("time since start", "s");
        time.setAutoRangePadding(0.02);
        DefaultNumericAxis taskAxis = new DefaultNumericAxis("tasks");
        taskAxis.setUnit(null);
        taskAxis.setForceZeroInRange(true);
        DefaultNumericAxis memoryAxis = new DefaultNumericAxis("memory", "MiB");
        memoryAxis.setSide(Side.RIGHT);
        memoryAxis.setForceZeroInRange(true);

        XYChart chart = new XYChart(time, taskAxis);
        ((ErrorDataSetRenderer) chart.getRenderers().get(0)).setDrawMarker(false);
        ((ErrorDataSetRenderer) chart.getRenderers().get(0)).setErrorStyle(io.fair_acc.chartfx.renderer.ErrorStyle.NONE);
        chart.setTitle("Tasks and memory in the drill's sandbox");
        chart.getDatasets().addAll(tasks, cap);
        ErrorDataSetRenderer memoryRenderer = new ErrorDataSetRenderer();
        memoryRenderer.setDrawMarker(false);
        memoryRenderer.setErrorStyle(io.fair_acc.chartfx.renderer.ErrorStyle.NONE);
        memoryRenderer.getAxes().add(memoryAxis);
        memoryRenderer.getDatasets().add(memory);
        chart.getRenderers().add(memoryRenderer);
        chart.setLegendVisible(true);
        VBox.setVgrow(chart, Priority.ALWAYS);
        return chart;
    }

    /** On the monitor's thread: data sets directly, labels through the JavaFX thread. */
    void onSample(SandboxSample s) {
        if (tornDown) return;
        tasks.add(s.secondsSinceStart(), s.tasks());
        cap.add(s.secondsSinceStart(), drill.info().maxTasks());
        memory.add(s.secondsSinceStart(), s.rssBytes() / (1024.0 * 1024.0));
        List<SandboxSample> history = monitor.history();
        String rate = Units.perSecond(SampleRates.tasksPerSecond(history, 1.0));
        Platform.runLater(() -> {
            tasksFigure.setText(s.tasks() + " / " + drill.info().maxTasks());
            rateFigure.setText(rate);
            memoryFigure.setText(Units.bytes(s.rssBytes()));
            refusedFigure.setText(Long.toString(Math.max(0, s.failedForks())));
            refusedFigure.setStyle(FIGURE_STYLE + (s.failedForks() > 0 ? " -fx-text-fill: #b00020;" : ""));
        });
    }

    private void tearDownInBackground() {
        tearDown.setDisable(true);
        status.setText("Tearing down: stopping growth, then killing the fixed set, then confirming zero...");
        Thread worker = new Thread(() -> {
            TeardownReport report = drill.teardown();
            tornDown = true;
            Platform.runLater(() -> {
                status.setText((report.zeroConfirmed() ? "Zero confirmed. " : report.remaining() + " processes left! ")
                        + report.summary());
                tearDown.setDisable(false);
                if (report.zeroConfirmed()) {
                    tearDown.setText("Close");
                    tearDown.setOnAction(e -> tearDown.getScene().getWindow().hide());
                } else {
                    tearDown.setText("Try again");
                }
            });
        }, "runaway-drill-teardown");
        worker.setDaemon(true);
        worker.start();
    }

    private static Label figure() {
        Label label = new Label("-");
        label.setStyle(FIGURE_STYLE);
        return label;
    }

    private static VBox labelled(String caption, Label figure) {
        Label small = new Label(caption);
        small.setStyle("-fx-font-size: 12px; -fx-text-fill: #555;");
        return new VBox(2, small, figure);
    }
}
