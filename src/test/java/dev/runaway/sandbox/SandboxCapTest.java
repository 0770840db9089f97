// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sandbox;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Control test (a): the cap is enforced outside the code under test and it fires. A shell
 * that tries to start 40 sleepers in a sandbox capped at 8 tasks sees its forks fail.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("process")
class SandboxCapTest {

    @Test
    void forkPastTheCapFailsAndTheCapHolds() throws Exception {
        Path log = Files.createTempFile("runaway-cap", ".log");
        try (Sandbox sandbox = Sandboxes.create(SandboxSpec.of("test-cap", 8))) {
            Process shell = sandbox.start(new ProcessBuilder("/bin/sh", "-c",
                    "i=0; while [ $i -lt 40 ]; do sleep 300 & i=$((i+1)); done; wait")
                    .redirectErrorStream(true).redirectOutput(log.toFile()));
            int most = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (System.nanoTime() < deadline && !Files.readString(log).toLowerCase().contains("fork")) {
                most = Math.max(most, sandbox.taskCount());
                Thread.sleep(20);
            }
            most = Math.max(most, sandbox.taskCount());
            String output = Files.readString(log, StandardCharsets.UTF_8).toLowerCase();
            assertThat(output).as("the shell saw its fork refused").contains("fork");
            assertThat(sandbox.failedForks()).as("pids.events counts refused forks").isPositive();
            assertThat(most).as("never more tasks than the cap").isLessThanOrEqualTo(8);
            assertThat(shell.pid()).isPositive();

            TeardownReport report = sandbox.teardown();
            assertThat(report.zeroConfirmed()).as(report.summary()).isTrue();
            assertThat(((CgroupSandbox) sandbox).dirs().all()).allSatisfy(dir -> assertThat(dir).doesNotExist());
        } finally {
            Files.deleteIfExists(log);
        }
    }
}
