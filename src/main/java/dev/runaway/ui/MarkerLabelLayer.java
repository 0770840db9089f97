// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.ui;

import dev.runaway.view.MarkerLabels;
import io.fair_acc.chartfx.axes.Axis;
import io.fair_acc.chartfx.plugins.ChartPlugin;
import javafx.geometry.Bounds;
import javafx.geometry.Insets;
import javafx.scene.control.Label;
import javafx.scene.text.Text;

import java.util.ArrayList;
import java.util.List;

/**
 * Draws the tasks chart's marker labels where {@link MarkerLabels} puts them, after each layout
 * (the time axis moves with the window): in the band the tasks axis keeps above the data, one
 * row per label height that band holds. The marker lines are ChartFX's indicators, unlabelled.
 */
final class MarkerLabelLayer extends ChartPlugin {
    /** A marker: its time on the chart's x axis and its label. */
    record Entry(double seconds, String text) {
    }

    private final List<Entry> entries = new ArrayList<>();
    private final List<Label> labels = new ArrayList<>();
    private final Label probe = label();
    private final Text measure = new Text();
    private List<MarkerLabels.Placed> placed = List.of();
    private double rowHeight;

    private final Axis time;

    MarkerLabelLayer(Axis time) {
        this.time = time;
        probe.setVisible(false);
        probe.setManaged(false);
        getChartChildren().add(probe);
    }

    /** On the JavaFX thread. */
    void add(double seconds, String text) {
        entries.add(new Entry(seconds, text));
        if (getChart() != null) getChart().requestLayout();
    }

    /** On the JavaFX thread: keeps the newest {@code n}, as the chart keeps its newest lines. */
    void keepNewest(int n) {
        if (entries.size() > n) entries.subList(0, entries.size() - n).clear();
    }

    /** The labels as last laid out (tests). */
    List<MarkerLabels.Placed> placed() {
        return placed;
    }

    /** The bottom of a label row, in pixels below the plot's top (tests). */
    double rowBottom(int row) {
        return 2 + (row + 1) * rowHeight;
    }

    @Override
    public void runPostLayout() {
        if (getChart() == null) return;
        Bounds plot = getChart().getCanvas().getBoundsInLocal();
        rowHeight = Math.ceil(probe.prefHeight(-1)) + 2;
        int rows = (int) Math.max(1, Math.floor(plot.getHeight() * TimelineCharts.LABEL_BAND / rowHeight));
        Insets insets = probe.getInsets();
        measure.setFont(probe.getFont());
        List<MarkerLabels.Marker> markers = new ArrayList<>();
        for (Entry e : entries) markers.add(new MarkerLabels.Marker(time.getDisplayPosition(e.seconds()), e.text()));
        placed = MarkerLabels.layout(markers, plot.getWidth(), rows, text -> {
            measure.setText(text);
            return Math.ceil(measure.getLayoutBounds().getWidth() + insets.getLeft() + insets.getRight()) + 1;
        });
        while (labels.size() < placed.size()) {
            Label l = label();
            labels.add(l);
            getChartChildren().add(l);
        }
        while (labels.size() > placed.size()) getChartChildren().remove(labels.remove(labels.size() - 1));
        for (int i = 0; i < placed.size(); i++) {
            MarkerLabels.Placed p = placed.get(i);
            Label l = labels.get(i);
            if (!l.getText().equals(p.text())) l.setText(p.text());
            l.resizeRelocate(plot.getMinX() + p.left(), plot.getMinY() + 2 + p.row() * rowHeight, p.width(), rowHeight - 2);
        }
    }

    private static Label label() {
        // ChartFX's own indicator label style, so the labels look as they did.
        Label l = new Label("M");
        l.getStyleClass().add("value-indicator-label");
        l.setManaged(false);
        l.setMouseTransparent(true);
        return l;
    }
}
