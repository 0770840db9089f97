// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.analysis;

import dev.runaway.model.ProcessIdentity;
import dev.runaway.model.ProcessSample;
import dev.runaway.procfs.CgroupPids;
import dev.runaway.procfs.ForkLog;
import dev.runaway.procfs.ScriptedForks;
import dev.runaway.sys.Clocks;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static dev.runaway.analysis.Procs.proc;
import static dev.runaway.analysis.Procs.pulse;
import static dev.runaway.analysis.Procs.scan;
import static dev.runaway.analysis.Procs.with;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A daemonizer's levels, each adopted by init through a middle process that exited before any
 * scan read it: with the fork log they hang under their root (one chain, one stop's descent);
 * without it their lineage is lost, and the analysis says so instead of guessing.
 */
class ForkLineageTest {
    private static final String TOOL = "/tmp/x/tool";
    @TempDir
    Path cgroupRoot;

    private final long t = Clocks.bootTicks() + 100; // the levels start after the log began; the root before

    private List<ProcessSample> daemonizer() {
        return with(List.of(
                proc(500, 1).exe(TOOL).session(500).build(),
                proc(502, 1).exe(TOOL).session(501).start(t + 1).build(),
                proc(504, 1).exe(TOOL).session(503).start(t + 3).build()));
    }

    private static ProcessIdentity id(List<ProcessSample> ps, int pid) {
        return ps.stream().filter(p -> p.pid() == pid).findFirst().orElseThrow().identity();
    }

    @Test
    void withTheForkLogTheLevelsDescendFromTheirRootThroughGhosts() {
        ScriptedForks kernel = new ScriptedForks()
                .fork(500, 501, t).fork(501, 502, t + 1).exit(501)
                .fork(502, 503, t + 2).fork(503, 504, t + 3).exit(503);
        ForkLog log = ForkLog.recording(kernel);
        log.catchUp();
        Analyzer analyzer = new Analyzer(new CgroupPids(cgroupRoot)).followingForks(log);
        List<ProcessSample> ps = daemonizer();
        Snapshot s = analyzer.analyze(scan(1, ps), pulse(1, 100, 1000));
        ProcessIdentity root = id(ps, 500);

        TargetSet below = analyzer.targets("pid 500", (p, key) -> p.identity().equals(root));
        assertThat(below.processes()).extracting(ProcessIdentity::pid).containsExactlyInAnyOrder(500, 502, 504);
        assertThat(analyzer.lostLineage(Set.copyOf(below.processes()), root.startTicks())).isEmpty();
        Group tool = s.groups().stream().filter(g -> g.command().equals(TOOL)).findFirst().orElseThrow();
        assertThat(tool.chains()).as("one chain, not three under init").hasSize(1);
    }

    @Test
    void withoutItTheAdoptedLevelsAreNamedAsLostNotTaken() {
        Analyzer analyzer = new Analyzer(new CgroupPids(cgroupRoot));
        List<ProcessSample> ps = daemonizer();
        analyzer.analyze(scan(1, ps), pulse(1, 100, 1000));
        ProcessIdentity root = id(ps, 500);

        TargetSet below = analyzer.targets("pid 500", (p, key) -> p.identity().equals(root));
        assertThat(below.processes()).extracting(ProcessIdentity::pid).containsExactly(500);
        assertThat(analyzer.lostLineage(Set.copyOf(below.processes()), root.startTicks()))
                .extracting(l -> l.process().pid()).containsExactlyInAnyOrder(502, 504);
        assertThat(analyzer.lostLineage(Set.copyOf(below.processes()), t + 2))
                .as("a line that began before the root cannot be its descendant").extracting(l -> l.process().pid()).containsExactly(504);
    }
}
