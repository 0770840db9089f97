// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.export;

import dev.runaway.analysis.GrowthFit;
import dev.runaway.analysis.GrowthShape;
import dev.runaway.timeline.EventKind;
import dev.runaway.timeline.GroupPoint;
import dev.runaway.timeline.GroupScan;
import dev.runaway.timeline.Timeline;
import dev.runaway.timeline.TimelineEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An hour of a console's recording exported whole: pulses at 10 Hz, a scan of 20 groups every
 * 300 ms, a slow leak and a runaway near the end. Prints the time and the file sizes; the SVGs
 * stay small because a line keeps at most four points per pixel column.
 */
class HourExportTest {
    static final int PULSES = 36_000;
    static final int SCANS = 12_000;

    static Timeline hour() {
        Timeline t = new Timeline(IncidentFixtures.STARTED, 0, "fixture: an hour of the console");
        for (int i = 0; i < PULSES; i++) {
            double s = i / 10.0;
            int runaway = s > 3300 ? (int) Math.min(4000, (s - 3300) * 32) : 0;
            t.add(IncidentFixtures.pulse(t, s, 900 + (i % 50) + runaway, (long) (s * 200_000) + runaway * 16 * IncidentFixtures.MIB,
                    runaway > 0 ? 20 : 0.5));
        }
        for (int i = 0; i < SCANS; i++) {
            double s = i * 0.3;
            List<GroupPoint> groups = new ArrayList<>();
            int runaway = s > 3300 ? (int) Math.min(4000, (s - 3300) * 32) : 0;
            if (runaway > 0) {
                groups.add(new GroupPoint(IncidentFixtures.DEPLOY, runaway, runaway * 16 * IncidentFixtures.MIB, new GrowthFit(GrowthShape.LINEAR, 32, 0),
                        512 * IncidentFixtures.MIB, OptionalDouble.empty(), "", 1, runaway, false, true, IncidentFixtures.CYCLE, 4096 - runaway));
            }
            for (int g = 0; groups.size() < Timeline.GROUPS_PER_SCAN; g++) {
                groups.add(new GroupPoint("/usr/bin/daemon-" + g, 40 - g + (int) (s / 400), (100 + g) * IncidentFixtures.MIB, new GrowthFit(GrowthShape.STEADY, 0, 0), 0, OptionalDouble.empty(), "", 1, 2, false, false, List.of(), -1));
            }
            t.add(new GroupScan(s, t.timeAt(s), Math.round(s * 1e9), 900 + runaway, groups));
        }
        t.add(new TimelineEvent(3420, t.timeAt(3420), EventKind.CAP_REACHED, "pids.max deploy.sh", "", 3840, -1, IncidentFixtures.DEPLOY, -1));
        return t;
    }

    @Test
    void anHourExportsInSecondsWithSmallFiles(@TempDir Path dir) throws Exception {
        Timeline t = hour();
        assertThat(t.pulses()).hasSize(PULSES);
        long started = System.nanoTime();
        List<Path> written = Exporter.export(t, ExportOptions.to(dir).zone(ChartImagesTest.UTC), s -> { });
        long millis = (System.nanoTime() - started) / 1_000_000;
        StringBuilder sizes = new StringBuilder();
        for (Path p : written) sizes.append(String.format("  %-14s %,12d bytes%n", p.getFileName(), Files.size(p)));
        System.out.printf("an hour (%,d pulses, %,d scans of %d groups) exported in %,d ms:%n%s", PULSES, SCANS,
                Timeline.GROUPS_PER_SCAN, millis, sizes);
        assertThat(millis).as("export time").isLessThan(60_000);
        for (Path p : written) {
            if (p.toString().endsWith(".svg")) assertThat(Files.size(p)).as(p.toString()).isLessThan(1L << 20);
        }
        Files.createDirectories(ChartImagesTest.GALLERY);
        Files.copy(dir.resolve("tasks.png"), ChartImagesTest.GALLERY.resolve("hour-tasks.png"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Files.copy(dir.resolve("memory.png"), ChartImagesTest.GALLERY.resolve("hour-memory.png"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
}
