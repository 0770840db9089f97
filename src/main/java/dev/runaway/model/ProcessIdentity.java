package dev.runaway.model;

/**
 * Who a process is: its pid and its start time (clock ticks since boot, field 22 of
 * /proc/PID/stat). A pid alone is not an identity: the kernel reuses pids, and a reused pid
 * is a different process that must never receive a signal meant for the old one.
 */
public record ProcessIdentity(int pid, long startTicks) {
    public ProcessIdentity {
        if (pid <= 0) throw new IllegalArgumentException("pid must be positive: " + pid);
        if (startTicks < 0) throw new IllegalArgumentException("start ticks must not be negative: " + startTicks);
    }

    @Override
    public String toString() {
        return pid + "@" + startTicks;
    }
}
