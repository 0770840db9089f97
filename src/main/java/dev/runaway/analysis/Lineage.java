// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.analysis;

import dev.runaway.model.ProcessIdentity;
import dev.runaway.model.ProcessSample;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the analysis remembers of each process between scans. Where it came from: when a
 * process's parent exits, the kernel hands it to init (or the nearest subreaper) and the tree
 * forgets the link; this remembers it: the first parent a process was seen under, and that
 * parent's command, even after the parent is gone (a ghost). Ghosts are kept only while a
 * living process still descends from them. And its command key, worked out again only when its
 * cmdline or exe changed (an exec): the process table hands over the same cmdline list until it
 * re-reads it, so a reference comparison is enough.
 *
 * <p>One map and one object per process: at 50,000 processes every object kept here is 50,000
 * objects that each full collection traces.
 */
public final class Lineage {
    /** A process as remembered. */
    static final class Origin {
        // Where it came from; set at the first update that sees it.
        boolean placed;
        String commandKey; // as first seen: what a ghost is shown as
        ProcessIdentity parent;
        boolean parentedToInitAtFirstSight;
        boolean reparented;
        boolean birthKnown; // the fork log named its parent (living, or a ghost the log knows)
        int forkTries;      // scans left to find its fork in the log (a fork seen by /proc a moment before its event)
        // Its command key now, and what it was worked out from.
        List<String> cmdline;
        String exe;
        boolean cmdlineUnread;
        String key;
        long invocation; // see Invocations; 0: not known (a ghost the scans never saw, a command line not read yet)
        int sweep; // the last ghost sweep that found it on a living line
        int livingAt; // the last ghost sweep that found it living
    }

    private final Map<ProcessIdentity, Origin> origins = new HashMap<>();
    private final dev.runaway.procfs.ProcPaths paths;
    private dev.runaway.procfs.ForkLog forks; // null: scans alone
    private static final int FORK_TRIES = 20;
    private static final int GHOST_SWEEP_EVERY = 10;
    private int updates;
    private int sweeps;

    Lineage() {
        this(dev.runaway.procfs.ProcPaths.NONE);
    }

    /** With the /proc links keys need: a relative script's working directory, a /dev/fd script's file. */
    Lineage(dev.runaway.procfs.ProcPaths paths) {
        this.paths = paths;
    }

    /**
     * From now on a process's first parent is the one the kernel's fork events name when the
     * log has its fork: a daemonizer's middle that exited before any scan read it is then a
     * ghost here, and the child hangs under it instead of under init.
     */
    void followingForks(dev.runaway.procfs.ForkLog log) {
        this.forks = log;
    }

    /** The command key of a living process (see {@link CommandKeys}), remembered until it execs. */
    String keyOf(ProcessSample p) {
        return keyOf(p, () -> 0);
    }

    /** As {@link #keyOf(ProcessSample)}, with the top of its chain for inline code nothing else scopes. */
    String keyOf(ProcessSample p, java.util.function.IntSupplier chain) {
        Origin o = origins.get(p.identity());
        if (o == null) origins.put(p.identity(), o = new Origin());
        if (o.key == null || o.cmdline != p.cmdline() || !o.exe.equals(p.exe()) || o.cmdlineUnread != p.cmdlineUnread()) {
            o.cmdline = p.cmdline();
            o.exe = p.exe();
            o.cmdlineUnread = p.cmdlineUnread();
            o.key = CommandKeys.of(p, paths, chain);
            o.invocation = Invocations.of(p, paths);
        }
        return o.key;
    }

    /** The invocation a process, living or ghost, was last seen exec'd with (see {@link Invocations}); 0 when not known. */
    long invocation(ProcessIdentity id) {
        Origin o = origins.get(id);
        return o == null ? 0 : o.invocation;
    }

    /**
     * Takes in one scan: new processes, reparentings, and now and then forgets unneeded ghosts
     * and processes that are gone. Returns how many processes this scan found reparented for the
     * first time.
     */
    int update(List<ProcessSample> processes, PidIndex pids, int[] keyOfLiving, List<String> keyNames) {
        int newly = 0;
        for (int i = 0; i < processes.size(); i++) {
            ProcessSample p = processes.get(i);
            int at = pids.of(p.ppid());
            ProcessIdentity parentId = at == PidIndex.NONE ? null : processes.get(at).identity();
            Origin known = origins.get(p.identity());
            if (known == null) origins.put(p.identity(), known = new Origin());
            if (!known.placed) {
                boolean underInit = p.ppid() == 1 || parentId == null;
                known.placed = true;
                known.commandKey = keyNames.get(keyOfLiving[i]);
                ProcessIdentity forked = forkParent(p, processes, pids, known.commandKey);
                if (forked != null) {
                    known.parent = forked;
                    known.birthKnown = true;
                    if (!forked.equals(parentId)) {
                        known.reparented = true;
                        newly++;
                    }
                } else {
                    known.parent = underInit ? null : parentId;
                    known.parentedToInitAtFirstSight = underInit;
                    known.forkTries = forks != null && p.identity().startTicks() > forks.since() ? FORK_TRIES : 0;
                }
            } else if (known.forkTries > 0 && !known.birthKnown) {
                known.forkTries--;
                ProcessIdentity forked = forkParent(p, processes, pids, known.commandKey);
                if (forked != null) {
                    known.forkTries = 0;
                    known.birthKnown = true;
                    known.parentedToInitAtFirstSight = false;
                    known.parent = forked;
                    if (!forked.equals(parentId) && !known.reparented) {
                        known.reparented = true;
                        newly++;
                    }
                }
            } else if (known.parent != null && !known.parent.equals(parentId) && !known.reparented) {
                known.reparented = true; // its first parent is gone: init or a subreaper has it now
                newly++;
            }
        }
        // Ghost bookkeeping walks every line; once in a while is enough to keep memory bounded.
        if (++updates % GHOST_SWEEP_EVERY == 0 || origins.size() > 2 * processes.size() + 1024) {
            forgetUnreferencedGhosts(processes);
        }
        return newly;
    }

