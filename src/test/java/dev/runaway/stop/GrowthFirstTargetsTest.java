// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop;

import dev.runaway.stop.run.GrowthFirst;
import dev.runaway.stop.target.FrozenMembers;
import dev.runaway.stop.run.FirstLever;
import dev.runaway.stop.target.Exclusions;
import dev.runaway.stop.target.ExeReads;
import dev.runaway.stop.target.Targets;
import dev.runaway.model.ProcessSample;
import dev.runaway.procfs.FakeProc;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
class GrowthFirstTargetsTest {
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
        var frozen = new GrowthFirst.Frozen(CGROUP, pids.size(), true, 0, 0, 0, Map.of());

        long t0 = System.nanoTime();
        Targets targets = GrowthFirst.targetsOf(proc, new Selector.Command(TOOL), frozen, machine);

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
        FirstLever lever = new FirstLever(CGROUP, "", "", 0, 40, 0, 8, "", Map.of(), Optional.of(new Selector.Command(TOOL)));

        long t0 = System.nanoTime();
        GrowthFirst.Attempt adopted = GrowthFirst.adopt(proc, new Selector.Command(TOOL), machine, Exclusions.none(-1), lever, System.nanoTime());

        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0)).isLessThan(10_000);
        assertThat(adopted.frozen()).as(adopted.why()).isPresent();
        dev.runaway.procfs.Fifos.release(proc.resolve("135/stat"));
    }

    /**
     * More children mid-exec than the shared stat readers' bound: the adoption's check leaves every
     * reading thread waiting in one of their stats. At 20,000 pressing tasks the plan then read no
     * member at all, said "nothing matches" and thawed the runaway it had stopped (bench stop).
     */
    @Test
    void moreChildrenMidExecThanReadingThreadsStillLeaveTheKeysProcessesTheTargets() throws Exception {
        Path proc = dir.resolve("proc");
        StopEngineDecisionsTest.FakeMachine machine = new StopEngineDecisionsTest.FakeMachine();
        int keyed = 100;
        int midExec = 80; // over StatReads.MAX_THREADS (32)
        List<Path> waiting = new java.util.ArrayList<>();
        for (int pid = 100; pid < 100 + keyed + midExec; pid++) {
            Path p = Files.createDirectories(proc.resolve(Integer.toString(pid)));
            boolean child = pid >= 100 + keyed;
            int ppid = child ? 100 : 1;
            Files.writeString(p.resolve("stat"), FakeProc.statLine(pid, "tool", 'S', ppid, 99, 99, 1, 1, 1, 5000 + pid, 10));
            Files.writeString(p.resolve("status"), "Name:\ttool\nPid:\t" + pid + "\nPPid:\t" + ppid + "\n");
            Files.createSymbolicLink(p.resolve("exe"), Path.of(child ? "/usr/bin/sleep" : TOOL));
            if (child) {
                dev.runaway.procfs.Fifos.inPlaceOf(p.resolve("stat"));
                waiting.add(p.resolve("stat"));
            }
            machine.spawn(pid, ppid);
        }
        FirstLever lever = new FirstLever(CGROUP, "", "", 0, keyed + midExec, 0, 8, "", Map.of(), Optional.of(new Selector.Command(TOOL)));
        try {
            GrowthFirst.Attempt adopted = GrowthFirst.adopt(proc, new Selector.Command(TOOL), machine, Exclusions.none(-1), lever, System.nanoTime());
            assertThat(adopted.frozen()).as(adopted.why()).isPresent();

            Targets targets = GrowthFirst.targetsOf(proc, new Selector.Command(TOOL), adopted.frozen().get(), machine);

            assertThat(targets.members()).extracting(ProcessSample::pid).hasSize(keyed).allMatch(pid -> pid < 100 + keyed);
            assertThat(targets.cgroupNote()).contains(midExec + " members' stat not read in time");
        } finally {
            for (Path fifo : waiting) dev.runaway.procfs.Fifos.release(fifo);
        }
    }

    /** Every member mid-exec when the freeze came: the plan waits for their execs (growth is stopped) instead of saying "nothing matches". */
    @Test
    void whenNoMembersStatIsReadYetThePlanWaitsForTheirExecsToEnd() throws Exception {
        Path proc = dir.resolve("proc");
        StopEngineDecisionsTest.FakeMachine machine = new StopEngineDecisionsTest.FakeMachine();
        List<Path> waiting = new java.util.ArrayList<>();
        for (int pid = 100; pid < 110; pid++) {
            Path p = Files.createDirectories(proc.resolve(Integer.toString(pid)));
            Files.createSymbolicLink(p.resolve("exe"), Path.of(TOOL));
            waiting.add(p.resolve("stat"));
            dev.runaway.procfs.Fifos.inPlaceOf(p.resolve("stat"));
            machine.spawn(pid, 1);
        }
        var frozen = new GrowthFirst.Frozen(CGROUP, 10, true, 0, 0, 0, Map.of());
        // The execs end a second after the plan starts reading: each stat is then a plain file.
        Thread execsEnd = new Thread(() -> {
            java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(1));
            try {
                for (int pid = 100; pid < 110; pid++) {
                    Path stat = proc.resolve(pid + "/stat");
                    dev.runaway.procfs.Fifos.release(stat);
                    Files.writeString(stat, FakeProc.statLine(pid, "tool", 'S', 1, 99, 99, 1, 1, 1, 5000 + pid, 10));
                }
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        execsEnd.start();
        try {
            Targets targets = GrowthFirst.targetsOf(proc, new Selector.Command(TOOL), frozen, machine);

            assertThat(targets.members()).extracting(ProcessSample::pid).isNotEmpty().allMatch(pid -> pid >= 100 && pid < 110);
        } finally {
            execsEnd.join();
        }
    }

    /** Members 100-139 run the key; 140 is an orphan of the runaway re-executing itself (comm "exe"), its exe link unread for {@code unreadReads} reads. */
    private GrowthFirst.Attempt adoptWithAnOrphanMidExec(Path proc, int unreadReads) throws Exception {
        StopEngineDecisionsTest.FakeMachine machine = new StopEngineDecisionsTest.FakeMachine();
        for (int pid = 100; pid <= 140; pid++) {
            Path p = Files.createDirectories(proc.resolve(Integer.toString(pid)));
            Files.writeString(p.resolve("stat"), FakeProc.statLine(pid, pid == 140 ? "exe" : "tool", 'R', 1, 99, 99, 1, 1, 1, 5000 + pid, 10));
            Files.createSymbolicLink(p.resolve("exe"), Path.of(TOOL));
            machine.spawn(pid, 1);
        }
        java.util.concurrent.atomic.AtomicInteger asked = new java.util.concurrent.atomic.AtomicInteger();
        FrozenMembers.ExeReader real = FrozenMembers.exeReader;
        FrozenMembers.exeReader = (root, pids, stall) -> {
            ExeReads.Result r = real.read(root, pids, stall);
            boolean holds = java.util.Arrays.stream(pids).anyMatch(pid -> pid == 140) && asked.incrementAndGet() <= unreadReads;
            if (!holds) return r;
            Map<Integer, String> exes = new java.util.HashMap<>(r.exes());
            exes.remove(140);
            return new ExeReads.Result(exes, Set.of(140));
        };
        try {
            FirstLever lever = new FirstLever(CGROUP, "", "", 0, 41, 0, 8, "", Map.of(), Optional.of(new Selector.Command(TOOL)));
            return GrowthFirst.adopt(proc, new Selector.Command(TOOL), machine, Exclusions.none(-1), lever, System.nanoTime());
        } finally {
            FrozenMembers.exeReader = real;
        }
    }

    @Test
    void anOrphanMidExecIsWaitedForAndTheFreezeIsAdopted() throws Exception {
        GrowthFirst.Attempt adopted = adoptWithAnOrphanMidExec(dir.resolve("proc"), 3);

        assertThat(adopted.frozen()).as(adopted.why()).isPresent();
    }

    @Test
    void anExecutableStillUnreadAfterThePatienceIsAStrangerAndTheFreezeIsUndone() throws Exception {
        GrowthFirst.Attempt adopted = adoptWithAnOrphanMidExec(dir.resolve("proc"), Integer.MAX_VALUE);

        assertThat(adopted.frozen()).isEmpty();
        assertThat(adopted.why()).contains("pid 140 (exe, its executable not read in time)").contains("thawed at once");
    }

    /** Members 100-139 run the key; 140, an orphan, has no exe link (its memory gone), exiting or not. */
    private GrowthFirst.Attempt adoptWithAMemberWithoutExe(Path proc, boolean exiting) throws Exception {
        StopEngineDecisionsTest.FakeMachine machine = new StopEngineDecisionsTest.FakeMachine();
        for (int pid = 100; pid <= 140; pid++) {
            Path p = Files.createDirectories(proc.resolve(Integer.toString(pid)));
            String stat = FakeProc.statLine(pid, pid == 140 ? "exe" : "tool", 'R', 1, 99, 99, 1, 1, 1, 5000 + pid, 10);
            if (pid == 140 && exiting) stat = stat.replace(" 4194560 ", " 4194564 "); // | PF_EXITING
            Files.writeString(p.resolve("stat"), stat);
            if (pid != 140) Files.createSymbolicLink(p.resolve("exe"), Path.of(TOOL));
            machine.spawn(pid, 1);
        }
        FirstLever lever = new FirstLever(CGROUP, "", "", 0, 41, 0, 8, "", Map.of(), Optional.of(new Selector.Command(TOOL)));
        return GrowthFirst.adopt(proc, new Selector.Command(TOOL), machine, Exclusions.none(-1), lever, System.nanoTime());
    }

    @Test
    void anExitingMemberWithoutExeIsNoStranger() throws Exception {
        GrowthFirst.Attempt adopted = adoptWithAMemberWithoutExe(dir.resolve("proc"), true);

        assertThat(adopted.frozen()).as(adopted.why()).isPresent();
    }

    @Test
    void aLiveMemberWithoutExeOfNoKeysProcessIsStillAStranger() throws Exception {
        GrowthFirst.Attempt adopted = adoptWithAMemberWithoutExe(dir.resolve("proc"), false);

        assertThat(adopted.frozen()).isEmpty();
        assertThat(adopted.why()).contains("pid 140 (exe)");
    }

    @Test
    void aStrangerBesideTheChildMidExecStillUndoesTheFreeze() throws Exception {
        Path proc = dir.resolve("proc");
        var machine = cgroupWithAChildMidExec(proc);
        Path p = Files.createDirectories(proc.resolve("140"));
        Files.writeString(p.resolve("stat"), FakeProc.statLine(140, "other", 'S', 1, 99, 99, 1, 1, 1, 5140, 10));
        Files.createSymbolicLink(p.resolve("exe"), Path.of("/usr/bin/other"));
        machine.spawn(140, 1);
        FirstLever lever = new FirstLever(CGROUP, "", "", 0, 41, 0, 8, "", Map.of(), Optional.of(new Selector.Command(TOOL)));

        GrowthFirst.Attempt adopted = GrowthFirst.adopt(proc, new Selector.Command(TOOL), machine, Exclusions.none(-1), lever, System.nanoTime());

        assertThat(adopted.frozen()).isEmpty();
        assertThat(adopted.why()).contains("pid 140 (other)").contains("thawed at once");
        dev.runaway.procfs.Fifos.release(proc.resolve("135/stat"));
    }
}
