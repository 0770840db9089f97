// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sandbox;

import dev.runaway.model.ProcessIdentity;
import dev.runaway.procfs.ProcStat;
import dev.runaway.testing.Alive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Control test (b): a workload leaves a sleeping grandchild behind, reparented out of the
 * tree (as the source incident's chains were). Killing the direct child would miss it;
 * teardown must not. Fails if the grandchild is alive 5 s after teardown.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("process")
class SandboxGrandchildTest {
    private static final Path PROC = Path.of("/proc");

    @Test
    void teardownKillsAGrandchildThatLeftTheTree() throws Exception {
        try (Sandbox sandbox = Sandboxes.create(SandboxSpec.of("test-grandchild", 16))) {
            Process child = sandbox.start(new ProcessBuilder("/bin/sh", "-c", "/bin/sh -c 'sleep 300 &'; exit 0"));
            assertThat(child.waitFor(10, TimeUnit.SECONDS)).isTrue();

            ProcessIdentity grandchild = awaitLoneMember(sandbox);
            ProcStat stat = ProcStat.read(PROC, grandchild.pid()).orElseThrow();
            assertThat(stat.comm()).isEqualTo("sleep");
            assertThat(stat.ppid()).as("reparented: its parent is not anything the test started")
                    .isNotEqualTo((int) child.pid()).isNotIn(sandbox.memberPids());

            TeardownReport report = sandbox.teardown();
            assertThat(report.zeroConfirmed()).as(report.summary()).isTrue();

            Thread.sleep(5_000);
            assertThat(Alive.stat(grandchild))
                    .as("teardown killed only the direct child: the grandchild %s survived", grandchild)
                    .isEmpty();
        }
    }

    private static ProcessIdentity awaitLoneMember(Sandbox sandbox) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            Set<Integer> members = sandbox.memberPids();
            if (members.size() == 1) {
                int pid = members.iterator().next();
                Optional<ProcStat> stat = ProcStat.read(PROC, pid);
                if (stat.isPresent() && stat.get().comm().equals("sleep")) return stat.get().identity();
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the grandchild never showed up alone in the sandbox: " + sandbox.memberPids());
    }
}
