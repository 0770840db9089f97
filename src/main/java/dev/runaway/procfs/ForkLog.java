// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import dev.runaway.sys.Clocks;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Who forked whom, as the kernel said it (the process-event connector), since a known time: the
 * lineage that init's adoption erases from the tree. A daemonizer's middle process exits before
 * any scan reads it and its child is handed to init; the fork events still say whose child it
 * was. Every process started after {@link #since()} has a record here (unless events were lost,
 * which moves {@code since} forward): a record names the process (pid and start, the start from
 * the event's stamp, within {@link #NEAR_TICKS} of what stat says) and the process that forked
 * it (the same way, or {@link Ref#BEFORE_THE_LOG} when that one started before the log).
 *
 * <p>A log wraps the feed a process table follows ({@link #drain} passes every event on), or only
 * records ({@link #recording}). Records of exited processes are kept while a living record
 * descends from them, and at most {@link #MAX_RECORDS} in all: past that the log starts again
 * from now and says so by its {@code since}.
 */
public final class ForkLog implements EventFeed {
    /** How far a fork's stamp may lie from the start stat prints (ticks): the stamp is taken a moment after. */
    public static final long NEAR_TICKS = 25;
    public static final int MAX_RECORDS = 1 << 18;
    private static final int SWEEP_EVERY = 4096;

    /** A process as the log names it: pid and start in boot ticks, or {@link #BEFORE_THE_LOG}. */
    public record Ref(int pid, long startTicks) {
        public static final long BEFORE_THE_LOG = -1;

        /** The process with this pid that was alive when the log began (its start is not known here). */
        public boolean beforeTheLog() {
            return startTicks == BEFORE_THE_LOG;
        }
    }

    /** The log as it was at {@code takenTicks}: since, and each record as {pid, start, ppid, parent's start, exited 0/1}. */
    public record Snapshot(long sinceTicks, long takenTicks, List<long[]> records) {
    }

    private static final class Rec {
        final int pid;
        final long start;
        final int ppid;
        final long pstart;
        boolean exited;
        int mark;

        Rec(int pid, long start, int ppid, long pstart) {
            this.pid = pid;
            this.start = start;
            this.ppid = ppid;
            this.pstart = pstart;
        }
    }

    private final EventFeed source;
    private final boolean forwarding;
    private final Map<Integer, Rec> newest = new HashMap<>(); // pid -> its newest record
    private final Map<Long, Rec> all = new HashMap<>();
    private final List<long[]> pending = new ArrayList<>(); // {0 fork | 1 exit, a, b}, for the next drain's sink
    private final long subscribedTicks;
    private long since;
    private long bootMinusMonotonic;
    private int living;
    private int changes;
    private long recorded;
    private int sweeps;
    private int restarts;
    private boolean lostSinceDrain;

    private ForkLog(EventFeed source, boolean forwarding) {
        this.source = source;
        this.forwarding = forwarding;
        this.bootMinusMonotonic = Clocks.bootMinusMonotonicNanos();
        this.subscribedTicks = Clocks.bootTicks();
        this.since = subscribedTicks + 1; // a process of the subscription's own tick may have forked just before it
    }

    /** A log of what {@code source} says, passing every event on to whoever drains it (a process table). */
    public static ForkLog over(EventFeed source) {
        return new ForkLog(source, true);
    }

    /** A log that only records (a stop's own subscription): {@link #catchUp} reads the feed. */
    public static ForkLog recording(EventFeed source) {
        return new ForkLog(source, false);
    }

    /** Every process started after this (boot ticks) has a record. */
    public synchronized long since() {
        return since;
    }

    /** When this log's own subscription began (boot ticks): a snapshot taken later joins it without a gap. */
    public long subscribedTicks() {
        return subscribedTicks;
    }

    /** How often the log had to start again (events lost, or more than {@link #MAX_RECORDS}). */
    public synchronized int restarts() {
        return restarts;
    }

    public synchronized int size() {
        return all.size();
    }

    /** Counts every change; a writer compares it to know whether anything is new. */
    public synchronized int changes() {
        return changes;
    }

    @Override
    public synchronized boolean drain(ProcEvents.Sink sink) {
        catchUp();
        for (long[] e : pending) {
            if (e[0] == 0) sink.forked((int) e[1], (int) e[2]);
            else sink.exited((int) e[1]);
        }
        pending.clear();
        boolean whole = !lostSinceDrain;
        lostSinceDrain = false;
        return whole;
    }

    /** Records every event queued at the source so far (without a sink: they wait for the next drain). */
    public synchronized void catchUp() {
        bootMinusMonotonic = Clocks.bootMinusMonotonicNanos();
        boolean whole = source.drain(new ProcEvents.Sink() {
            @Override
            public void forked(int tgid) {
                forked(0, tgid, 0); // a feed without parents (a test's script): the log learns nothing of it
            }

            @Override
            public void forked(int parentTgid, int childTgid, long monotonicNanos) {
                if (parentTgid > 0) record(parentTgid, childTgid, Clocks.bootTicksOfMonotonic(monotonicNanos, bootMinusMonotonic));
                if (forwarding) pending.add(new long[]{0, parentTgid, childTgid});
            }

            @Override
            public void exited(int tgid) {
                Rec r = newest.get(tgid);
                if (r != null && !r.exited) {
                    r.exited = true;
                    living--;
                    changes++;
                }
                if (forwarding) pending.add(new long[]{1, tgid, 0});
            }
        });
        if (!whole) {
            lostSinceDrain = true;
            startAgain(); // some forks are unknown: from now on only
        }
    }

    private void record(int ppid, int pid, long start) {
        Rec parent = newest.get(ppid);
        long pstart = parent != null && !parent.exited ? parent.start : Ref.BEFORE_THE_LOG;
        Rec old = newest.get(pid);
        if (old != null && !old.exited && Math.abs(old.start - start) <= NEAR_TICKS) return; // the same fork, spliced in from a snapshot
        if (old != null && !old.exited) living--; // its exit was not seen: it is gone all the same
        Rec r = new Rec(pid, start, ppid, pstart);
        newest.put(pid, r);
        all.put(key(pid, start), r);
        living++;
        changes++;
        if (++recorded % SWEEP_EVERY == 0 && all.size() > 2 * living + 1024) sweep();
        if (all.size() > MAX_RECORDS) startAgain();
    }

    /** Drops exited records no living record descends from. */
    private void sweep() {
        int mark = ++sweeps;
        for (Rec r : newest.values()) {
            if (r.exited) continue;
            for (Rec at = r; at != null && at.mark != mark; ) {
                at.mark = mark;
                at = at.pstart == Ref.BEFORE_THE_LOG ? null : all.get(key(at.ppid, at.pstart));
            }
        }
        all.values().removeIf(r -> r.mark != mark);
        newest.values().removeIf(r -> r.mark != mark);
    }

    private void startAgain() {
        all.clear();
        newest.clear();
        living = 0;
        since = Clocks.bootTicks() + 1;
        restarts++;
        changes++;
    }

    /** The record of a living process (by its pid and start as stat says), or null when the log has none. */
    public synchronized Ref recordOf(int pid, long startTicks) {
        Rec r = newest.get(pid);
        return r != null && Math.abs(r.start - startTicks) <= NEAR_TICKS ? new Ref(r.pid, r.start) : null;
    }

    /** Who forked the process of a record, or null when the log has no such record. */
    public synchronized Ref parentOf(Ref child) {
        Rec r = child.beforeTheLog() ? null : all.get(key(child.pid(), child.startTicks()));
        return r == null ? null : new Ref(r.ppid, r.pstart);
    }

    /** Whether a start (boot ticks) as stat prints it matches a record's. */
    public static boolean near(long statStart, long recordStart) {
        return Math.abs(statStart - recordStart) <= NEAR_TICKS;
    }

    /** The log now, every queued event recorded first. */
    public synchronized Snapshot snapshot() {
        catchUp();
        long taken = Clocks.bootTicks();
        List<long[]> out = new ArrayList<>(all.size());
        for (Rec r : all.values()) out.add(new long[]{r.pid, r.start, r.ppid, r.pstart, r.exited ? 1 : 0});
        return new Snapshot(since, taken, out);
    }

    /**
     * The records of processes started since {@code ticks} (boot ticks, within {@link #NEAR_TICKS}),
     * every queued event recorded first: what a stop whose root started then needs, knowing from
     * the later of the log's {@code since} and that.
     */
    public synchronized Snapshot snapshotSince(long ticks) {
        catchUp();
        long taken = Clocks.bootTicks();
        long from = ticks - NEAR_TICKS;
        List<long[]> out = new ArrayList<>();
        for (Rec r : all.values()) if (r.start >= from) out.add(new long[]{r.pid, r.start, r.ppid, r.pstart, r.exited ? 1 : 0});
        return new Snapshot(Math.max(since, from), taken, out);
    }

    /** Why {@link #splice} would refuse {@code older}, in words; null when it would join it. */
    public synchronized String spliceRefusal(Snapshot older) {
        if (older.takenTicks() < subscribedTicks) {
            return String.format("it was last written %.2f s before this stop subscribed",
                    (subscribedTicks - older.takenTicks()) / (double) dev.runaway.sys.Clocks.TICKS_PER_SECOND);
        }
        if (older.sinceTicks() >= since) return "it begins no earlier than this stop's own events (it lost events and began again)";
        if (restarts > 0) return "this stop lost process events of its own, so the two would not meet";
        return null;
    }

    /**
     * Joins an older log (another sampler's, from before this one subscribed) in front of this
     * one: when it was taken after this log's subscription began there is no gap between them,
     * and this log knows from the older one's {@code since}. Returns whether it was joined.
     */
    public synchronized boolean splice(Snapshot older) {
        if (spliceRefusal(older) != null) return false;
        for (long[] r : older.records()) {
            int pid = (int) r[0];
            Rec rec = new Rec(pid, r[1], (int) r[2], r[3]);
            rec.exited = r[4] != 0;
            if (all.putIfAbsent(key(pid, r[1]), rec) != null) continue;
            Rec mine = newest.get(pid);
            if (mine == null || (mine.start < rec.start && !near(mine.start, rec.start))) {
                if (mine != null && !mine.exited) living--;
                newest.put(pid, rec);
                if (!rec.exited) living++;
            }
        }
        since = older.sinceTicks();
        changes++;
        return true;
    }

    private static long key(int pid, long start) {
        return ((long) pid << 42) ^ start;
    }
}