    /**
     * Marks every origin on a line up from a living process, then drops the unmarked: processes
     * gone, and ghosts nothing living descends from. The mark is in the origin (a set of 50,000
     * made now and then outlived young collections and was promoted), and a walk stops at the
     * first origin already marked: it never loops.
     */
    private void forgetUnreferencedGhosts(List<ProcessSample> living) {
        int sweep = ++sweeps;
        for (ProcessSample p : living) {
            Origin o = origins.get(p.identity());
            if (o != null) o.livingAt = sweep;
            while (o != null && o.sweep != sweep) {
                o.sweep = sweep;
                o = o.parent == null ? null : origins.get(o.parent);
            }
        }
        origins.values().removeIf(o -> o.sweep != sweep);
        // A ghost keeps its key; its command line (kept only to tell an exec) would be memory the table no longer counts.
        for (Origin o : origins.values()) if (o.livingAt != sweep) o.cmdline = null;
    }

    /**
     * The process that forked {@code p}, by the fork log: a living process of this scan, or a
     * ghost (remembered here, with the ghosts above it, as far as the log reaches); null when the
     * log has no record of its fork, or its parent started before the log and is gone.
     */
    private ProcessIdentity forkParent(ProcessSample p, List<ProcessSample> processes, PidIndex pids, String key) {
        if (forks == null) return null;
        dev.runaway.procfs.ForkLog.Ref at = forks.recordOf(p.pid(), p.identity().startTicks());
        if (at == null) return null;
        ProcessIdentity first = null;
        Origin below = null; // the ghost made in the last hop, whose parent this hop finds
        for (int hops = 0; hops < MAX_GHOST_HOPS; hops++) {
            dev.runaway.procfs.ForkLog.Ref up = forks.parentOf(at);
            ProcessIdentity living = up == null ? null : livingOf(up, processes, pids);
            ProcessIdentity parent = living != null || up == null || up.beforeTheLog() ? living
                    : new ProcessIdentity(up.pid(), up.startTicks());
            if (below != null) {
                below.parent = parent;
                below.birthKnown = parent != null;
            }
            if (hops == 0) first = parent;
            if (parent == null || living != null || origins.containsKey(parent)) break; // the rest is remembered
            below = new Origin(); // a ghost the scans never saw: a fork that has not exec'd runs its child's program
            below.placed = true;
            below.commandKey = key;
            origins.put(parent, below);
            at = up;
        }
        return first;
    }

    private static final int MAX_GHOST_HOPS = 100_000;

    /** The living process of this scan that a log's reference names, or null. */
    private ProcessIdentity livingOf(dev.runaway.procfs.ForkLog.Ref ref, List<ProcessSample> processes, PidIndex pids) {
        int at = pids.of(ref.pid());
        if (at == PidIndex.NONE) return null;
        ProcessIdentity id = processes.get(at).identity();
        boolean same = ref.beforeTheLog() ? id.startTicks() <= forks.since() : dev.runaway.procfs.ForkLog.near(id.startTicks(), ref.startTicks());
        return same ? id : null;
    }

    /** The characters of the command lines it holds, each origin's counted (tests: only the living keep theirs). */
    long cmdlineCharsHeld() {
        long n = 0;
        for (Origin o : origins.values()) if (o.cmdline != null) n += dev.runaway.model.Argv.chars(o.cmdline);
        return n;
    }

    /** Whether the fork log named this process's parent (a living process or a ghost): its lineage is not lost. */
    public boolean birthKnown(ProcessIdentity id) {
        Origin o = origins.get(id);
        return o != null && o.birthKnown;
    }

    public boolean isReparented(ProcessIdentity id) {
        Origin o = origins.get(id);
        return o != null && o.reparented;
    }

    /** The parent this process was first seen under, if it was not init; may be a ghost. */
    public ProcessIdentity originalParent(ProcessIdentity id) {
        Origin o = origins.get(id);
        return o == null ? null : o.parent;
    }

    /** The command of a process, living or ghost, as it was remembered. */
    public String commandKey(ProcessIdentity id) {
        Origin o = origins.get(id);
        return o == null ? null : o.commandKey;
    }

    public boolean firstSeenUnderInit(ProcessIdentity id) {
        Origin o = origins.get(id);
        return o != null && o.parentedToInitAtFirstSight;
    }

    int remembered() {
        return origins.size();
    }
}
