// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.timeline.oom;

import dev.runaway.sandbox.CgroupSandbox;
import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A real OOM kill: in a sandbox capped at 8 tasks and 64 MiB, a process named "oom (hog) x" (a
 * symlink to tail, so the kernel prints a name with spaces and parentheses) reads /dev/zero
 * into one ever longer line until the memory cgroup's OOM killer kills it. The live watcher
 * reports exactly that kill, and the history of the last minutes finds it again.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("process")
class OomKillTest {
    private static final long CAP_BYTES = 64L << 20;

    @TempDir
    Path dir;

    @Test
    void theWatcherReportsTheKernelsKillOfAHogInAMemoryCappedSandbox() throws Exception {
        assumeTrue(OomWatcherTest.kmsgReadable(), "/dev/kmsg is not readable here (non-root with dmesg_restrict)");
        Path hogPath = Files.createSymbolicLink(dir.resolve("oom (hog) x"), Path.of("/usr/bin/tail"));
        List<OomEvent> events = new CopyOnWriteArrayList<>();
        Instant before = Instant.now();
        try (Sandbox box = Sandboxes.create(SandboxSpec.of("test-oom-kill", 8).withMemoryMax(CAP_BYTES));
             OomWatcher watcher = OomWatcher.start(events::add, box::start)) {
            assumeTrue(box instanceof CgroupSandbox cg && cg.memoryCapBytes().isPresent(),
                    "this machine allows no memory cap for a sandbox: " + box.containment());
            Process hog = box.start(new ProcessBuilder(hogPath.toString(), "/dev/zero")
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD));
            int pid = (int) hog.pid();
            assertThat(hog.waitFor(60, TimeUnit.SECONDS)).as("the hog died").isTrue();
            assertThat(hog.exitValue()).as("by SIGKILL").isEqualTo(137);

            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(5)).pollInterval(java.time.Duration.ofMillis(20))
                    .until(() -> events.stream().anyMatch(e -> e.pid() == pid));
            Instant seen = Instant.now();

            // other tests on this machine may OOM too: ours is the one with our pid
            List<OomEvent> ours = events.stream().filter(e -> e.pid() == pid).toList();
            assertThat(ours).as("one event for the kill, within 5 s (watcher: %s)", watcher.source()).hasSize(1);
            OomEvent kill = ours.get(0);
            assertThat(kill.source()).isEqualTo(OomEvent.Source.KERNEL);
            assertThat(kill.command()).isEqualTo("oom (hog) x");
            assertThat(kill.constraint()).isEqualTo("CONSTRAINT_MEMCG");
            assertThat(kill.processesKilled()).isEqualTo(1);
            assertThat(kill.cgroup()).endsWith("/" + box.id());
            assertThat(kill.limitCgroup()).endsWith("/" + box.id());
            assertThat(kill.limitBytes()).isEqualTo(CAP_BYTES);
            assertThat(kill.anonRssBytes()).isBetween(CAP_BYTES / 2, CAP_BYTES);
            assertThat(Duration.between(before.minusSeconds(1), kill.time())).as("wall time from the boot clock").isPositive();
            assertThat(kill.time()).isBefore(Instant.now().plusSeconds(1));
            assertThat(((CgroupSandbox) box).oomKills()).isEqualTo(1);
            assertThat(watcher.problem()).isEmpty();
            System.out.println("OOM kill of " + pid + " stamped " + kill.time() + ", seen by the test " + seen + " ("
                    + Duration.between(kill.time(), seen).toMillis() + " ms later, polling every 20 ms)");

            OomHistory.Result history = OomHistory.read(before.minusSeconds(60), Instant.now().plusSeconds(1), box::start,
                    OomWatcher.DEV_KMSG, BootClock.detect());
            System.out.println("OomHistory source: " + history.source());
            assertThat(history.events()).as(history.source()).filteredOn(e -> e.pid() == pid).singleElement()
                    .satisfies(e -> {
                        assertThat(e.command()).isEqualTo("oom (hog) x");
                        assertThat(Duration.between(kill.time(), e.time()).abs()).isLessThan(Duration.ofSeconds(2));
                    });
        } finally {
            Files.deleteIfExists(hogPath);
        }
    }
}
