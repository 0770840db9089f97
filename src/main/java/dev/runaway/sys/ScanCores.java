// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sys;

import com.sun.jna.LastErrorException;

/**
 * The CPUs the scanning threads (the sampler's scan thread and the reading threads) may use.
 * While a runaway holds the machine they run real-time, and on every CPU a scan would starve
 * every ordinary process for as long as it lasts: the display server the console's window
 * waits on among them (bench ui at 20,000 pressing tasks: the JavaFX thread asleep in an X
 * request for up to 6 s while the readers admitted thousands of new processes). While
 * {@link #leaveOneFree} holds they keep off the last CPU this process may use, so that an
 * ordinary task can run there; the window's own threads are not held to it.
 *
 * <p>Each scanning thread moves itself ({@link #keepTo()} before each piece of work), never
 * another thread by its id (a thread gone may have left its id to another process's). Only
 * threads that start no process call it: affinity, unlike the real-time policy, is inherited.
 */
public final class ScanCores {
    private static final int MASK_LONGS = 16; // 1,024 CPUs
    /** What this process may use (read before any thread was held to less), and that without its last CPU; null with one CPU. */
    private static final long[] ALL = allowed();
    private static final long[] ALL_BUT_LAST = withoutLast(ALL);
    private static volatile boolean oneFree;
    private static final ThreadLocal<Boolean> kept = new ThreadLocal<>();

    private ScanCores() {
    }

    /** From now on the scanning threads keep one CPU free ({@code true}), or use them all again. */
    public static void leaveOneFree(boolean free) {
        oneFree = free;
    }

    /** Whether the scanning threads are to keep a CPU free now (and can: more than one CPU). */
    public static boolean oneFree() {
        return oneFree && ALL_BUT_LAST != null;
    }

    /** Puts the calling scanning thread on the CPUs it may use now; a system call only when that changed. */
    public static void keepTo() {
        boolean want = oneFree();
        Boolean had = kept.get();
        if (had == null ? !want : had == want) return; // a thread starts on every CPU
        try {
            Sched.Calls.INSTANCE.sched_setaffinity(0, MASK_LONGS * 8L, want ? ALL_BUT_LAST : ALL);
            kept.set(want);
        } catch (LastErrorException | UnsatisfiedLinkError notNow) {
            kept.set(want); // not asked again: the thread runs where it may
        }
    }

    private static long[] allowed() {
        long[] mask = new long[MASK_LONGS];
        try {
            Sched.Calls.INSTANCE.sched_getaffinity(0, MASK_LONGS * 8L, mask);
            return mask;
        } catch (LastErrorException | UnsatisfiedLinkError unknown) {
            return null;
        }
    }

    private static long[] withoutLast(long[] all) {
        if (all == null) return null;
        int cpus = 0, last = -1;
        for (int i = 0; i < all.length * 64; i++) {
            if ((all[i / 64] & (1L << (i % 64))) != 0) {
                cpus++;
                last = i;
            }
        }
        if (cpus < 2) return null;
        long[] fewer = all.clone();
        fewer[last / 64] &= ~(1L << (last % 64));
        return fewer;
    }
}
