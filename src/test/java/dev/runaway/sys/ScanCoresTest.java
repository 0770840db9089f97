// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sys;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Scanning threads keep off one CPU while asked to, and come back to all of them after. */
class ScanCoresTest {
    @AfterEach
    void allAgain() {
        ScanCores.leaveOneFree(false);
    }

    /** The CPUs the calling thread may use, as the kernel lists them ("0-1"). */
    static String cpusOfThisThread() throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/thread-self/status"))) {
            if (line.startsWith("Cpus_allowed_list:")) return line.substring(line.indexOf(':') + 1).strip();
        }
        throw new IllegalStateException("no Cpus_allowed_list");
    }

    private static String onANewThread(java.util.concurrent.Callable<String> body) throws Exception {
        CompletableFuture<String> got = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                got.complete(body.call());
            } catch (Exception e) {
                got.completeExceptionally(e);
            }
        });
        t.start();
        return got.get(10, TimeUnit.SECONDS);
    }

    @Test
    void aScanningThreadKeepsOffTheLastCpuWhileAskedAndComesBack() throws Exception {
        String all = onANewThread(ScanCoresTest::cpusOfThisThread);
        assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "one CPU: nothing to leave free");

        String seen = onANewThread(() -> {
            ScanCores.leaveOneFree(true);
            ScanCores.keepTo();
            String held = cpusOfThisThread();
            ScanCores.leaveOneFree(false);
            ScanCores.keepTo();
            return held + "|" + cpusOfThisThread();
        });

        String held = seen.substring(0, seen.indexOf('|'));
        assertThat(held).as("held to fewer CPUs than " + all).isNotEqualTo(all);
        assertThat(seen.substring(seen.indexOf('|') + 1)).as("and back on all").isEqualTo(all);
        assertThat(ScanCores.oneFree()).isFalse();
    }

    @Test
    void aThreadThatNeverScannedIsLeftWhereItWas() throws Exception {
        String all = onANewThread(ScanCoresTest::cpusOfThisThread);
        ScanCores.leaveOneFree(true);
        assertThat(onANewThread(ScanCoresTest::cpusOfThisThread)).as("only scanning threads move themselves").isEqualTo(all);
    }
}
