// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.analysis;

import dev.runaway.model.ProcessSample;

import java.util.List;

/**
 * The console's own processes, which the analysis shows as one group, {@link #KEY}, never as
 * orphans or recursion: this JVM; what it started in its own cgroup (the helper, the stat
 * reader, a shell it ran), however deep; and the sandbox watchdogs that name it as their
 * owner ({@code --owner PID:START}), which detach to init on purpose. What it started in
 * another cgroup (a drill's sandbox) or in a session of its own (the sandbox of a user with no
 * writable cgroup: its workload leads a new session in the console's cgroup) is not its own:
 * that is the workload it watches.
 */
final class SelfProcesses {
    static final String KEY = "this console";
    private static final byte UNKNOWN = 0;
    private static final byte SELF = 1;
    private static final byte OTHER = 2;

    private SelfProcesses() {
    }

    /** For each process of the scan, whether it is the console's own. */
    static boolean[] of(List<ProcessSample> processes, PidIndex pids, int selfPid) {
        boolean[] self = new boolean[processes.size()];
        int at = pids.of(selfPid);
        if (at == PidIndex.NONE) return self;
        ProcessSample me = processes.get(at);
        String owner = me.pid() + ":" + me.identity().startTicks();
        byte[] memo = new byte[processes.size()];
        memo[at] = SELF;
        int[] path = new int[64];
        for (int i = 0; i < processes.size(); i++) {
            // Walk up to a known answer, a different cgroup or session, the top, or 64 levels; then mark the path.
            int length = 0;
            int n = i;
            byte answer = OTHER;
            while (n != PidIndex.NONE && length < path.length) {
                if (memo[n] != UNKNOWN) {
                    answer = memo[n];
                    break;
                }
                ProcessSample p = processes.get(n);
                if (ownedWatchdog(p, owner)) {
                    memo[n] = SELF;
                    answer = SELF;
                    break;
                }
                path[length++] = n;
                if (!p.cgroup().equals(me.cgroup()) || otherSession(p, me) || p.ppid() == p.pid()) break;
                n = pids.of(p.ppid());
            }
            for (int k = 0; k < length; k++) memo[path[k]] = answer;
            self[i] = memo[i] == SELF;
        }
        return self;
    }

    /**
     * In a session other than the console's. 0 is a session whose leader this PID namespace does
     * not see (a container's, a CI runner's): a session that leads here is another one. Recorded
     * data without sessions has 0 throughout, so it compares equal.
     */
    private static boolean otherSession(ProcessSample p, ProcessSample me) {
        return p.session() != me.session();
    }

    /** The watchdog's executable (the native {@code runaway-sandbox}), whose arguments name its owner. */
    static boolean readsArgumentsOf(String exe) {
        return exe.endsWith("/runaway-sandbox");
    }

    private static boolean ownedWatchdog(ProcessSample p, String owner) {
        List<String> args = p.cmdline();
        for (int k = 0; k + 1 < args.size(); k++) {
            if (args.get(k).equals("--owner") && args.get(k + 1).equals(owner)) return true;
        }
        return false;
    }
}
