// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.timeline;

import dev.runaway.analysis.Group;
import dev.runaway.analysis.GrowthFit;
import dev.runaway.analysis.GrowthSeries;
import dev.runaway.analysis.Snapshot;
import dev.runaway.model.PulseSample;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

import static org.assertj.core.api.Assertions.assertThat;

/** The timeline recorded to a file and read back: same points, same derived figures, events. */
class IncidentRecorderTest {
    private static final long T0 = SyntheticIncident.T0;
    private static final Instant WALL = SyntheticIncident.WALL;

    private static PulseSample pulse(int i) {
        return SyntheticIncident.pulse(i);
    }

    private static Snapshot snapshot(int second, GrowthSeries series, String cgroup, long room) {
        return SyntheticIncident.snapshot(second, series, cgroup, room);
    }

    private static IncidentRecorder record(Path file, long maxBytes, Timeline timeline) throws Exception {
        return new IncidentRecorder(timeline, Optional.of(new RecordingWriter(file, maxBytes,
                RecordingWriter.fields().put("source", "test").put("started", WALL.toString()))));
    }

    @Test
    void aReplayDerivesTheSameRatesAsLive(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("incident.jsonl");
        Timeline live = new Timeline(WALL, T0, "test");
        GrowthSeries series = new GrowthSeries(10);
        try (IncidentRecorder r = record(file, 1 << 20, live)) {
            for (int s = 0; s < 12; s++) {
                for (int i = 0; i < 10; i++) r.pulse(pulse(s * 10 + i));
                r.snapshot(snapshot(s, series, "/runaway-sandbox.x", s >= 10 ? 0 : 100));
            }
        }
        Incident replay = IncidentReader.read(file);

        assertThat(replay.timeline().pulses()).hasSize(120);
        for (int i = 0; i < 120; i++) {
            PulsePoint a = live.pulses().get(i), b = replay.timeline().pulses().get(i);
            assertThat(b.forksPerSecond()).isEqualTo(a.forksPerSecond());
            assertThat(b.memoryUsedBytes()).isEqualTo(a.memoryUsedBytes());
            assertThat(b.pressureSome10()).isEqualTo(a.pressureSome10());
        }
        assertThat(live.pulses().get(50).forksPerSecond()).isGreaterThan(0);
        for (int s = 0; s < 12; s++) {
            GroupPoint a = live.scans().get(s).groups().get(0), b = replay.timeline().scans().get(s).groups().get(0);
            assertThat(b).isEqualTo(a); // growth fitted again from the recorded counts: the same, to the bit
        }
        assertThat(live.scans().get(11).groups().get(0).growthShape()).isEqualTo("linear");
        assertThat(live.scans().get(11).groups().get(0).rate()).isCloseTo(32.0, org.assertj.core.data.Offset.offset(1e-6));
    }

    @Test
    void recursionReparentingAndTheCapAreMarkedOnceEach(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("incident.jsonl");
        Timeline live = new Timeline(WALL, T0, "test");
        GrowthSeries series = new GrowthSeries(10);
        try (IncidentRecorder r = record(file, 1 << 20, live)) {
            for (int s = 0; s < 12; s++) r.snapshot(snapshot(s, series, "/runaway-sandbox.x", s >= 10 ? 0 : 100));
        }
        List<TimelineEvent> events = IncidentReader.read(file).timeline().events();
        assertThat(events).extracting(TimelineEvent::kind)
                .containsExactly(EventKind.RECURSION, EventKind.REPARENTING, EventKind.CAP_REACHED);
        assertThat(events.get(0).detail()).startsWith("deploy.sh -> python3 -m unittest -> deploy.sh");
        assertThat(events.get(1).count()).isEqualTo(40);
        assertThat(events.get(2).seconds()).isCloseTo(10.0076, org.assertj.core.data.Offset.offset(1e-3));
        assertThat(events).isEqualTo(live.events());
    }

    @Test
    void aRotatedIncidentReadsBackWhole(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("incident.jsonl");
        Timeline live = new Timeline(WALL, T0, "test");
        try (IncidentRecorder r = record(file, 8_000, live)) {
            for (int i = 0; i < 60; i++) r.pulse(pulse(i));
        }
        assertThat(dir.resolve("incident.jsonl.1")).exists();
        Incident back = IncidentReader.read(file);
        assertThat(back.files()).hasSize(2);
        assertThat(back.timeline().pulses()).extracting(PulsePoint::tasks)
                .containsExactlyElementsOf(live.pulses().stream().map(PulsePoint::tasks).toList());
    }

    @Test
    void scanLinesHoldOnlyWhatChangedYetReadBackWhole(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("incident.jsonl");
        Timeline live = new Timeline(WALL, T0, "test");
        GrowthSeries series = new GrowthSeries(10);
        try (IncidentRecorder r = record(file, 1 << 20, live)) {
            for (int s = 0; s < 25; s++) {
                Snapshot grow = snapshot(s, series, "/runaway-sandbox.x", 100);
                Group calm = new Group("/usr/sbin/sshd", 3, List.of(), false, false, List.of(), 1, 4096,
                        new GrowthFit(dev.runaway.analysis.GrowthShape.STEADY, 0, 0), 0, OptionalDouble.empty(), "",
                        List.of(7), "", -1);
                List<Group> groups = s == 17 ? List.of(grow.groups().get(0)) : List.of(grow.groups().get(0), calm);
                r.snapshot(new Snapshot(grow.time(), grow.pulse(), 0, grow.totalGrowth(), groups, grow.processes(),
                        0, 0, grow.monotonicNanos(), 0));
            }
        }
        List<String> lines = Files.readAllLines(file);
        long withSshd = lines.stream().filter(l -> l.contains("\"type\":\"scan\"") && l.contains("sshd")).count();
        assertThat(withSshd).as("sshd written when new, when gone, when back, and in full lines (s=0, 10, 20)").isLessThanOrEqualTo(6);
        Incident back = IncidentReader.read(file);
        assertThat(back.timeline().scans()).hasSize(25);
        for (int s = 0; s < 25; s++) {
            assertThat(back.timeline().scans().get(s).groups()).extracting(GroupPoint::command)
                    .containsExactlyElementsOf(live.scans().get(s).groups().stream().map(GroupPoint::command).toList());
            assertThat(back.recordedScans().get(s)).isEqualTo(live.scans().get(s));
        }
    }

