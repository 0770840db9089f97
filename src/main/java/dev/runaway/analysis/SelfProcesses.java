// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.analysis;

import dev.runaway.model.ProcessIdentity;
import dev.runaway.model.ProcessSample;

import java.util.List;
import java.util.Set;

/**
 * The console's own processes, which the analysis shows as one group, {@link #KEY}, never as
 * orphans or recursion: this JVM; what it started in its own cgroup (the helper, the stat
 * reader, a shell it ran), however deep; and the sandbox watchdogs it started, which detach to
 * init on purpose: by the pid and start time recorded when it started them ({@code
 * dev.runaway.sandbox.Watchdogs}), never by a command line, which anyone can write (a runaway
 * whose argv carried {@code --owner PID:START} of the guard was "this console", never held). What it started in
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
    static boolean[] of(List<ProcessSample> processes, PidIndex pids, int selfPid, Set<ProcessIdentity> watchdogs) {
        boolean[] self = new boolean[processes.size()];
        int at = pids.of(selfPid);
        if (at == PidIndex.NONE) return self;
        ProcessSample me = processes.get(at);
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
                if (watchdogs.contains(p.identity())) {
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
}
