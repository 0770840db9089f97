// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.ui;

import dev.runaway.stoporder.StopStep;
import dev.runaway.view.HeaderFigures;
import dev.runaway.view.TimeSpan;
import dev.runaway.timeline.EventKind;
import dev.runaway.timeline.TimelineEvent;
import io.fair_acc.chartfx.XYChart;
import io.fair_acc.chartfx.axes.Axis;
import io.fair_acc.chartfx.axes.spi.DefaultNumericAxis;
import io.fair_acc.chartfx.plugins.XValueIndicator;
import io.fair_acc.chartfx.plugins.Zoomer;
import io.fair_acc.chartfx.renderer.ErrorStyle;
import io.fair_acc.chartfx.renderer.spi.ErrorDataSetRenderer;
import io.fair_acc.dataset.spi.DoubleDataSet;
import javafx.application.Platform;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

import java.util.List;
import java.util.function.DoubleSupplier;

/**
 * The three incident charts on one time axis (seconds since the timeline began): tasks (all, and
 * the selected group), memory and swap, memory pressure; with a marker for each OOM kill, cap
 * reached and stop step. Written by a {@link ChartFeed} from its own thread. Zoom with the mouse
 * wheel or a drag, pan with the middle button (ChartFX's Zoomer), or from the keyboard on a chart
 * with the focus (+/-, the arrows, 0 to follow again: {@link TimeSpan}); the time window follows
 * the newest data unless the user has zoomed.
 */
public final class TimelineCharts implements ChartFeed.Sink {
    final DoubleDataSet tasks = new DoubleDataSet("all tasks");
    final DoubleDataSet groupTasks = new DoubleDataSet("selected group");
    final DoubleDataSet memory = new DoubleDataSet("memory used (GiB)");
    final DoubleDataSet swap = new DoubleDataSet("swap used (GiB)");
    final DoubleDataSet pressureSome = new DoubleDataSet("some (avg10 %)");
    final DoubleDataSet pressureFull = new DoubleDataSet("full (avg10 %)");
    final XYChart tasksChart;
    final XYChart memoryChart;
    final XYChart pressureChart;
    private final List<XYChart> charts;
    /** Each chart's data sets in legend order; a set is on its chart only while it has points ({@link #showFilled}). */
    private final java.util.Map<XYChart, List<DoubleDataSet>> sets = new java.util.LinkedHashMap<>();
    private final List<Zoomer> zoomers = new java.util.ArrayList<>();
    static final int MAX_MARKERS = 40;
    private volatile double pressureMax;
    private final java.util.Map<String, Double> lastCap = new java.util.concurrent.ConcurrentHashMap<>();
    private volatile TimeWindow window = TimeWindow.TEN_MINUTES;
    /** The time the keyboard chose for all three charts; null: the window follows the newest data. */
    private TimeSpan keyed;
    private final DoubleSupplier end;
    private final VBox box;
    final MarkerLabelLayer labels;

    /** @param end the newest second of the timeline (the right edge of the window) */
    public TimelineCharts(DoubleSupplier end) {
        this.end = end;
        tasksChart = chart(Panel.TASKS, tasks, groupTasks);
        memoryChart = chart(Panel.MEMORY, memory, swap);
        pressureChart = chart(Panel.PRESSURE, pressureSome, pressureFull);
        charts = List.of(tasksChart, memoryChart, pressureChart);
        // Colours readable on the light and the dark theme alike; the selected group stands out.
        style(tasks, "#3b8ee8");
        style(groupTasks, "#f76707");
        style(memory, "#37b24d");
        style(swap, "#e64980");
        style(pressureSome, "#9775fa");
        style(pressureFull, "#f03e3e");
        labels = new MarkerLabelLayer(tasksChart.getXAxis());
        tasksChart.getPlugins().add(labels);
        box = new VBox(tasksChart, memoryChart, pressureChart);
        box.getStyleClass().add("charts");
    }

    public VBox node() {
        return box;
    }

    public List<XYChart> charts() {
        return charts;
    }

    public void window(TimeWindow w) {
        window = w;
        keyed = null;
        zoomers.forEach(Zoomer::clear);
        follow();
    }

    @Override
    public void batchDone() {
        Platform.runLater(this::follow);
    }

    /** On the JavaFX thread: the time axes show the chosen window, unless a chart is zoomed. */
    void follow() {
        showFilled();
        DefaultNumericAxis p = (DefaultNumericAxis) pressureChart.getYAxis();
        p.setAutoRanging(false);
        p.set(0, Math.max(1, Math.ceil(pressureMax * 1.2)));
        p.setTickUnit(Math.max(0.2, Math.ceil(pressureMax * 1.2) / 5));
        for (int i = 0; i < charts.size(); i++) {
            if (keyed != null || !zoomers.get(i).zoomStackDeque().isEmpty()) continue;
            DefaultNumericAxis x = (DefaultNumericAxis) charts.get(i).getXAxis();
            if (window == TimeWindow.ALL) {
                x.setAutoRanging(true);
            } else {
                double[] r = window.range(end.getAsDouble());
                x.setAutoRanging(false);
                x.set(r[0], r[1]);
                x.setTickUnit(Math.max(1, Math.round((r[1] - r[0]) / 10)));
            }
        }
    }

