// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop;

import dev.runaway.model.ProcessSample;
import dev.runaway.procfs.FakeProc;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The targets of a cgroup frozen before the plan are read on a deadline: a member whose stat
 * waits (here a FIFO; in a fire, a member still mid-exec when the freeze came, which held one
 * stop 90 s) is left out and said, and the rest are there with their executables.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class EarlyFreezeTargetsTest {
    private static final String CGROUP = "/runaway-sandbox.test";
    private static final String TOOL = "/tmp/drill/cache/tool";

    @TempDir
    Path dir;


    @Test
    void aMemberWhoseStatWaitsIsLeftOutAndSaidAndTheRestAreTheTargets() throws Exception {
        Path proc = dir.resolve("proc");
        Set<Integer> pids = new TreeSet<>();
        for (int pid = 100; pid < 140; pid++) {
            Path p = Files.createDirectories(proc.resolve(Integer.toString(pid)));
            Files.writeString(p.resolve("stat"), FakeProc.statLine(pid, "tool", 'S', 99, 99, 99, 1, 1, 1, 5000 + pid, 10));
            Files.createSymbolicLink(p.resolve("exe"), Path.of(TOOL));
            pids.add(pid);
        }
        Path waiting = proc.resolve("120/stat");
        dev.runaway.procfs.Fifos.inPlaceOf(waiting);
        StopEngineDecisionsTest.FakeMachine machine = new StopEngineDecisionsTest.FakeMachine();
        for (int pid : pids) machine.spawn(pid, 99); // its members(), the cgroup's list
        var frozen = new EarlyFreeze.Frozen(CGROUP, pids.size(), true, 0, 0, 0, Map.of());

        long t0 = System.nanoTime();
        Targets targets = EarlyFreeze.targetsOf(proc, new Selector.Command(TOOL), frozen, machine);

        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0)).isLessThan(10_000);
        assertThat(targets.members()).extracting(ProcessSample::pid).hasSize(39).doesNotContain(120);
        assertThat(targets.members()).allSatisfy(m -> assertThat(m.exe()).isEqualTo(TOOL));
        assertThat(targets.cgroupNote()).contains("1 members' stat not read in time");
        dev.runaway.procfs.Fifos.release(waiting); // let the waiting read go
    }

    /** Members 100-129 run the key, 130-139 are children of 100 running something else; one of them mid-exec (its stat a FIFO). */
    private StopEngineDecisionsTest.FakeMachine cgroupWithAChildMidExec(Path proc) throws Exception {
        StopEngineDecisionsTest.FakeMachine machine = new StopEngineDecisionsTest.FakeMachine();
        for (int pid = 100; pid < 140; pid++) {
            Path p = Files.createDirectories(proc.resolve(Integer.toString(pid)));
            int ppid = pid < 130 ? 1 : 100;
            Files.writeString(p.resolve("stat"), FakeProc.statLine(pid, "tool", 'S', ppid, 99, 99, 1, 1, 1, 5000 + pid, 10));
            Files.writeString(p.resolve("status"), "Name:\ttool\nPid:\t" + pid + "\nPPid:\t" + ppid + "\n");
            Files.createSymbolicLink(p.resolve("exe"), Path.of(pid < 130 ? TOOL : "/usr/bin/sleep"));
            machine.spawn(pid, ppid);
        }
        Path waiting = proc.resolve("135/stat");
        dev.runaway.procfs.Fifos.inPlaceOf(waiting);
        return machine;
    }

    @Test
    void aChildMidExecWhoseStatWaitsIsTakenForAChildByItsStatusAndTheFreezeIsAdopted() throws Exception {
        Path proc = dir.resolve("proc");
        var machine = cgroupWithAChildMidExec(proc);
        FirstLever lever = new FirstLever(CGROUP, "", "", 0, 40, 0, 8, "", Map.of());

        long t0 = System.nanoTime();
        EarlyFreeze.Attempt adopted = EarlyFreeze.adopt(proc, new Selector.Command(TOOL), machine, Exclusions.none(-1), lever, System.nanoTime());

        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0)).isLessThan(10_000);
        assertThat(adopted.frozen()).as(adopted.why()).isPresent();
        dev.runaway.procfs.Fifos.release(proc.resolve("135/stat"));
    }

    @Test
    void aStrangerBesideTheChildMidExecStillUndoesTheFreeze() throws Exception {
        Path proc = dir.resolve("proc");
        var machine = cgroupWithAChildMidExec(proc);
        Path p = Files.createDirectories(proc.resolve("140"));
        Files.writeString(p.resolve("stat"), FakeProc.statLine(140, "other", 'S', 1, 99, 99, 1, 1, 1, 5140, 10));
        Files.createSymbolicLink(p.resolve("exe"), Path.of("/usr/bin/other"));
        machine.spawn(140, 1);
        FirstLever lever = new FirstLever(CGROUP, "", "", 0, 41, 0, 8, "", Map.of());

        EarlyFreeze.Attempt adopted = EarlyFreeze.adopt(proc, new Selector.Command(TOOL), machine, Exclusions.none(-1), lever, System.nanoTime());

        assertThat(adopted.frozen()).isEmpty();
        assertThat(adopted.why()).contains("pid 140 (other)").contains("thawed at once");
        dev.runaway.procfs.Fifos.release(proc.resolve("135/stat"));
    }
}
