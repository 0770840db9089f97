// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The walk of the v2 hierarchy answers as /proc/PID/cgroup does, for this JVM and for a process
 * in a sandbox's cgroup; not for a process started after the walk began (its pid may be a reused
 * one), and not for a /proc it cannot match to the hierarchy.
 */
@Tag("process")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CgroupMembersTest {
    private final ProcReader proc = new ProcReader(Path.of("/proc"));

    @Test
    void theWalkAnswersAsEachProcesssCgroupFileForProcessesStartedBeforeIt() throws Exception {
        int self = (int) ProcessHandle.current().pid();
        try (Sandbox box = Sandboxes.create(SandboxSpec.of("test-cgroup-members", 8))) {
            Process sleeper = box.start(new ProcessBuilder("sleep", "60"));
            int pid = (int) sleeper.pid();
            String own = proc.cgroup(pid);
            assumeTrue(!own.isEmpty(), "no v2 cgroup on this machine");
            long started = proc.stat(pid).orElseThrow().startTicks();
            // Its start must be a tick or more before the walk's, as the walk asks.
            org.awaitility.Awaitility.await().atMost(5, TimeUnit.SECONDS).pollInterval(java.time.Duration.ofMillis(20))
                    .until(() -> ticksNow() > started + 2);

            Optional<CgroupMembers> walked = CgroupMembers.walk(proc);

            assertThat(walked).isPresent();
            CgroupMembers members = walked.get();
            assertThat(members.of(pid, started)).contains(own);
            assertThat(own).as("the sandbox's cgroup, not ours").isNotEqualTo(proc.cgroup(self));
            assertThat(members.of(self, proc.stat(self).orElseThrow().startTicks())).contains(proc.cgroup(self));
            assertThat(members.of(pid, ticksNow() + 10)).as("a process started after the walk: its pid may be reused").isEmpty();
            assertThat(members.of(Integer.MAX_VALUE - 1, 0)).as("a pid not listed").isEmpty();
        }
    }

    @Test
    void theWalkIsTakenWhenItIsCheaperThanTheNewProcessesFiles() {
        assertThat(CgroupMembers.worthIt(5_000, 5_070)).as("a first scan").isTrue();
        assertThat(CgroupMembers.worthIt(63, 300)).as("a few new on a small machine").isFalse();
        assertThat(CgroupMembers.worthIt(500, 50_000)).as("a fire's scan on a big table").isFalse();
        assertThat(CgroupMembers.worthIt(4_000, 50_000)).isTrue();
    }

    @Test
    void aProcWithoutTheHierarchysMountIsNotWalked(@org.junit.jupiter.api.io.TempDir Path dir) {
        FakeProc fake = new FakeProc(dir.resolve("proc"));
        fake.nonProcessEntries();
        assertThat(CgroupMembers.walk(fake.reader())).isEmpty();
    }

    private long ticksNow() {
        return (long) (Double.parseDouble(proc.text("uptime").orElseThrow().trim().split("\\s+")[0]) * 100);
    }
}
