// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sys;

import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * While the guard's thread acts as a user (the connect to their session bus), that user cannot
 * signal it: a SIGKILL to that one thread would end the whole guard. nobody, started first in a
 * sandbox this test owns (cap 8), waits for the thread's id and tries {@code kill -0} on it while
 * the thread is theirs. Before, the thread's real uid was the user's and the signal was allowed.
 */
@Tag("process")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ThreadCredentialsTest {
    @TempDir
    Path dir;

    @Test
    void theUserCannotSignalTheThreadThatActsAsThem() throws Exception {
        assumeTrue(LibC.INSTANCE.geteuid() == 0, "needs root");
        Files.setAttribute(dir, "unix:mode", 0777);
        Path tid = dir.resolve("tid");
        Path result = dir.resolve("result");
        try (Sandbox box = Sandboxes.create(SandboxSpec.of("test-thread-credentials", 8))) {
            box.start(new ProcessBuilder("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "sh", "-c",
                    "while [ ! -s " + tid + " ]; do sleep 0.01; done; kill -0 $(cat " + tid + ") 2>/dev/null; echo $? > "
                            + result + ".tmp; mv " + result + ".tmp " + result));
            String said = ThreadCredentials.as(65534, 65534, () -> {
                String self = Files.readSymbolicLink(Path.of("/proc/thread-self")).toString(); // PID/task/TID
                Files.writeString(tid, self.substring(self.lastIndexOf('/') + 1));
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (!Files.exists(result) && System.nanoTime() < deadline) Thread.sleep(10);
                return Files.readString(result).trim();
            });
            assertThat(said).as("kill -0 of the thread by nobody: 1 is refused").isEqualTo("1");
            assertThat(Files.readAllLines(Path.of("/proc/thread-self/status")).stream().filter(l -> l.startsWith("Uid:")))
                    .as("root again").containsExactly("Uid:\t0\t0\t0\t0");
        }
    }
}
