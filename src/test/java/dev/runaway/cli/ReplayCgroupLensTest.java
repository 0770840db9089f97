// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.cli;

import dev.runaway.analysis.CgroupLoad;
import dev.runaway.analysis.GrowthFit;
import dev.runaway.analysis.GrowthSeries;
import dev.runaway.analysis.MemorySource;
import dev.runaway.analysis.Snapshot;
import dev.runaway.timeline.GroupPoint;
import dev.runaway.timeline.GroupScan;
import dev.runaway.timeline.Incident;
import dev.runaway.timeline.IncidentReader;
import dev.runaway.timeline.IncidentRecorder;
import dev.runaway.timeline.RecordingWriter;
import dev.runaway.timeline.SyntheticIncident;
import dev.runaway.timeline.Timeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A recording keeps the cgroup lens and the measured memory: read back, every scan's cgroups
 * (growth fitted again) and each group's memory and its source equal the live ones, and
 * {@code replay --by-cgroup} prints the lens. A recording made before either was kept still reads.
 */
class ReplayCgroupLensTest {
    private static final String BOX = "/runaway-sandbox.1.2.3.copies";

    @Test
    void theLensAndTheMemorySourceReplayAsLive(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("incident.jsonl");
        Timeline live = new Timeline(SyntheticIncident.WALL, SyntheticIncident.T0, "test");
        GrowthSeries groups = new GrowthSeries(10), cgroup = new GrowthSeries(10), rest = new GrowthSeries(10);
        try (IncidentRecorder r = new IncidentRecorder(live, Optional.of(new RecordingWriter(file, 1 << 20,
                RecordingWriter.fields().put("source", "test").put("started", SyntheticIncident.WALL.toString()))))) {
            for (int s = 0; s < 14; s++) {
                for (int i = 0; i < 10; i++) r.pulse(SyntheticIncident.pulse(s * 10 + i));
                r.snapshot(withLens(SyntheticIncident.snapshot(s, groups, BOX, Math.max(0, 150 - 15 * s)), s, cgroup, rest));
            }
        }
        Incident replay = IncidentReader.read(file);

        List<GroupScan> a = live.scans(), b = replay.timeline().scans();
        assertThat(b).hasSameSizeAs(a);
        for (int i = 0; i < a.size(); i++) {
            assertThat(b.get(i).cgroups()).as("scan %d", i).isEqualTo(a.get(i).cgroups());
            GroupPoint g = b.get(i).groups().get(0);
            assertThat(g.memorySource()).isEqualTo(MemorySource.CGROUP_V1);
            assertThat(g.memoryBytes()).isEqualTo(a.get(i).groups().get(0).memoryBytes()).isLessThanOrEqualTo(g.rssBytes());
        }
        CgroupLoad last = b.get(b.size() - 1).cgroups().stream().filter(c -> c.path().equals(BOX)).findFirst().orElseThrow();
        assertThat(last.pidsMax()).isEqualTo(150);
        assertThat(last.atCap()).isTrue();
        assertThat(last.groups()).as("copied binaries: many command groups, one cgroup").isEqualTo(140);
        assertThat(b.stream().flatMap(s -> s.cgroups().stream()).filter(c -> c.path().equals(BOX)).map(CgroupLoad::growthShape))
                .as("its growth fitted again").contains("linear");

        ExportCommandTest.Run run = ExportCommandTest.run("replay", "--by-cgroup", file.toString());
        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.out()).contains("CAP", "ROOM", BOX).containsPattern("150 +0 +AT CAP");
        assertThat(ExportCommandTest.run("replay", "--by-cgroup", "--at", "5.5", file.toString()).out())
                .containsPattern("76 +linear +\\+15\\.0/s +150 +74 +5s to cap");
    }

    @Test
    void aRecordingMadeBeforeTheLensAndTheMemorySourceStillReplays(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("old.jsonl");
        Files.writeString(file, String.join("\n",
                "{\"type\":\"header\",\"format\":\"runaway-recording\",\"version\":2,\"started\":\"2026-11-29T19:01:28.58Z\",\"source\":\"record\",\"host\":\"vm\"}",
                "{\"type\":\"pulse\",\"time\":\"2026-11-29T19:01:28.6Z\",\"seconds\":0.02,\"tasks\":300,\"forks\":1000,\"memTotal\":1073741824,\"memAvailable\":536870912,\"swapTotal\":0,\"swapFree\":0,\"pidMax\":32768}",
                "{\"type\":\"scan\",\"time\":\"2026-11-29T19:01:28.7Z\",\"seconds\":0.1,\"mono\":100000000,\"processes\":300,\"full\":true,"
                        + "\"groups\":[{\"command\":\"/bin/fork\",\"tasks\":120,\"rss\":900000000,\"growth\":\"steady\",\"rate\":0.0,"
                        + "\"bytesRate\":0.0,\"chains\":1,\"deepest\":3,\"room\":0,\"cap\":120,\"atCap\":true,\"refused\":4,"
                        + "\"capLimit\":\"pids.max\",\"capValue\":120,\"cgroup\":\"/box\"}]}",
                "") );
        Incident old = IncidentReader.read(file);
        GroupScan scan = old.timeline().scans().get(0);
        assertThat(scan.cgroups()).isEmpty();
        assertThat(scan.groups().get(0).memorySource()).isEqualTo(MemorySource.RSS);
        assertThat(scan.groups().get(0).memoryBytes()).isEqualTo(900_000_000L);

        assertThat(ExportCommandTest.run("replay", file.toString()).status()).isZero();
        ExportCommandTest.Run lens = ExportCommandTest.run("replay", "--by-cgroup", file.toString());
        assertThat(lens.status()).isEqualTo(1);
        assertThat(lens.err()).contains("keeps no cgroup lens");
        Path out = dir.resolve("export");
        assertThat(ExportCommandTest.run("export", file.toString(), "--out", out.toString()).status()).isZero();
        assertThat(Files.readString(out.resolve("groups.csv"))).contains("900000000,900000000,rss,");
    }

    @Test
    void theSelectedGroupIsRecordedWithItsMemoryWhereverItRanks(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("selected.jsonl");
        Timeline live = new Timeline(SyntheticIncident.WALL, SyntheticIncident.T0, "test");
        List<dev.runaway.analysis.Group> groups = new java.util.ArrayList<>();
        for (int i = 0; i < Timeline.GROUPS_PER_SCAN + 5; i++) {
            groups.add(new dev.runaway.analysis.Group("/bin/g" + i, 100 - i, List.of(), false, false, List.of(), 1, 10L << 20,
                    GrowthFit.UNKNOWN, 0, java.util.OptionalDouble.empty(), "", List.of(1000 + i), "", -1, -1));
        }
        String selected = "/bin/g" + (Timeline.GROUPS_PER_SCAN + 3);
        int at = Timeline.GROUPS_PER_SCAN + 3;
        groups.set(at, groups.get(at).withMemory(3L << 20, MemorySource.PSS));
        try (IncidentRecorder r = new IncidentRecorder(live, Optional.of(new RecordingWriter(file, 1 << 20,
                RecordingWriter.fields().put("source", "test").put("started", SyntheticIncident.WALL.toString()))))) {
            r.pulse(SyntheticIncident.pulse(0));
            r.snapshot(new Snapshot(SyntheticIncident.WALL, SyntheticIncident.pulse(0), 0, GrowthFit.UNKNOWN, List.copyOf(groups),
                    500, 1, 1, SyntheticIncident.T0 + 1_000_000, 0, List.of(), java.util.Set.of(selected)));
        }
        GroupScan scan = IncidentReader.read(file).timeline().scans().get(0);
        assertThat(scan.groups()).hasSize(Timeline.GROUPS_PER_SCAN + 1);
        assertThat(scan.group("/bin/g" + (Timeline.GROUPS_PER_SCAN + 1))).as("not shown, not among the most severe").isNull();
        GroupPoint g = scan.group(selected);
        assertThat(g).as("the selected group, beyond the 20 most severe").isNotNull();
        assertThat(g.memorySource()).isEqualTo(MemorySource.PSS);
        assertThat(g.memoryBytes()).isEqualTo(3L << 20);
    }

    /** The snapshot with its group measured by its cgroup's charge and the lens: one cgroup of copied binaries. */
    private static Snapshot withLens(Snapshot s, int second, GrowthSeries series, GrowthSeries rest) {
        var g = s.groups().get(0);
        int tasks = Math.min(150, 1 + 15 * second);
        series.add(s.monotonicNanos() / 1e9, tasks, 0);
        GrowthFit fit = series.fitTasks();
        long room = 150 - tasks;
        boolean atCap = room == 0;
        CgroupLoad box = new CgroupLoad(BOX, tasks, tasks, Math.max(1, tasks - 10), fit, 150, room, atCap, atCap ? 3 : 0,
                CgroupLoad.secondsLeft(fit, tasks, room, atCap), false);
        rest.add(s.monotonicNanos() / 1e9, 300, 0);
        CgroupLoad root = new CgroupLoad("/", 300, 280, 40, rest.fitTasks(), -1, -1, false, 0, Double.NaN, false);
        List<CgroupLoad> lens = new java.util.ArrayList<>(List.of(box, root));
        lens.sort(dev.runaway.analysis.GroupOrder.severity()); // most severe first, as the analyzer gives them
        return new Snapshot(s.time(), s.pulse(), s.forksPerSecond(), s.totalGrowth(),
                List.of(g.withMemory(g.rssBytes() / 9, MemorySource.CGROUP_V1)), s.processes(), s.scanNanos(),
                s.analysisNanos(), s.monotonicNanos(), s.newlyReparented(), List.copyOf(lens));
    }
}
