// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.analysis;

import dev.runaway.sandbox.CgroupSandbox;
import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A group's memory on real processes that share their pages: one process touches 48 MiB, then
 * forks 8 children that only sleep, so every child's RSS counts the same 48 MiB again (summed
 * RSS about nine times what is in use). The live analysis reports the cgroup's charge where the
 * sandbox has a memory cgroup of its own, and PSS where it has none; never above what the
 * cgroup holds or the machine uses.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@Tag("process")
class SharedMemoryTest {
    private static final long MIB = 1L << 20;
    private static final String SHARER = """
            import os, time
            b = bytearray(48 << 20)
            for i in range(0, len(b), 4096): b[i] = 1
            for _ in range(8):
                if os.fork() == 0:
                    time.sleep(300)
                    os._exit(0)
            print("ready", flush=True)
            time.sleep(300)
            """;

    @Test
    void aSandboxWithItsOwnMemoryCgroupIsMeasuredByItsCharge() throws Exception {
        try (Sandbox sandbox = Sandboxes.create(SandboxSpec.of("test-shared-memory", 16).withMemoryMax(256 * MIB))) {
            assumeTrue(sandbox instanceof CgroupSandbox box && box.memoryCapBytes().isPresent(),
                    "no memory cap for a sandbox here: " + sandbox.containment());
            CgroupSandbox box = (CgroupSandbox) sandbox;
            startSharer(sandbox);
            try (LiveAnalysis live = LiveAnalysis.live().start()) {
                Group g = await(live, sandbox, MemorySource.CGROUP_V1, MemorySource.CGROUP_V2);
                Path dir = box.dirs().memory() != null ? box.dirs().memory() : box.dirs().unified();
                String file = box.dirs().memory() != null ? "memory.usage_in_bytes" : "memory.current";
                long charge = Long.parseLong(Files.readString(dir.resolve(file)).trim());
                assertThat(g.memoryBytes()).as("at most the cgroup's %s %d", file, charge).isLessThanOrEqualTo(charge + MIB);
                assertShared(g, live);
            }
        }
    }

    @Test
    void aSandboxSharingItsMemoryCgroupIsMeasuredByPss() throws Exception {
        try (Sandbox sandbox = Sandboxes.create(SandboxSpec.of("test-shared-pss", 16))) {
            startSharer(sandbox);
            try (LiveAnalysis live = LiveAnalysis.live().start()) {
                Group g = await(live, sandbox, MemorySource.PSS);
                assertShared(g, live);
            }
        }
    }

    private static void startSharer(Sandbox sandbox) throws Exception {
        Process p = sandbox.start(new ProcessBuilder("python3", "-c", SHARER).redirectError(ProcessBuilder.Redirect.DISCARD));
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream()));
        assertThat(out.readLine()).isEqualTo("ready");
    }

    /** The sandbox's group, once its memory comes from one of SOURCES (it is watched, as a selected row is). */
    private static Group await(LiveAnalysis live, Sandbox sandbox, MemorySource... sources) throws InterruptedException {
        Set<MemorySource> wanted = Set.of(sources);
        Group last = null;
        for (int i = 0; i < 600; i++) {
            Snapshot s = live.latest();
            Set<Integer> members = sandbox.memberPids();
            if (s != null) {
                for (Group g : s.groups()) {
                    if (g.pids().size() != 9 || !members.containsAll(g.pids())) continue;
                    live.watch(Set.of(g.command()));
                    last = g;
                    if (wanted.contains(g.memorySource())) return g;
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the sharer's memory never came from " + wanted + "; last seen: "
                + (last == null ? "no group of 9" : last.memorySource() + " " + last.memoryBytes()));
    }

    private static void assertShared(Group g, LiveAnalysis live) {
        long used = live.latestPulse().memoryUsedBytes();
        System.out.printf("%s: %s %d bytes, summed RSS %d, machine used %d%n", g.command(), g.memorySource(), g.memoryBytes(),
                g.rssBytes(), used);
        assertThat(g.rssBytes()).as("summed RSS counts the shared 48 MiB nine times").isGreaterThan(8 * 48 * MIB);
        assertThat(g.memoryBytes()).as("the real figure counts them once").isBetween(48 * MIB, 3 * 48 * MIB);
        assertThat(g.memoryBytes()).as("at most the machine's used memory").isLessThanOrEqualTo(used);
    }
}