    /**
     * On the JavaFX thread: puts on each chart the sets that have points and takes off the empty
     * ones. ChartFX 11.3.1 marks a chart dirty again on every pass while an empty set is on an
     * auto-ranging axis (its limits are NaN, and NaN never equals NaN: chart-fx issue 712), which
     * kept JavaFX drawing 60 frames a second at idle (0.12 cores on its thread, 0.11 rendering)
     * while no group was selected, and on a machine without pressure figures always.
     */
    private void showFilled() {
        sets.forEach((chart, all) -> {
            List<DoubleDataSet> filled = all.stream().filter(d -> d.lock().readLockGuard(() -> d.getDataCount()) > 0).toList();
            var on = chart.getDatasets();
            boolean same = on.size() == filled.size();
            for (int i = 0; same && i < on.size(); i++) same = on.get(i) == filled.get(i); // identity: a set's equals compares its points
            if (!same) on.setAll(filled);
        });
    }

    /**
     * A key pressed on a chart with the focus: + and - zoom the three time axes in and out, the
     * arrows pan them, 0 goes back to the time window (following the newest data). True when taken.
     */
    boolean key(javafx.scene.input.KeyEvent e) {
        TimeSpan.Move move = switch (e.getCode()) {
            case PLUS, ADD, EQUALS -> TimeSpan.Move.ZOOM_IN;
            case MINUS, SUBTRACT -> TimeSpan.Move.ZOOM_OUT;
            case LEFT -> TimeSpan.Move.BACK;
            case RIGHT -> TimeSpan.Move.FORWARD;
            default -> null;
        };
        if (e.getCode() == javafx.scene.input.KeyCode.DIGIT0 || e.getCode() == javafx.scene.input.KeyCode.NUMPAD0) {
            window(window);
            return true;
        }
        if (move == null) return false;
        Axis x = tasksChart.getXAxis();
        keyed = (keyed != null ? keyed : new TimeSpan(x.getMin(), x.getMax())).move(move);
        for (XYChart chart : charts) {
            DefaultNumericAxis time = (DefaultNumericAxis) chart.getXAxis();
            time.setAutoRanging(false);
            time.set(keyed.from(), keyed.to());
            time.setTickUnit(Math.max(0.1, keyed.seconds() / 10));
        }
        return true;
    }

    /** The time the keyboard chose, or null while the charts follow the time window (tests). */
    TimeSpan keyed() {
        return keyed;
    }

    private static void style(DoubleDataSet set, String colour) {
        set.setStyle("-fx-line-color: " + colour + "; -fx-line-width: 2; -fx-marker-color: " + colour + ";");
    }

    /** The three charts: title, the y axis's name and unit (none for a count). */
    private enum Panel {
        TASKS("Tasks", "tasks", null), MEMORY("Memory and swap", "size", "GiB"), PRESSURE("Memory pressure", "pressure", "%");

        final String title;
        final String axis;
        final String unit;

        Panel(String title, String axis, String unit) {
            this.title = title;
            this.axis = axis;
            this.unit = unit;
        }
    }

    private XYChart chart(Panel panel, DoubleDataSet... sets) {
        DefaultNumericAxis time = new DefaultNumericAxis("time since start", "s");
        time.setAutoRangePadding(0.01);
        // The tasks chart keeps a band above its data for the markers' words.
        DefaultNumericAxis y = panel == Panel.TASKS ? new LabelBandAxis(panel.axis) : new DefaultNumericAxis(panel.axis, panel.unit);
        if (panel.unit == null) y.setUnit(null);
        y.setTickLabelFormatter(new javafx.util.StringConverter<>() {
            @Override
            public String toString(Number n) {
                double v = n.doubleValue();
                if (Math.abs(v) >= 10_000) return String.format(java.util.Locale.ROOT, "%.0fk", v / 1000);
                if (Math.abs(v) >= 10 || v == Math.rint(v)) return String.format(java.util.Locale.ROOT, "%.0f", v);
                return new java.math.BigDecimal(String.format(java.util.Locale.ROOT, "%.2f", v)).stripTrailingZeros().toPlainString();
            }

            @Override
            public Number fromString(String text) {
                return Double.parseDouble(text);
            }
        });
        y.setForceZeroInRange(true);
        y.setAutoRangePadding(0.1);
        XYChart chart = new XYChart(time, y);
        ErrorDataSetRenderer renderer = (ErrorDataSetRenderer) chart.getRenderers().get(0);
        renderer.setDrawMarker(false);
        renderer.setErrorStyle(ErrorStyle.NONE);
        chart.setTitle(panel.title);
        this.sets.put(chart, List.of(sets));
        chart.setLegendVisible(true);
        chart.setAnimated(false);
        Zoomer zoomer = new Zoomer();
        zoomer.setAnimated(false);
        Zoomer.setOmitZoom(y, true); // zoom and pan in time; the y axis keeps fitting the data
        zoomers.add(zoomer);
        chart.getPlugins().add(zoomer);
        chart.setMinHeight(150);
        // Keyboard zoom and pan: a click gives the chart the focus (and its frame shows it).
        chart.setFocusTraversable(true);
        chart.getStyleClass().add("keyed-chart");
        chart.addEventFilter(javafx.scene.input.MouseEvent.MOUSE_PRESSED, e -> chart.requestFocus());
        chart.addEventHandler(javafx.scene.input.KeyEvent.KEY_PRESSED, e -> {
            if (key(e)) e.consume();
        });
        VBox.setVgrow(chart, Priority.ALWAYS);
        return chart;
    }

