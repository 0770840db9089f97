// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.model;

import java.util.List;

/**
 * One process as one scan saw it: raw figures only, nothing derived.
 *
 * @param identity   pid and start time
 * @param ppid       parent pid now (0 for the kernel's own roots)
 * @param pgrp       process group
 * @param session    session id
 * @param state      the state letter of /proc/PID/stat
 * @param comm       the kernel's short name (may hold spaces and parentheses)
 * @param numThreads tasks this process counts for
 * @param rssBytes   resident memory
 * @param cpuTicks   user + system time, in clock ticks
 * @param uid        owner (of /proc/PID), or -1 when it could not be read
 * @param cmdline    arguments, bounded as {@link Argv} keeps them; empty for kernel threads and zombies
 * @param exe        the executable's real path; empty when unreadable (kernel thread, no permission)
 * @param cgroup     the v2 cgroup path ({@code 0::} line), empty when unknown
 * @param cmdlineUnread the command line is not read yet (its read waited on the process's memory
 *                   map, held while it forks): {@code cmdline} is empty for now, not for good, and
 *                   so is {@code exe} when that read waited too (an exec under way)
 * @param forkNoExec the process forked and has not exec'd since (the kernel's PF_FORKNOEXEC): it
 *                   still runs its parent's program, usually for the moment before an exec
 */
public record ProcessSample(ProcessIdentity identity, int ppid, int pgrp, int session, char state, String comm,
                            int numThreads, long rssBytes, long cpuTicks, int uid, List<String> cmdline,
                            String exe, String cgroup, boolean cmdlineUnread, boolean forkNoExec) {

    /** A process that has exec'd (or whose flags are unknown). */
    public ProcessSample(ProcessIdentity identity, int ppid, int pgrp, int session, char state, String comm,
                         int numThreads, long rssBytes, long cpuTicks, int uid, List<String> cmdline,
                         String exe, String cgroup, boolean cmdlineUnread) {
        this(identity, ppid, pgrp, session, state, comm, numThreads, rssBytes, cpuTicks, uid, cmdline, exe, cgroup,
                cmdlineUnread, false);
    }

    /** A process whose command line was read (or has none). */
    public ProcessSample(ProcessIdentity identity, int ppid, int pgrp, int session, char state, String comm,
                         int numThreads, long rssBytes, long cpuTicks, int uid, List<String> cmdline,
                         String exe, String cgroup) {
        this(identity, ppid, pgrp, session, state, comm, numThreads, rssBytes, cpuTicks, uid, cmdline, exe, cgroup, false);
    }

    public int pid() {
        return identity.pid();
    }

    /** Z or X: exited, waiting to be reaped or being reaped; it holds no memory, forks nothing, and a kill changes nothing. */
    public static boolean zombieState(char state) {
        return state == 'Z' || state == 'X';
    }

    public boolean isZombie() {
        return zombieState(state);
    }

    public boolean isKernelThread() {
        return !cmdlineUnread && cmdline.isEmpty() && exe.isEmpty() && (ppid == 2 || identity.pid() == 2);
    }
}
