// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.tui;

import dev.runaway.sandbox.SandboxSample;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class DrillScreenTest {

    private static SandboxSample sample(double seconds, int tasks) {
        return new SandboxSample(Instant.EPOCH, seconds, tasks, tasks, 0, 0);
    }

    @Test
    void barFillsInProportionAndNeverOverflows() {
        assertThat(DrillScreen.bar(0, 400, 10)).isEqualTo("[..........]");
        assertThat(DrillScreen.bar(200, 400, 10)).isEqualTo("[#####.....]");
        assertThat(DrillScreen.bar(900, 400, 10)).isEqualTo("[##########]");
        assertThat(DrillScreen.bar(5, 0, 4)).isEqualTo("[....]");
    }

    @Test
    void sparklineCoversTheWholeHistoryScaledToItsPeak() {
        List<SandboxSample> rising = new ArrayList<>();
        for (int i = 0; i <= 100; i++) rising.add(sample(i / 10.0, i));
        String line = DrillScreen.sparkline(rising, 8);
        assertThat(line).hasSize(8).startsWith("▁").endsWith("█");
        assertThat(line.chars().toArray()).isSorted();
        assertThat(DrillScreen.sparkline(List.of(), 8)).isEmpty();
        assertThat(DrillScreen.sparkline(List.of(sample(0, 3)), 8)).isEqualTo("█");
    }
}