    @Override
    public void pulses(double[] seconds, double[] t, double[] mem, double[] sw, double[] some, double[] full) {
        tasks.add(seconds, t);
        memory.add(seconds, mem);
        swap.add(seconds, sw);
        if (!Double.isNaN(some[0])) {
            for (int i = 0; i < some.length; i++) pressureMax = Math.max(pressureMax, Math.max(some[i], full[i]));
            pressureSome.add(seconds, some);
            pressureFull.add(seconds, full);
        }
    }

    @Override
    public void groupTasks(String command, double[] seconds, double[] t, boolean replace) {
        if (replace) {
            groupTasks.clearData();
            groupTasks.setName(command.isEmpty() ? "selected group" : HeaderFigures.shortCommand(command));
        }
        if (seconds.length > 0) groupTasks.add(seconds, t);
    }

    /**
     * A marker for what a reader of the chart must see. A cap that flaps (a drill at its cap
     * loses and regains a task every scan) is marked once per group per minute, and only the
     * newest {@link #MAX_MARKERS} stay: hundreds of indicators would hide the lines.
     */
    @Override
    public void event(TimelineEvent e) {
        if (e.kind() != EventKind.OOM_KILL && e.kind() != EventKind.OOMD_KILL && e.kind() != EventKind.CAP_REACHED
                && e.kind() != EventKind.STOP_STEP) return;
        if (e.kind() == EventKind.CAP_REACHED) {
            Double last = lastCap.get(e.title());
            if (last != null && e.seconds() - last < 60) return;
            lastCap.put(e.title(), e.seconds());
        }
        // Stop steps come within a second or two of each other: only the first and the zero get words.
        String text = e.kind() == EventKind.STOP_STEP ? e.step().map(s -> stepLabel(s.phase())).orElse("")
                : e.kind() == EventKind.CAP_REACHED ? "cap " + e.title() : e.title();
        Platform.runLater(() -> {
            for (XYChart chart : charts) {
                XValueIndicator marker = new XValueIndicator(chart.getXAxis(), e.seconds(), "");
                marker.setEditable(false);
                chart.getPlugins().add(marker);
                List<XValueIndicator> all = chart.getPlugins().stream().filter(p -> p instanceof XValueIndicator)
                        .map(p -> (XValueIndicator) p).toList();
                if (all.size() > MAX_MARKERS) chart.getPlugins().removeAll(all.subList(0, all.size() - MAX_MARKERS));
            }
            // The words go in the band above the tasks data, laid out so none is clipped or covers another.
            labels.add(e.seconds(), text);
            labels.keepNewest(MAX_MARKERS);
        });
    }

    static String stepLabel(StopStep.Phase phase) {
        return switch (phase) {
            case STOP_GROWTH -> "stop";
            case CONFIRM_ZERO -> "zero";
            case KILL, RESTORE -> "";
        };
    }

    /** The share of the tasks axis kept above the data for marker labels. */
    static final double LABEL_BAND = 0.3;

    /**
     * The tasks axis: fits the data as ChartFX does, with a band above it (a {@link #LABEL_BAND}
     * share of the range) where the marker labels go, so no label covers a line.
     */
    static final class LabelBandAxis extends DefaultNumericAxis {
        LabelBandAxis(String name) {
            super(name);
        }

        @Override
        protected io.fair_acc.chartfx.axes.spi.AxisRange autoRange(double min, double max, double length, double labelSize) {
            double low = Math.min(0, min);
            return super.autoRange(min, max + (max - low) * LABEL_BAND / (1 - LABEL_BAND), length, labelSize);
        }
    }

    /** How many markers the tasks chart carries (tests). */
    long markers() {
        return tasksChart.getPlugins().stream().filter(p -> p instanceof XValueIndicator).count();
    }
}
