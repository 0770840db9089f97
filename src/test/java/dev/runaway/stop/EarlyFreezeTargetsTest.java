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

    interface Fifo extends com.sun.jna.Library {
        Fifo C = dev.runaway.sys.Jna.libc(Fifo.class);

        int mkfifo(String path, int mode);
    }

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
        Files.delete(waiting);
        assertThat(Fifo.C.mkfifo(waiting.toString(), 0600)).isZero();
        StopEngineDecisionsTest.FakeMachine machine = new StopEngineDecisionsTest.FakeMachine();
        for (int pid : pids) machine.spawn(pid, 99); // its members(), the cgroup's list
        var frozen = new EarlyFreeze.Frozen(CGROUP, pids.size(), true, 0, 0, 0, Map.of());

        long t0 = System.nanoTime();
        Targets targets = EarlyFreeze.targetsOf(proc, new Selector.Command(TOOL), frozen, machine);

        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0)).isLessThan(10_000);
        assertThat(targets.members()).extracting(ProcessSample::pid).hasSize(39).doesNotContain(120);
        assertThat(targets.members()).allSatisfy(m -> assertThat(m.exe()).isEqualTo(TOOL));
        assertThat(targets.cgroupNote()).contains("1 members' stat not read in time");
        try (var writer = new java.io.FileOutputStream(waiting.toFile())) { // let the waiting read go
            writer.write('\n');
        }
    }
}
