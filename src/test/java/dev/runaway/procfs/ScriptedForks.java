// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import dev.runaway.sys.Clocks;

import java.util.ArrayList;
import java.util.List;

/** Forks and exits a test queues, stamped as the kernel stamps them (CLOCK_MONOTONIC) for a start in boot ticks. */
public final class ScriptedForks implements EventFeed {
    private final List<long[]> queued = new ArrayList<>(); // {1 fork | 0 exit, parent, child, stamp}
    private static final long TICK = 1_000_000_000L / Clocks.TICKS_PER_SECOND;
    private boolean lose;

    /** PARENT forks CHILD, which stat will say started at START (boot ticks); stamped within that tick, as the kernel does a moment after. */
    public ScriptedForks fork(int parent, int child, long start) {
        queued.add(new long[]{1, parent, child, start * TICK + TICK / 2 - Clocks.bootMinusMonotonicNanos()});
        return this;
    }

    public ScriptedForks exit(int pid) {
        queued.add(new long[]{0, 0, pid, 0});
        return this;
    }

    /** The next drain says events were lost (the socket's buffer overflowed). */
    public ScriptedForks loseSome() {
        lose = true;
        return this;
    }

    @Override
    public boolean drain(ProcEvents.Sink sink) {
        for (long[] e : queued) {
            if (e[0] == 1) sink.forked((int) e[1], (int) e[2], e[3]);
            else sink.exited((int) e[2]);
        }
        queued.clear();
        boolean whole = !lose;
        lose = false;
        return whole;
    }
}
