// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import dev.runaway.analysis.CommandKeys;
import dev.runaway.model.Argv;
import dev.runaway.model.ProcessSample;
import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * 1,000 real interpreter processes (sh running a script), each with 60 KiB of arguments of its
 * own, in a sandbox capped at 1,500 tasks: what a process table of the real /proc keeps of their
 * command lines stays bounded per process and across the table, and each one's key is its script.
 * The figures (characters kept, heap the table retains) are printed for the record.
 */
@Tag("process")
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class CmdlineMemoryTest {
    private static final int PROCESSES = 1000;
    private static final int ARG_CHARS = 60 * 1024;

    @Test
    void sixtyKiBOfArgumentsPerProcessAreKeptBounded(@TempDir Path dir) throws Exception {
        Path fifo = dir.resolve("never");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
        Path script = dir.resolve("wait.sh");
        Files.writeString(script, "read line < " + fifo + "\n"); // the open waits for a writer that never comes
        // Each child's own 60 KiB argument: its number, zero-padded.
        String launcher = "i=0; while [ $i -lt " + PROCESSES + " ]; do sh " + script + " \"$(printf '%0" + ARG_CHARS + "d' $i)\" &"
                + " i=$((i + 1)); done; echo started; wait";
        // Room above the 1,002 it needs: in one full run the cap (then 1,100) refused forks before
        // all 1,000 were started, with fewer than 1,001 processes in it; the figures now say so.
        try (Sandbox box = Sandboxes.create(SandboxSpec.of("test-cmdline-memory", 1500))) {
            Process sh = box.start(new ProcessBuilder("/bin/sh", "-c", launcher).redirectErrorStream(true));
            assertThat(new String(sh.getInputStream().readNBytes(8))).isEqualTo("started\n");
            await().atMost(Duration.ofSeconds(60))
                    .failFast("forks refused by the cap", () -> box.failedForks() > 0)
                    .until(() -> box.memberPids().size() >= PROCESSES + 1);
            Set<Integer> members = Set.copyOf(box.memberPids());

            Kept whole = keep(new ProcessTable(new ProcReader(Path.of("/proc")), 4096), members, script);
            Kept budgeted = keep(new ProcessTable(new ProcReader(Path.of("/proc")), 4096).budgetingCommandLines(2L << 20), members, script);
            System.out.printf("cmdline memory: %d processes with %d KiB of arguments each: kept %d chars (%d per process at most),"
                            + " table retains %d KiB of heap; with a 2 Mi-char budget %d chars, %d KiB%n", whole.processes(), ARG_CHARS / 1024,
                    whole.chars(), whole.most(), whole.heapBytes() / 1024, budgeted.chars(), budgeted.heapBytes() / 1024);
            assertThat(whole.processes()).isEqualTo(PROCESSES);
            assertThat(whole.most()).as("per process").isLessThanOrEqualTo(Argv.KEPT_CHARS + 64);
            assertThat(budgeted.chars()).as("across the table")
                    .isLessThanOrEqualTo((2L << 20) + (long) PROCESSES * (Argv.FLOOR_CHARS + 64));
        }
    }

    record Kept(int processes, long chars, long most, long heapBytes) {
    }

    /** Scans until every sandboxed sh has its command line read; what the table keeps of them, and the heap it retains. */
    private static Kept keep(ProcessTable table, Set<Integer> members, Path script) throws Exception {
        long before = usedAfterGc();
        java.util.concurrent.atomic.AtomicReference<List<ProcessSample>> ours = new java.util.concurrent.atomic.AtomicReference<>();
        await().atMost(Duration.ofSeconds(120)).until(() -> {
            ours.set(table.scan(true).processes().stream().filter(p -> members.contains(p.pid()) && p.comm().equals("sh")).toList());
            return ours.get().size() >= PROCESSES && ours.get().stream().noneMatch(ProcessSample::cmdlineUnread);
        });
        Set<List<String>> distinct = Collections.newSetFromMap(new IdentityHashMap<>());
        long chars = 0;
        long most = 0;
        int processes = 0;
        for (ProcessSample p : ours.get()) {
            if (p.cmdline().size() < 2 || !p.cmdline().get(1).equals(script.toString())) continue; // the launcher
            processes++;
            assertThat(CommandKeys.of(p)).isEqualTo(script.toString());
            long c = Argv.chars(p.cmdline());
            most = Math.max(most, c);
            if (distinct.add(p.cmdline())) chars += c;
        }
        ours.set(null);
        long held = usedAfterGc() - before;
        if (table.size() < 0) throw new AssertionError(); // the table stays reachable until here
        return new Kept(processes, chars, most, held);
    }

    private static long usedAfterGc() {
        for (int i = 0; i < 3; i++) System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
