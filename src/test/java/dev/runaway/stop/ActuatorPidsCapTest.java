// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop;

import dev.runaway.stop.act.Actuator;
import dev.runaway.procfs.ProcReader;
import dev.runaway.sandbox.CgroupSandbox;
import dev.runaway.sandbox.Sandboxes;
import dev.runaway.sandbox.SandboxSpec;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Which pids.max a stop may set to 0: the one of a pids cgroup that holds the stopped cgroup's processes alone. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@Tag("process")
class ActuatorPidsCapTest {

    private static final int CAP = 16;

    private static String cgroupOf(CgroupSandbox s) {
        return "/" + Path.of("/sys/fs/cgroup/unified").relativize(s.dirs().unified());
    }

    private static String pidsMax(CgroupSandbox s) throws Exception {
        return Files.readString(s.dirs().pids().resolve("pids.max")).trim();
    }

    /** N sleepers, each past its exec (so done joining its cgroups). */
    private static void sleepers(CgroupSandbox s, int n) throws Exception {
        for (int i = 0; i < n; i++) s.start(new ProcessBuilder("/bin/sleep", "600"));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (sleeping(s) < n && System.nanoTime() < deadline) Thread.sleep(20);
        assertThat(sleeping(s)).isEqualTo(n);
    }

    private static long sleeping(CgroupSandbox s) {
        ProcReader proc = new ProcReader(Path.of("/proc"));
        return s.memberPids().stream().map(proc::exe).filter(exe -> exe != null && exe.endsWith("/sleep")).count();
    }

    /** A runaway's processes exit all the time: the first member the stop looks at may be gone. */
    @Test
    void aMemberGoneFromProcDoesNotCostTheCap(@TempDir Path fakeProc) throws Exception {
        try (CgroupSandbox runaway = (CgroupSandbox) Sandboxes.create(SandboxSpec.of("test-pids-cap-gone", CAP))) {
            sleepers(runaway, 3);
            Path proc = Path.of("/proc");
            try (Actuator real = new Actuator(proc, () -> null)) {
                // Only the member looked at last is still in this /proc.
                Integer last = null;
                for (Integer pid : real.members(cgroupOf(runaway))) last = pid;
                Files.createDirectories(fakeProc.resolve(last.toString()));
                Files.copy(proc.resolve(last + "/cgroup"), fakeProc.resolve(last + "/cgroup"));
            }
            try (Actuator actuator = new Actuator(fakeProc, () -> null)) {
                assertThat(actuator.capPids(cgroupOf(runaway))).isTrue();
                assertThat(pidsMax(runaway)).isEqualTo("0");
                actuator.uncapPids(cgroupOf(runaway));
            }
            assertThat(pidsMax(runaway)).isEqualTo(Integer.toString(CAP));
        }
    }

    /** A pids cgroup shared with a process of another cgroup is never capped: that would stop it too. */
    @Test
    void aPidsCgroupThatAlsoHoldsAnOutsiderIsLeftAlone() throws Exception {
        try (CgroupSandbox runaway = (CgroupSandbox) Sandboxes.create(SandboxSpec.of("test-pids-cap-shared", CAP));
             CgroupSandbox other = (CgroupSandbox) Sandboxes.create(SandboxSpec.of("test-pids-cap-other", CAP))) {
            sleepers(runaway, 3);
            sleepers(other, 1);
            int outsider = other.memberPids().iterator().next(); // past its exec: its own cgroups joined
            Files.writeString(runaway.dirs().pids().resolve("cgroup.procs"), Long.toString(outsider)); // v1 only
            try (Actuator actuator = new Actuator(Path.of("/proc"), () -> null)) {
                assertThat(actuator.capPids(cgroupOf(runaway))).isFalse();
            }
            assertThat(pidsMax(runaway)).isEqualTo(Integer.toString(CAP));
            other.close(); // the outsider first, so the runaway's pids cgroup can go
        }
    }
}
