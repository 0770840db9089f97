package dev.runaway.stop;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The scheduling this stop runs at, read from /proc/self/stat: a runaway of thousands of
 * ordinary processes pressing on a cap starves an ordinary (SCHED_OTHER) process, whatever its
 * nice value, but not a real-time one. The launcher starts {@code runaway stop} as root under
 * SCHED_RR (chrt); the plan says which applies.
 */
public record Priority(int policy, int nice, int rtPriority) {
    private static final String[] POLICIES = {"SCHED_OTHER", "SCHED_FIFO", "SCHED_RR", "SCHED_BATCH", "SCHED_ISO", "SCHED_IDLE", "SCHED_DEADLINE"};

    public static Priority ofThisProcess() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            // after "pid (comm) ": field 3 is f[0]; nice is field 19, rt_priority 40, policy 41
            return new Priority(Integer.parseInt(f[41 - 3]), Integer.parseInt(f[19 - 3]), Integer.parseInt(f[40 - 3]));
        } catch (IOException | RuntimeException e) {
            return new Priority(0, 0, 0);
        }
    }

    public boolean realTime() {
        return policy == 1 || policy == 2;
    }

    public String words() {
        String name = policy >= 0 && policy < POLICIES.length ? POLICIES[policy] : "policy " + policy;
        if (realTime()) return name + " " + rtPriority + ": ahead of every ordinary process, a runaway's included";
        return name + ", nice " + nice + ": a runaway of thousands of ordinary processes can delay this stop"
                + " (as root the launcher runs it under SCHED_RR)";
    }
}
