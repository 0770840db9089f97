package dev.runaway.analysis;

/**
 * The limit an at-cap group presses on, and its value: {@code pids.max} (its cgroup's, v1 or
 * v2), {@code pid_max}, {@code threads-max}, {@code RLIMIT_NPROC}, or a memory cap
 * ({@code memory.max} on v2, {@code memory.limit_in_bytes} on v1, a value in bytes).
 */
public record GroupCap(String limit, long value) {
    public static final String PIDS_MAX = "pids.max";
    public static final String PID_MAX = "pid_max";
    public static final String THREADS_MAX = "threads-max";
    public static final String NPROC = "RLIMIT_NPROC";

    public boolean memory() {
        return limit.startsWith("memory.");
    }

    /** "pids.max 600", "memory.max 256.0 MiB". */
    public String text() {
        return limit + " " + (memory() ? dev.runaway.model.Units.bytes(value) : Long.toString(value));
    }
}
