// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop.target;

import dev.runaway.stop.Selector;
import dev.runaway.procfs.MemoryFigures;
import dev.runaway.procfs.ProcReader;
import dev.runaway.procfs.PulseReader;
import dev.runaway.sandbox.CgroupSandbox;
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

/**
 * A plan's lever that freezes a cgroup acts on every process in it, also those the plan does not
 * list (a fire's newest processes, whose stats the scan could not read yet): the plan says how
 * many are in the cgroup. In one fire trial the window's plan listed 882 processes and its freeze
 * stopped 20,000.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@Tag("process")
class TargetRescanCgroupCountTest {

    @Test
    void theCgroupsWholeCountIsInThePlansNote(@TempDir Path temp) throws Exception {
        Path key = temp.resolve("cache/tool");
        Files.createDirectories(key.getParent());
        Files.copy(Path.of("/bin/sh"), key);
        key.toFile().setExecutable(true);
        try (CgroupSandbox sandbox = (CgroupSandbox) Sandboxes.create(SandboxSpec.of("test-rescan-count", 16))) {
            // The key forks two children that run sleep: not the key, but what it forked.
            sandbox.start(new ProcessBuilder(key.toString(), "-c", "/bin/sleep 600 & /bin/sleep 600 & wait"));
            ProcReader proc = new ProcReader(Path.of("/proc"));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (sandbox.memberPids().stream().filter(pid -> String.valueOf(proc.exe(pid)).endsWith("/sleep")).count() < 2
                    && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }

            Targets targets = new TargetRescan(Path.of("/proc"), new Selector.Command(key.toString()), Exclusions.none(-1),
                    new PulseReader(Path.of("/proc"), () -> new MemoryFigures(1L << 34, 1L << 33, 0, 0))).get();

            assertThat(targets.members()).as("the key and what it forked").hasSize(3);
            assertThat(targets.cgroup()).isPresent();
            assertThat(targets.cgroupNote()).as("every process in it listed: no count").endsWith("holds only the targets");
        }
    }

    /** The count when the cgroup holds more than the targets listed (which a sandbox cannot stage: it takes a scan that misses processes). */
    @Test
    void aCgroupWithMoreThanTheListedTargetsSaysHowManyInAll() {
        assertThat(TargetRescan.onlyTargets("/fire", 20_000, 882))
                .isEqualTo("the cgroup /fire holds only the targets and what they forked: 20,000 processes in all, 19,118 beyond the targets listed");
        assertThat(TargetRescan.onlyTargets("/fire", 882, 882)).isEqualTo("the cgroup /fire holds only the targets");
    }
}
