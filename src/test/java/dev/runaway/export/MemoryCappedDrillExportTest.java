// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.export;

import dev.runaway.analysis.LiveAnalysis;
import dev.runaway.drill.Drill;
import dev.runaway.drill.Drills;
import dev.runaway.drill.Scenario;
import dev.runaway.sandbox.CgroupSandbox;
import dev.runaway.timeline.EventKind;
import dev.runaway.timeline.Incident;
import dev.runaway.timeline.IncidentReader;
import dev.runaway.timeline.IncidentRecorder;
import dev.runaway.timeline.RecordingWriter;
import dev.runaway.timeline.Timeline;
import dev.runaway.timeline.oom.OomTimeline;
import dev.runaway.timeline.oom.OomWatcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The second incident's first chart, from a real recording: a linear drill whose sandbox caps
 * memory at 1,500 MiB (the unit's cap in the write-up) and tasks at 400. It climbs in a straight
 * line until the kernel's OOM killer takes one of its levels; the recording holds those kills
 * (from /dev/kmsg) on the same axis, and the exported charts show the climb, the memory cap and
 * each kill. Images are kept in target/export-gallery/memory-capped to be looked at.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("process")
class MemoryCappedDrillExportTest {
    private static final long MEMORY_CAP = 1500L << 20;

    @Test
    void aMemoryCappedLinearDrillShowsItsClimbTheCapAndTheOomKills(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("drill-linear-memory.jsonl");
        Timeline timeline = Timeline.startingNow("drill linear, memory cap 1500 MiB");
        int kills;
        String sandbox;
        try (LiveAnalysis live = LiveAnalysis.live();
             IncidentRecorder recorder = new IncidentRecorder(timeline, Optional.of(new RecordingWriter(file, 64L << 20,
                     RecordingWriter.fields().put("source", "drill linear, memory cap").put("memoryMax", MEMORY_CAP))));
             OomWatcher oom = OomTimeline.watch(recorder)) {
            assumeTrue(oom.kernelSource().startsWith("/dev/kmsg") || oom.kernelSource().startsWith("journalctl"),
                    "no source of kernel OOM kills here: " + oom.source());
            recorder.attach(live);
            live.start();
            try (Drill drill = Drills.start(Scenario.LINEAR, 400, MEMORY_CAP, Duration.ofMinutes(2), false)) {
                assumeTrue(drill.sandbox() instanceof CgroupSandbox cg && cg.memoryCapBytes().isPresent(),
                        "this machine allows no memory cap for a sandbox: " + drill.sandbox().containment());
                sandbox = drill.sandbox().id();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
                while (oomKills(timeline, sandbox) < 1 && System.nanoTime() < deadline) Thread.sleep(100);
                Thread.sleep(3000); // pressing on the cap
                kills = oomKills(timeline, sandbox);
            }
            Thread.sleep(1000);
        }
        assertThat(kills).as("the kernel's OOM killer took levels of the drill").isGreaterThanOrEqualTo(1);

        Incident incident = IncidentReader.read(file);
        IncidentSummary s = IncidentSummary.of(incident.timeline());
        assertThat(s.oom().kernelKills()).isGreaterThanOrEqualTo(kills);
        assertThat(incident.timeline().events()).filteredOn(e -> e.kind() == EventKind.OOM_KILL)
                .allSatisfy(e -> assertThat(e.detail()).contains("CONSTRAINT_MEMCG"));

        Path out = ChartImagesTest.GALLERY.resolve("memory-capped");
        List<Path> written = Exporter.export(incident, ExportOptions.to(out).formats(EnumSet.of(Format.PNG, Format.SVG))
                .memoryCap(MEMORY_CAP), System.out::println);
        assertThat(written).contains(out.resolve("memory.png"), out.resolve("oom.png"));
        List<Chart> charts = Charts.of(incident.timeline(), s, Optional.empty(), java.time.ZoneId.systemDefault(),
                OptionalLong.of(MEMORY_CAP));
        Chart memory = charts.stream().filter(c -> c.name().equals("memory")).findFirst().orElseThrow();
        assertThat(memory.levels()).extracting(Chart.Level::value).contains((double) MEMORY_CAP);
        assertThat(memory.marks()).extracting(Chart.Mark::legend).contains("out-of-memory kill");
        BufferedImage oomImage = ImageIO.read(out.resolve("oom.png").toFile());
        assertThat(oomImage.getWidth()).isEqualTo(1200);
    }

    /** Kills in the drill's own memory cgroup (its levels re-exec through /proc/self/exe: the kernel calls them "exe"). */
    private static int oomKills(Timeline t, String sandbox) {
        return (int) t.events().stream().filter(e -> e.kind() == EventKind.OOM_KILL && e.detail().contains("/" + sandbox)).count();
    }
}
