package dev.runaway.analysis;

import dev.runaway.model.ProcessIdentity;
import dev.runaway.model.ProcessSample;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the samples say about where processes came from, across scans. When a process's parent
 * exits, the kernel hands it to init (or the nearest subreaper) and the tree forgets the link;
 * this remembers it: the first parent a process was seen under, and that parent's command,
 * even after the parent is gone (a ghost). Ghosts are kept only while a living process still
 * descends from them.
 */
public final class Lineage {
    /** A process as remembered: its command and the parent it was first seen under. */
    static final class Origin {
        final String commandKey;
        final ProcessIdentity parent;
        final boolean parentedToInitAtFirstSight;
        int sweep; // the last ghost sweep that found it on a living line

        Origin(String commandKey, ProcessIdentity parent, boolean parentedToInitAtFirstSight) {
            this.commandKey = commandKey;
            this.parent = parent;
            this.parentedToInitAtFirstSight = parentedToInitAtFirstSight;
        }
    }

    private final Map<ProcessIdentity, Origin> origins = new HashMap<>();
    private final Set<ProcessIdentity> reparented = new HashSet<>();
    private static final int GHOST_SWEEP_EVERY = 10;
    private int updates;
    private int sweeps;

    /**
     * Takes in one scan: new processes, reparentings, and now and then forgets unneeded ghosts.
     * Returns how many processes this scan found reparented for the first time.
     */
    int update(List<ProcessSample> processes, PidIndex pids, int[] keyOfLiving, List<String> keyNames) {
        int newly = 0;
        for (int i = 0; i < processes.size(); i++) {
            ProcessSample p = processes.get(i);
            int at = pids.of(p.ppid());
            ProcessIdentity parentId = at == PidIndex.NONE ? null : processes.get(at).identity();
            Origin known = origins.get(p.identity());
            if (known == null) {
                boolean underInit = p.ppid() == 1 || parentId == null;
                origins.put(p.identity(), new Origin(keyNames.get(keyOfLiving[i]), underInit ? null : parentId, underInit));
            } else if (known.parent != null && !known.parent.equals(parentId)) {
                if (reparented.add(p.identity())) newly++; // its first parent is gone: init or a subreaper has it now
            }
        }
        // Ghost bookkeeping walks every line; once in a while is enough to keep memory bounded.
        if (++updates % GHOST_SWEEP_EVERY == 0 || origins.size() > 2 * processes.size() + 1024) {
            forgetUnreferencedGhosts(processes);
        }
        return newly;
    }

    /**
     * Marks every origin on a line up from a living process, then drops the unmarked. The mark is
     * in the origin (a set of 50,000 made now and then outlived young collections and was
     * promoted), and a walk stops at the first origin already marked: it never loops.
     */
    private void forgetUnreferencedGhosts(List<ProcessSample> living) {
        int sweep = ++sweeps;
        for (ProcessSample p : living) {
            Origin o = origins.get(p.identity());
            while (o != null && o.sweep != sweep) {
                o.sweep = sweep;
                o = o.parent == null ? null : origins.get(o.parent);
            }
        }
        origins.values().removeIf(o -> o.sweep != sweep);
        reparented.removeIf(id -> !origins.containsKey(id));
    }

    public boolean isReparented(ProcessIdentity id) {
        return reparented.contains(id);
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
