// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.ui;

import dev.runaway.view.ConsoleRow;
import dev.runaway.analysis.Chain;
import dev.runaway.analysis.Group;
import dev.runaway.analysis.GrowthFit;
import dev.runaway.analysis.GrowthShape;
import dev.runaway.analysis.Snapshot;
import dev.runaway.model.Pressure;
import dev.runaway.model.ProcessIdentity;
import dev.runaway.model.PulseSample;
import dev.runaway.timeline.EventKind;
import dev.runaway.timeline.IncidentRecorder;
import dev.runaway.timeline.RecordingWriter;
import dev.runaway.timeline.Timeline;
import dev.runaway.timeline.TimelineEvent;
import javafx.scene.control.TreeItem;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A recorded incident opened in the console (headless): the charts are drawn from the file's
 * timeline, the groups come from its last scan, it is marked REPLAY, and nothing can be stopped.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("window")
class ConsoleReplayTest {
    private static final Instant WALL = Instant.parse("2026-11-29T10:00:00Z");
    private ConsoleSession session;

    @AfterEach
    void close() throws Exception {
        FxToolkit.cleanupStages();
        if (session != null) session.close();
    }

    @Test
    void aRecordingIsBrowsedAsIfLive(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("incident.jsonl");
        Timeline recorded = new Timeline(WALL, 0, "console");
        try (IncidentRecorder r = new IncidentRecorder(recorded, Optional.of(new RecordingWriter(file, 1 << 20,
                RecordingWriter.fields().put("source", "console").put("started", WALL.toString()))))) {
            for (int s = 0; s < 6; s++) {
                for (int i = 0; i < 10; i++) r.pulse(pulse(s * 10 + i));
                r.snapshot(snapshot(s));
            }
            r.event(new TimelineEvent(5.5, WALL.plusMillis(5500), EventKind.STOP_STEP, "stop growth", "freeze", 120, -1,
                    "/tmp/tool", 40));
        }

        FxToolkit.registerPrimaryStage();
        session = ConsoleSession.replay(file);
        ConsoleWindow window = TestWindows.open(session, true);

        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> window.tree.root().getChildren().size() == 1);
        TreeItem<ConsoleRow> group = window.tree.root().getChildren().get(0);
        assertThat(group.getValue().command()).isEqualTo("/tmp/tool");
        assertThat(ChainTree.current(group).cells()).startsWith("150", "linear");
        assertThat(ChainTree.current(group).cells()).contains("3 d50");
        assertThat(window.banner.getText()).startsWith("REPLAY");
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS,
                () -> window.charts.tasks.lock().readLockGuard(() -> window.charts.tasks.getDataCount()) == 60);
        assertThat(window.figures.get(0).getText()).isEqualTo(400 + 32 * 59 / 10 + " / 32768");

        WaitForAsyncUtils.asyncFx(() -> window.table.view.getSelectionModel().select(group)).get();
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS,
                () -> window.charts.groupTasks.lock().readLockGuard(() -> window.charts.groupTasks.getDataCount()) == 6);
        double last = window.charts.groupTasks.lock().readLockGuard(() -> window.charts.groupTasks.get(1, 5));
        assertThat(last).isEqualTo(150.0);
        assertThat(window.stopButton.isDisabled()).as("a recording cannot be stopped").isTrue();
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> window.charts.markers() == 1);
        // Marker labels go in a band the tasks axis keeps free above the data (the highest pulse is 588 tasks).
        var taskAxis = (io.fair_acc.chartfx.axes.spi.DefaultNumericAxis) window.charts.tasksChart.getYAxis();
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> taskAxis.getMax() >= 588 / (1 - TimelineCharts.LABEL_BAND));
        // Its label inside the plot and above the highest pulse, not on the line.
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> WaitForAsyncUtils.asyncFx(
                () -> window.charts.labels.placed().size() == 1).get());
        var label = WaitForAsyncUtils.asyncFx(() -> window.charts.labels.placed().get(0)).get();
        double plotWidth = WaitForAsyncUtils.asyncFx(() -> window.charts.tasksChart.getCanvas().getWidth()).get();
        double dataTop = WaitForAsyncUtils.asyncFx(() -> taskAxis.getDisplayPosition(588)).get();
        assertThat(label.text()).isEqualTo("stop");
        assertThat(label.left()).isGreaterThanOrEqualTo(0);
        assertThat(label.right()).isLessThanOrEqualTo(plotWidth);
        assertThat(label.row()).isZero();
        assertThat(dataTop).as("the label's row ends above the data").isGreaterThan(
                WaitForAsyncUtils.asyncFx(() -> window.charts.labels.rowBottom(0)).get());
        assertThat(window.scene().getStylesheets()).contains(ConsoleWindow.DARK);

        // Keyboard zoom and pan on a chart with the focus: + halves the time shown on all three, Right
        // moves it a quarter on, 0 goes back to following the window (issue 38).
        var tasksX = window.charts.tasksChart.getXAxis();
        double shownSeconds = WaitForAsyncUtils.asyncFx(() -> tasksX.getMax() - tasksX.getMin()).get();
        WaitForAsyncUtils.asyncFx(() -> key(window.charts.tasksChart, javafx.scene.input.KeyCode.PLUS)).get();
        assertThat(window.charts.keyed().seconds()).isCloseTo(shownSeconds / 2, org.assertj.core.data.Offset.offset(1e-6));
        double from = window.charts.keyed().from();
        WaitForAsyncUtils.asyncFx(() -> key(window.charts.tasksChart, javafx.scene.input.KeyCode.RIGHT)).get();
        assertThat(window.charts.keyed().from()).isCloseTo(from + shownSeconds / 8, org.assertj.core.data.Offset.offset(1e-6));
        assertThat(WaitForAsyncUtils.asyncFx(() -> window.charts.memoryChart.getXAxis().getMin()).get()).isEqualTo(window.charts.keyed().from());
        WaitForAsyncUtils.asyncFx(() -> key(window.charts.tasksChart, javafx.scene.input.KeyCode.DIGIT0)).get();
        assertThat(window.charts.keyed()).isNull();
        assertThat(window.menuItem("Keys and guide").getAccelerator().getName()).isEqualTo("F1");
        assertThat(window.menuItem("About Runaway")).isNotNull();

        // File > Export: the exporter of runaway export, on what the window shows.
        Path out = dir.resolve("export");
        WaitForAsyncUtils.asyncFx(() -> window.export(out, false)).get();
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> window.exportStatus.startsWith("Exported"));
        assertThat(window.exportStatus).contains(out.toString());
        assertThat(out.resolve("tasks.png")).exists();
        assertThat(out.resolve("report.html")).exists();

        // File > Save the charts as shown: ChartFX's own snapshot of each chart, as PNG.
        Path shown = dir.resolve("shown");
        List<Path> pngs = WaitForAsyncUtils.asyncFx(() -> window.snapshot(shown)).get();
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> window.exportStatus.startsWith("Saved"));
        assertThat(pngs).extracting(p -> p.getFileName().toString())
                .containsExactly("screen-tasks.png", "screen-memory.png", "screen-pressure.png");
        var tasksChart = window.charts.tasksChart;
        java.awt.image.BufferedImage png = javax.imageio.ImageIO.read(pngs.get(0).toFile());
        assertThat(png.getWidth()).isEqualTo((int) Math.round(tasksChart.getWidth()));
        assertThat(png.getHeight()).isEqualTo((int) Math.round(tasksChart.getHeight()));
    }

    /** A key pressed on {@code target}, as the keyboard gives it to what has the focus. */
    private static void key(javafx.scene.Node target, javafx.scene.input.KeyCode code) {
        javafx.event.Event.fireEvent(target, new javafx.scene.input.KeyEvent(javafx.scene.input.KeyEvent.KEY_PRESSED, "", "", code,
                false, false, false, false));
    }

    private static PulseSample pulse(int i) {
        return new PulseSample(WALL.plusMillis(i * 100L), i * 100_000_000L, 400 + 32 * i / 10, 90_000 + 32L * i / 10,
                24L << 30, (20L << 30) - (250L << 20) * i / 10, 8L << 30, 8L << 30,
                Optional.of(new Pressure(i * 0.5, i * 0.1, 0, 0)), 32768, 100_000);
    }

    private static Snapshot snapshot(int s) {
        int tasks = 25 * (s + 1);
        Chain chain = new Chain(new ProcessIdentity(100, 5), 50, 50, List.of("/tmp/tool"), List.of(100));
        Group g = new Group("/tmp/tool", tasks, List.of(chain, chain, chain), true, false, List.of(), 1, tasks * 1024L,
                new GrowthFit(GrowthShape.LINEAR, 25, 0), 0, OptionalDouble.empty(), "", List.of(100), "", -1);
        return new Snapshot(WALL.plusSeconds(s), pulse(s * 10 + 9), 25, new GrowthFit(GrowthShape.LINEAR, 25, 0), List.of(g),
                500, 1_000_000, 1_000_000, s * 1_000_000_000L + 950_000_000L, 0);
    }
}
