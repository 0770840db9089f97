// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.timeline.oom;

import dev.runaway.sandbox.CgroupSandbox;
import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import dev.runaway.timeline.EventKind;
import dev.runaway.timeline.Incident;
import dev.runaway.timeline.IncidentReader;
import dev.runaway.timeline.IncidentRecorder;
import dev.runaway.timeline.RecordingWriter;
import dev.runaway.timeline.Timeline;
import dev.runaway.timeline.TimelineEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** OOM kills on the incident's timeline: a real one recorded to the file, and the two kinds converted. */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("process")
class OomTimelineTest {

    @Test
    void aKernelKillAndAnOomdKillBecomeEventsWithTheirCounts() {
        Instant t0 = Instant.parse("2026-10-19T08:00:00Z");
        Timeline t = new Timeline(t0, 0, "test");
        OomEvent kernel = new OomEvent(t0.plusSeconds(90), OomEvent.Source.KERNEL, 4242, "tailscaled", 1, "/system.slice/tailscaled.service",
                "CONSTRAINT_NONE", "", -1, -1, 50L << 20, 0, 0, "Out of memory: Killed process 4242 (tailscaled)");
        OomEvent oomd = new OomEvent(t0.plusSeconds(3600), OomEvent.Source.OOMD, -1, "vte-spawn-1.scope", 18705, "/user.slice/vte-spawn-1.scope",
                "swap", "", -1, -1, -1, -1, -1, "Killed ... due to swap");
        TimelineEvent k = OomTimeline.event(kernel, t), o = OomTimeline.event(oomd, t);
        assertThat(k.kind()).isEqualTo(EventKind.OOM_KILL);
        assertThat(k.seconds()).isEqualTo(90.0);
        assertThat(k.pid()).isEqualTo(4242);
        assertThat(k.count()).isEqualTo(1);
        assertThat(k.title()).isEqualTo("oom-kill tailscaled");
        assertThat(o.kind()).isEqualTo(EventKind.OOMD_KILL);
        assertThat(o.count()).isEqualTo(18705);
        assertThat(o.command()).isEqualTo("vte-spawn-1.scope");
        assertThat(o.detail()).contains("18705 processes");
    }

    @Test
    void aRealKillInAMemoryCappedSandboxIsInTheRecordedIncident(@TempDir Path dir) throws Exception {
        assumeTrue(OomWatcherTest.kmsgReadable(), "/dev/kmsg is not readable here (non-root with dmesg_restrict)");
        Path file = dir.resolve("incident.jsonl");
        int pid;
        try (Sandbox box = Sandboxes.create(SandboxSpec.of("test-oom-timeline", 8).withMemoryMax(32L << 20));
             IncidentRecorder recorder = new IncidentRecorder(Timeline.startingNow("test"),
                     Optional.of(new RecordingWriter(file, 1 << 20, RecordingWriter.fields())));
             OomWatcher watcher = OomTimeline.watch(recorder)) {
            assumeTrue(box instanceof CgroupSandbox cg && cg.memoryCapBytes().isPresent(),
                    "this machine allows no memory cap for a sandbox: " + box.containment());
            Process hog = box.start(new ProcessBuilder("tail", "/dev/zero")
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD));
            pid = (int) hog.pid();
            assertThat(hog.waitFor(60, TimeUnit.SECONDS)).as("the hog died").isTrue();
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(5)).pollInterval(java.time.Duration.ofMillis(20))
                    .until(() -> recorder.timeline().events().stream().anyMatch(e -> e.pid() == pid));
        }
        Incident back = IncidentReader.read(file);
        List<TimelineEvent> ours = back.timeline().events().stream().filter(e -> e.pid() == pid).toList();
        assertThat(ours).singleElement().satisfies(e -> {
            assertThat(e.kind()).isEqualTo(EventKind.OOM_KILL);
            assertThat(e.command()).isEqualTo("tail");
            assertThat(e.detail()).contains("CONSTRAINT_MEMCG");
            assertThat(e.seconds()).isBetween(0.0, 60.0);
        });
    }
}
