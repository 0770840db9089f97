// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.drill;

import dev.runaway.analysis.LiveAnalysis;
import dev.runaway.timeline.GroupPoint;
import dev.runaway.timeline.GroupScan;
import dev.runaway.timeline.Incident;
import dev.runaway.timeline.IncidentReader;
import dev.runaway.timeline.IncidentRecorder;
import dev.runaway.timeline.RecordingWriter;
import dev.runaway.timeline.Timeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Replay equals live: a real linear drill (its own sandbox, cap 120) recorded while the live
 * analysis runs, then read back; every figure derived again from the file equals the one the
 * live console had, and the cap it grew into is marked.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("process")
class DrillReplayTest {

    @Test
    void aRecordedLinearDrillReplaysToTheSameFiguresAsLive(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("drill.jsonl");
        Timeline live = Timeline.startingNow("test drill");
        String command;
        try (LiveAnalysis analysis = LiveAnalysis.live();
             IncidentRecorder recorder = new IncidentRecorder(live, Optional.of(new RecordingWriter(file, 64L << 20,
                     RecordingWriter.fields().put("source", "test")))).attach(analysis)) {
            analysis.start();
            try (Drill drill = Drills.start(Scenario.LINEAR, 120, Duration.ofMinutes(2), false)) {
                command = awaitCommand(analysis, drill);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
                while (System.nanoTime() < deadline && !steadyAtCap(live, command, 120)) Thread.sleep(100);
                assertThat(steadyAtCap(live, command, 120)).as("the drill grew to its cap and stayed").isTrue();
            }
        }
        Incident replay = IncidentReader.read(file);

        List<GroupScan> liveScans = live.scans(), replayed = replay.timeline().scans();
        assertThat(replayed).hasSameSizeAs(liveScans);
        int compared = 0;
        for (int i = 0; i < liveScans.size(); i++) {
            GroupPoint a = liveScans.get(i).group(command), b = replayed.get(i).group(command);
            if (a == null) continue;
            assertThat(b).as("scan %d", i).isEqualTo(a);
            compared++;
        }
        assertThat(compared).as("scans with the drill").isGreaterThan(10);
        // the cgroup lens too: the drill's sandbox with its cap, figures equal to live's
        String cgroup = liveScans.stream().map(x -> x.group(command)).filter(g -> g != null && !g.cgroup().isEmpty())
                .map(GroupPoint::cgroup).findFirst().orElseThrow();
        int lensCompared = 0;
        for (int i = 0; i < liveScans.size(); i++) {
            var a = liveScans.get(i).cgroups().stream().filter(c -> c.path().equals(cgroup)).findFirst();
            if (a.isEmpty()) continue;
            assertThat(replayed.get(i).cgroups()).as("scan %d", i).contains(a.get());
            lensCompared++;
        }
        assertThat(lensCompared).as("scans with the drill's cgroup").isGreaterThan(10);
        // (its last scans are the teardown's, with pids.max 0: the stop's lever, not its cap)
        assertThat(replayed.stream().flatMap(x -> x.cgroups().stream()).filter(c -> c.path().equals(cgroup)))
                .as("the replayed lens shows the drill's cgroup at its cap of 120")
                .anySatisfy(c -> {
                    assertThat(c.pidsMax()).isEqualTo(120);
                    assertThat(c.atCap()).isTrue();
                });
        for (int i = 0; i < live.pulses().size(); i++) {
            assertThat(replay.timeline().pulses().get(i).forksPerSecond()).isEqualTo(live.pulses().get(i).forksPerSecond());
        }
        assertThat(replayed.stream().map(s -> s.group(command)).filter(g -> g != null).map(GroupPoint::growthShape))
                .as("it grew in a straight line").contains("linear");
        assertThat(replay.timeline().events()).anySatisfy(e -> {
            assertThat(e.kind()).isEqualTo(dev.runaway.timeline.EventKind.CAP_REACHED);
            assertThat(e.command()).isEqualTo(command);
        });
    }

    /** The drill's command key: the largest group whose members are all in the drill's sandbox. */
    private static String awaitCommand(LiveAnalysis analysis, Drill drill) throws InterruptedException {
        for (int i = 0; i < 200; i++) {
            var s = analysis.latest();
            java.util.Set<Integer> members = drill.sandbox().memberPids();
            if (s != null) {
                var g = s.groups().stream().filter(x -> x.tasks() >= 5 && members.containsAll(x.pids()))
                        .max(java.util.Comparator.comparingInt(dev.runaway.analysis.Group::tasks));
                if (g.isPresent()) return g.get().command();
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the drill's group never showed");
    }

    private static boolean steadyAtCap(Timeline t, String command, int cap) {
        List<GroupScan> scans = t.scans();
        if (scans.isEmpty()) return false;
        GroupPoint g = scans.get(scans.size() - 1).group(command);
        return g != null && g.tasks() >= cap - 2 && g.tasksGrowth().shape() == dev.runaway.analysis.GrowthShape.STEADY;
    }
}
