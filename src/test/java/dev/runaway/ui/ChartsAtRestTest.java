// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.ui;

import javafx.scene.Scene;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No chart carries an empty data set. On ChartFX 11.3.1 an empty set kept its chart dirty on
 * every pass (its limits are NaN): JavaFX drew 60 frames a second, a quarter of a core for the
 * idle console, while no group was selected and, on a machine without pressure figures, always.
 * Monocle's headless toolkit draws no frames, so the loop itself shows only in a real window:
 * src/test/sh/console-cost measures it (docs/benchmarks.md, "The console's own cost"). Here:
 * the empty sets are off their charts, and a set goes on with its first points.
 */
@Tag("window")
class ChartsAtRestTest {
    private TimelineCharts charts;

    @AfterEach
    void close() throws Exception {
        FxToolkit.cleanupStages();
    }

    @Test
    void anEmptySetIsOffItsChartUntilItHasPoints() throws Exception {
        FxToolkit.registerPrimaryStage();
        FxToolkit.setupStage(stage -> {
            charts = new TimelineCharts(() -> 60);
            Scene scene = new Scene(charts.node(), 600, 700);
            stage.setScene(scene);
            stage.show();
        });
        // A minute of tasks, memory and swap; no pressure figures (NaN: the kernel has no PSI); nothing selected.
        double[] seconds = new double[60];
        double[] tasks = new double[60];
        double[] nan = new double[60];
        for (int i = 0; i < 60; i++) {
            seconds[i] = i;
            tasks[i] = 100 + i;
            nan[i] = Double.NaN;
        }
        charts.pulses(seconds, tasks, tasks, tasks, nan, nan);
        charts.batchDone();
        WaitForAsyncUtils.waitForFxEvents();

        assertThat(WaitForAsyncUtils.asyncFx(() -> charts.pressureChart.getDatasets().size()).get(5, TimeUnit.SECONDS))
                .as("the empty pressure sets are off their chart").isZero();
        assertThat(WaitForAsyncUtils.asyncFx(() -> charts.tasksChart.getDatasets()).get(5, TimeUnit.SECONDS))
                .as("the empty selected group is off the tasks chart").containsExactly(charts.tasks);

        // A group selected: its set goes on the chart with its first points.
        charts.groupTasks("/usr/bin/make", new double[] {58, 59}, new double[] {3, 4}, true);
        charts.batchDone();
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(WaitForAsyncUtils.asyncFx(() -> charts.tasksChart.getDatasets()).get(5, TimeUnit.SECONDS))
                .containsExactly(charts.tasks, charts.groupTasks);

        // Its group gone (a new selection with no points yet): off again.
        charts.groupTasks("", new double[0], new double[0], true);
        charts.batchDone();
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(WaitForAsyncUtils.asyncFx(() -> charts.tasksChart.getDatasets()).get(5, TimeUnit.SECONDS))
                .containsExactly(charts.tasks);
    }
}
