// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sys;

/**
 * The kernel's two clocks of process lineage. A process's start (field 22 of /proc/PID/stat)
 * counts on CLOCK_BOOTTIME in ticks of 1/100 s; the process-event connector stamps a fork with
 * CLOCK_MONOTONIC nanoseconds. The two differ by the time spent suspended, read here when asked.
 */
public final class Clocks {
    /** USER_HZ: /proc counts ticks of 1/100 s on every Linux build. */
    public static final long TICKS_PER_SECOND = 100;
    private static final long NANOS_PER_TICK = 1_000_000_000L / TICKS_PER_SECOND;

    private Clocks() {
    }

    /** Now, in ticks since boot: the unit of a process's start. */
    public static long bootTicks() {
        return nanos(LibC.CLOCK_BOOTTIME) / NANOS_PER_TICK;
    }

    /** A CLOCK_MONOTONIC time (a fork event's stamp) in boot ticks, with the suspended time as it is now. */
    public static long bootTicksOfMonotonic(long monotonicNanos, long bootMinusMonotonicNanos) {
        return (monotonicNanos + bootMinusMonotonicNanos) / NANOS_PER_TICK;
    }

    /** CLOCK_BOOTTIME less CLOCK_MONOTONIC, in nanoseconds (0 on a machine never suspended, give or take a read). */
    public static long bootMinusMonotonicNanos() {
        long mono = nanos(LibC.CLOCK_MONOTONIC);
        long boot = nanos(LibC.CLOCK_BOOTTIME);
        return boot - mono;
    }

    /** CLOCK_REALTIME less CLOCK_MONOTONIC, read back to back, in nanoseconds: the wall-clock instant the monotonic clock started from. */
    public static long realMinusMonotonicNanos() {
        long mono = nanos(LibC.CLOCK_MONOTONIC);
        long real = nanos(LibC.CLOCK_REALTIME);
        return real - mono;
    }

    private static long nanos(int clock) {
        long[] ts = new long[2];
        if (LibC.INSTANCE.clock_gettime(clock, ts) != 0) throw new IllegalStateException("clock_gettime(" + clock + ") failed");
        return ts[0] * 1_000_000_000L + ts[1];
    }
}
