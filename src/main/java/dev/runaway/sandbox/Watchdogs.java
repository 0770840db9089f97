// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sandbox;

import dev.runaway.model.ProcessIdentity;
import dev.runaway.procfs.ProcStat;

import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The sandbox watchdogs this process started, each by pid and start time as the kernel gave
 * them when it started them: they detach to init on purpose, and the analysis counts them as
 * this console's own from this record alone. A command line naming this process ({@code --owner
 * PID:START}) is what anyone can write, so it decides nothing.
 */
public final class Watchdogs {
    private static final Set<ProcessIdentity> STARTED = ConcurrentHashMap.newKeySet();

    private Watchdogs() {
    }

    /** Records the watchdog PID that one of our sandboxes just started (it prints its pid, then lives on). */
    static void started(int pid) {
        ProcStat.read(Path.of("/proc"), pid).ifPresent(s -> STARTED.add(s.identity()));
    }

    /** Every watchdog this process started, gone ones included (a pid reused later has another start time). */
    public static Set<ProcessIdentity> started() {
        return Set.copyOf(STARTED);
    }
}
