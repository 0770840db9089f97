// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.bench;

import dev.runaway.procfs.ProcReader;
import dev.runaway.sys.LibC;
import dev.runaway.sys.Signal;

import java.time.Duration;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The reference the guided stop is measured against: what a person types first. Every 100 ms
 * it lists the processes and SIGKILLs by pid each one it sees in the target set, with no step
 * that stops growth. Limited to the pids {@code allowed} returns (the bench's own sandbox), so
 * it never touches anything else.
 */
public final class NaiveKillLoop {
    public static final Duration PERIOD = Duration.ofMillis(100);

    private final ProcReader reader;
    private final Supplier<Set<Integer>> allowed;

    public NaiveKillLoop(ProcReader reader, Supplier<Set<Integer>> allowed) {
        this.reader = reader;
        this.allowed = allowed;
    }

    /** Runs rounds until a round finds nobody or {@code limit} passes; returns the rounds run. */
    public int run(Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        int rounds = 0;
        while (System.nanoTime() < deadline) {
            rounds++;
            int killed = 0;
            Set<Integer> mine = allowed.get();
            for (int pid : reader.pids()) {
                if (mine.contains(pid) && LibC.INSTANCE.kill(pid, Signal.SIGKILL) == 0) killed++;
            }
            if (killed == 0) return rounds;
            Thread.sleep(PERIOD.toMillis());
        }
        return rounds;
    }
}
