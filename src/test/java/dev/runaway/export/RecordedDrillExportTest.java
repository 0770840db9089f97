// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.export;

import dev.runaway.stop.target.TargetRescan;
import dev.runaway.analysis.LiveAnalysis;
import dev.runaway.drill.Drill;
import dev.runaway.drill.Drills;
import dev.runaway.drill.Scenario;
import dev.runaway.procfs.PulseReader;
import dev.runaway.sandbox.Caps;
import dev.runaway.stop.act.Actuator;
import dev.runaway.stop.plan.Disposable;
import dev.runaway.stop.plan.Planner;
import dev.runaway.stop.StepEvents;
import dev.runaway.stop.run.StopEngine;
import dev.runaway.stop.plan.StopPlan;
import dev.runaway.timeline.EventKind;
import dev.runaway.timeline.Incident;
import dev.runaway.timeline.IncidentReader;
import dev.runaway.timeline.IncidentRecorder;
import dev.runaway.timeline.RecordingWriter;
import dev.runaway.timeline.Timeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real drill, recorded, stopped, read back and exported: the linear drill in its own sandbox
 * (cap 200, a literal), the live analysis recorded to a file, the guided stop's steps as events.
 * The charts are kept in target/export-gallery/drill to be looked at.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("process")
class RecordedDrillExportTest {
    private static final Path PROC = Path.of("/proc");

    @Test
    void aLinearDrillRecordedStoppedAndExported(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("drill-linear.jsonl");
        Timeline timeline = Timeline.startingNow("drill linear");
        StopEngine.Outcome outcome;
        String worker;
        double outsideRate;
        try (LiveAnalysis live = LiveAnalysis.live();
             IncidentRecorder recorder = new IncidentRecorder(timeline, Optional.of(new RecordingWriter(file, 64L << 20,
                     RecordingWriter.fields().put("source", "drill linear").put("started", timeline.started().toString()))))) {
            recorder.attach(live);
            live.start();
            Thread.sleep(1000); // a second of the machine at rest first
            long startedNanos = System.nanoTime();
            try (Drill drill = Drills.start(Scenario.LINEAR, 200, Duration.ofMinutes(2), false)) {
                Caps.awaitRefusedFork(drill.sandbox(), 40);
                // The drill's own pace, from outside: its cap reached after this long (the drill aims
                // at 32 levels a second; a loaded suite run once grew at 9.4).
                outsideRate = 200 / ((System.nanoTime() - startedNanos) / 1e9);
                Thread.sleep(2000); // held at its cap
                worker = Files.readSymbolicLink(PROC.resolve(drill.info().rootPid() + "/exe")).toString();
                PulseReader pulse = PulseReader.live();
                StopPlan plan = new Planner(Disposable.forThisUser(), true).plan(TargetRescan.ofCommand(PROC, worker, pulse).get());
                try (Actuator actuator = new Actuator(PROC, () -> null)) {
                    String command = worker;
                    outcome = new StopEngine(actuator, TargetRescan.ofCommand(PROC, worker, pulse),
                            step -> recorder.event(StepEvents.of(step, command, timeline))).run(plan, false);
                }
                Thread.sleep(1500); // the machine after
            }
        }
        assertThat(outcome.zeroConfirmed()).as(outcome.steps().toString()).isTrue();

        Incident incident = IncidentReader.read(file);
        IncidentSummary s = IncidentSummary.of(incident.timeline());
        // The recording is of the whole machine: other drills may run beside this one.
        String command = worker;
        GroupHistory group = GroupHistory.of(incident.timeline().scans()).stream().filter(g -> g.command().equals(command))
                .findFirst().orElseThrow();
        assertThat(group.peakTasks()).isBetween(195, 200);
        assertThat(group.growth()).isEqualTo(dev.runaway.analysis.GrowthShape.LINEAR);
        // The recorded rate is the drill's as seen from outside (the median of the scans' rates
        // while it grew against the average to the cap, start-up included), and never more than
        // its aim allows.
        assertThat(group.tasksPerSecond()).as("outside: %.1f tasks/s", outsideRate)
                .isBetween(outsideRate / 1.5, outsideRate * 1.5).isLessThanOrEqualTo(60.0);
        assertThat(group.capTasks()).isEqualTo(200);
        assertThat(s.caps()).anySatisfy(f -> assertThat(f.title()).startsWith("pids.max"));
        assertThat(s.zeroConfirmed()).isTrue();
        assertThat(s.secondsToZero().getAsDouble()).isCloseTo(outcome.millisToZero() / 1000.0,
                org.assertj.core.data.Offset.offset(0.05));
        assertThat(incident.timeline().events()).filteredOn(e -> e.kind() == EventKind.STOP_STEP).hasSize(outcome.steps().size());

        Path out = ChartImagesTest.GALLERY.resolve("drill");
        List<Path> written = Exporter.export(incident, ExportOptions.to(out).formats(EnumSet.of(Format.PNG, Format.REPORT)),
                System.out::println);
        assertThat(written).contains(out.resolve("tasks.png"), out.resolve("report.html"));
        BufferedImage tasks = ImageIO.read(out.resolve("tasks.png").toFile());
        assertThat(s.topGroups()).extracting(GroupHistory::command).contains(worker);
        Chart chart = Charts.of(incident.timeline(), s, Optional.empty(), java.time.ZoneId.systemDefault(), java.util.OptionalLong.empty()).get(0);
        Chart.Line line = chart.lines().stream().filter(l -> l.label().startsWith(Words.shortName(worker) + " (linear"))
                .findFirst().orElseThrow();
        assertThat(ChartImagesTest.pixels(tasks, line.color())).as("the drill's line").isGreaterThan(300);
        assertThat(chart.marks()).extracting(Chart.Mark::legend).contains("cap reached", "guided stop step");
        assertThat(chart.levels()).extracting(Chart.Level::value).contains(200.0);
        Files.copy(file, out.resolve(file.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
}
