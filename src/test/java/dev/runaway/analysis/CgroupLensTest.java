package dev.runaway.analysis;

import dev.runaway.model.ProcessSample;
import dev.runaway.procfs.CgroupPids;
import dev.runaway.procfs.ProcessCaps;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static dev.runaway.analysis.Procs.MIB;
import static dev.runaway.analysis.Procs.proc;
import static dev.runaway.analysis.Procs.pulse;
import static dev.runaway.analysis.Procs.scan;
import static dev.runaway.analysis.Procs.with;
import static org.assertj.core.api.Assertions.assertThat;

/** The second lens: a runaway of copied binaries is many one-task groups, but one cgroup. */
class CgroupLensTest {
    private static final int HIGH = 5_000_000;

    @TempDir
    Path cgroups;

    /** {@code count} copies of one binary, each under its own name, all in /sbx. */
    private static List<ProcessSample> copies(int count) {
        List<ProcessSample> p = new ArrayList<>();
        p.add(proc(900, 1).binary("/usr/bin/bash", "spawn.sh").cgroup("/sbx").build());
        for (int i = 0; i < count; i++) {
            p.add(proc(HIGH + i, 900).binary("/tmp/copies/worker-" + i).cgroup("/sbx").session(900).rss(MIB).build());
        }
        for (int i = 0; i < 50; i++) p.add(proc(HIGH + 10_000 + i, 1).binary("/usr/bin/sleep").cgroup("/user.slice").build());
        return p;
    }

    @Test
    void aCgroupOfCopiedBinariesGrowingToItsCapIsOneRowAtTheTopOfTheLens() throws IOException {
        Path sbx = Files.createDirectories(cgroups.resolve("pids/sbx"));
        Files.writeString(sbx.resolve("pids.max"), "300\n");
        Analyzer analyzer = new Analyzer(new CgroupPids(cgroups), ProcessCaps.none());
        Snapshot s = null;
        for (int i = 0; i <= 20; i++) {
            int n = Math.min(299, 10 + 15 * i);
            Files.writeString(sbx.resolve("pids.current"), (n + 1) + "\n");
            Files.writeString(sbx.resolve("pids.events"), "max " + Math.max(0, 15 * i - 289) + "\n");
            s = analyzer.analyze(scan(0.1 * i, with(copies(n))), pulse(0.1 * i, 1000, 10_000));
        }

        assertThat(s.groups()).as("each copy is a command group of its own").hasSizeGreaterThan(299);
        CgroupLoad top = s.cgroups().get(0);
        assertThat(top.path()).isEqualTo("/sbx");
        assertThat(top.atCap()).isTrue();
        assertThat(top.groups()).isEqualTo(300);
        assertThat(top.tasks()).isEqualTo(300);
        assertThat(top.pidsMax()).isEqualTo(300);
        assertThat(top.forksRefused()).as("refused since the scan before").isEqualTo(11);
        assertThat(CgroupColumn.row(top, 120)).contains("AT CAP 11 refused").contains("/sbx");
        assertThat(SnapshotJson.of(s).path("cgroups").get(0).path("cgroup").asText()).isEqualTo("/sbx");
        assertThat(SnapshotJson.of(s).path("cgroups").get(0).path("groups").asInt()).isEqualTo(300);
    }

    @Test
    void aGrowingCgroupHeadsForItsCapBeforeItReachesIt() throws IOException {
        Path sbx = Files.createDirectories(cgroups.resolve("pids/sbx"));
        Files.writeString(sbx.resolve("pids.max"), "1000\n");
        Files.writeString(sbx.resolve("pids.events"), "max 0\n");
        Analyzer analyzer = new Analyzer(new CgroupPids(cgroups), ProcessCaps.none());
        Snapshot s = null;
        for (int i = 0; i <= 20; i++) {
            int n = 10 + 10 * i; // 100 tasks a second
            Files.writeString(sbx.resolve("pids.current"), (n + 1) + "\n");
            s = analyzer.analyze(scan(0.1 * i, with(copies(n))), pulse(0.1 * i, 1000, 10_000));
        }
        CgroupLoad top = s.cgroups().get(0);
        assertThat(top.path()).isEqualTo("/sbx");
        assertThat(top.atCap()).isFalse();
        assertThat(top.secondsLeft()).isBetween(7.0, 9.0); // 790 of room at 100/s
    }
}
