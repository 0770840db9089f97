// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import dev.runaway.sys.ScanCores;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The reading threads keep off one CPU while the console asks it (a runaway holds the machine). */
class ReaderThreadsCoresTest {
    @AfterEach
    void allAgain() {
        ScanCores.leaveOneFree(false);
    }

    private static String cpusOfThisThread() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/thread-self/status"))) {
                if (line.startsWith("Cpus_allowed_list:")) return line.substring(line.indexOf(':') + 1).strip();
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        throw new IllegalStateException("no Cpus_allowed_list");
    }

    @Test
    void aBatchReadWhileOneCpuIsLeftFreeIsReadOffItAndTheNextOneOnAllAgain() throws Exception {
        assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "one CPU: nothing to leave free");
        String all = cpusOfThisThread();
        ReaderThreads<CompletableFuture<String>> readers = new ReaderThreads<>("test-cores", 1, 1, f -> f.complete(cpusOfThisThread()));

        ScanCores.leaveOneFree(true);
        CompletableFuture<String> held = new CompletableFuture<>();
        readers.offer(held);
        assertThat(held.get(10, TimeUnit.SECONDS)).isNotEqualTo(all);

        ScanCores.leaveOneFree(false);
        CompletableFuture<String> again = new CompletableFuture<>();
        readers.offer(again);
        assertThat(again.get(10, TimeUnit.SECONDS)).isEqualTo(all);
    }
}