    @Test
    void anAtCapGroupReadsBackAtCapWithItsCapCgroupAndRefusals(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("incident.jsonl");
        Timeline live = new Timeline(WALL, T0, "test");
        GrowthSeries series = new GrowthSeries(10);
        try (IncidentRecorder r = record(file, 1 << 20, live)) {
            Snapshot grow = snapshot(0, series, "/runaway-sandbox.x", 100);
            Group capped = grow.groups().get(0).withCap(true,
                    java.util.Optional.of(new dev.runaway.analysis.GroupCap("pids.max", 600)), 42);
            r.snapshot(new Snapshot(grow.time(), grow.pulse(), 0, grow.totalGrowth(), List.of(capped), grow.processes(),
                    0, 0, grow.monotonicNanos(), 0));
        }
        GroupPoint back = IncidentReader.read(file).recordedScans().get(0).groups().get(0);
        assertThat(back.atCap()).isTrue();
        assertThat(back.cap()).contains(new dev.runaway.analysis.GroupCap("pids.max", 600));
        assertThat(back.forksRefused()).isEqualTo(42);
        assertThat(back).isEqualTo(live.scans().get(0).groups().get(0));
    }

    @Test
    void stepsAppendedByAnotherWriterSurviveTheRecordersLaterLines(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("incident.jsonl");
        Timeline live = new Timeline(WALL, T0, "test");
        try (IncidentRecorder r = record(file, 1 << 20, live)) {
            r.pulse(pulse(0));
            try (IncidentAppender stop = IncidentAppender.open(file, "stop")) {
                stop.event(new TimelineEvent(stop.timeline().secondsOf(WALL.plusSeconds(1)), WALL.plusSeconds(1),
                        EventKind.STOP_STEP, "stop growth", "freeze", 300, -1, "/tmp/x", 81));
            }
            for (int i = 1; i < 5; i++) r.pulse(pulse(i));
        }
        Incident back = IncidentReader.read(file);
        assertThat(back.timeline().pulses()).hasSize(5);
        assertThat(back.timeline().events()).singleElement().satisfies(e -> {
            assertThat(e.kind()).isEqualTo(EventKind.STOP_STEP);
            assertThat(e.seconds()).isEqualTo(1.0);
            assertThat(e.millis()).isEqualTo(81);
        });
        assertThat(back.tornLineSkipped()).isFalse();
    }

    /** The sampler's threads are not joined: a scan delivered after close must not reach the timeline alone. */
    @Test
    void afterCloseNothingReachesTheFileOrTheTimeline(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("incident.jsonl");
        Timeline live = new Timeline(WALL, T0, "test");
        GrowthSeries series = new GrowthSeries(10);
        IncidentRecorder r = record(file, 1 << 20, live);
        r.pulse(pulse(0));
        r.snapshot(snapshot(0, series, "/runaway-sandbox.x", 100));
        r.close();
        r.pulse(pulse(1));
        r.snapshot(snapshot(1, series, "/runaway-sandbox.x", 100));
        assertThat(live.pulses()).hasSize(1);
        assertThat(live.scans()).hasSameSizeAs(IncidentReader.read(file).timeline().scans()).hasSize(1);
    }

    @Test
    void aFailingDiskEndsTheRecordingInWordsAndTheTimelineGoesOn(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("incident.jsonl");
        Timeline live = new Timeline(WALL, T0, "test");
        IncidentRecorder r = record(file, 1 << 20, live);
        r.pulse(pulse(0));
        r.writer().orElseThrow().close(); // what a full or vanished disk looks like to the next write
        r.pulse(pulse(1));
        assertThat(r.recording()).isFalse();
        assertThat(r.failure()).startsWith("recording stopped:");
        assertThat(live.pulses()).hasSize(2);
        assertThat(Files.readAllLines(file)).hasSize(2);
    }

    @Test
    void aVersionOneRunRecordingReadsAsOneGroup(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("run.jsonl");
        Files.writeString(file, """
                {"type":"header","format":"runaway-recording","version":1,"started":"2026-11-29T18:31:10.72Z","source":"run"}
                {"type":"event","time":"2026-11-29T18:31:10.80Z","seconds":0.08,"kind":"started","note":"mvn test"}
                {"type":"sample","time":"2026-11-29T18:31:10.90Z","seconds":0.18,"tasks":12,"processes":3,"rssBytes":1000,"failedForks":0}
                {"type":"end","time":"2026-11-29T18:31:11.90Z","seconds":1.18,"exitStatus":0,"peakTasks":12}
                """);
        Incident back = IncidentReader.read(file);
        assertThat(back.timeline().scans()).singleElement().satisfies(s -> assertThat(s.groups().get(0).tasks()).isEqualTo(12));
        assertThat(back.timeline().events()).singleElement().satisfies(e -> {
            assertThat(e.kind()).isEqualTo(EventKind.NOTE);
            assertThat(e.title()).isEqualTo("started");
            assertThat(e.detail()).isEqualTo("mvn test");
        });
        assertThat(back.end()).isPresent();
    }
}
