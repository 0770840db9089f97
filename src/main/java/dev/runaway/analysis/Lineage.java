package dev.runaway.analysis;

import dev.runaway.model.ProcessIdentity;
import dev.runaway.model.ProcessSample;

import java.util.ArrayDeque;
import java.util.Deque;
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
    record Origin(String commandKey, ProcessIdentity parent, boolean parentedToInitAtFirstSight) {
    }

    private final Map<ProcessIdentity, Origin> origins = new HashMap<>();
    private final Set<ProcessIdentity> reparented = new HashSet<>();
    private Map<Integer, ProcessIdentity> lastParent = new HashMap<>();

    /** Takes in one scan: new processes, reparentings, and forgets ghosts nobody descends from. */
    public void update(List<ProcessSample> processes, Map<ProcessIdentity, String> keys) {
        Map<Integer, ProcessSample> byPid = new HashMap<>(processes.size() * 2);
        for (ProcessSample p : processes) byPid.put(p.pid(), p);
        Map<Integer, ProcessIdentity> parents = new HashMap<>(processes.size() * 2);
        for (ProcessSample p : processes) {
            ProcessSample parent = byPid.get(p.ppid());
            ProcessIdentity parentId = parent == null ? null : parent.identity();
            parents.put(p.pid(), parentId);
            Origin known = origins.get(p.identity());
            if (known == null) {
                boolean underInit = p.ppid() == 1 || parent == null;
                origins.put(p.identity(), new Origin(keys.get(p.identity()), underInit ? null : parentId, underInit));
            } else if (known.parent() != null && !known.parent().equals(parentId)) {
                reparented.add(p.identity()); // its first parent is gone: init or a subreaper has it now
            }
        }
        lastParent = parents;
        forgetUnreferencedGhosts(processes);
    }

    private void forgetUnreferencedGhosts(List<ProcessSample> living) {
        Set<ProcessIdentity> keep = new HashSet<>();
        Deque<ProcessIdentity> todo = new ArrayDeque<>();
        for (ProcessSample p : living) todo.add(p.identity());
        while (!todo.isEmpty()) {
            ProcessIdentity id = todo.pop();
            if (!keep.add(id)) continue; // the visited set: a parent walk never loops
            Origin o = origins.get(id);
            if (o != null && o.parent() != null) todo.add(o.parent());
        }
        origins.keySet().retainAll(keep);
        reparented.retainAll(keep);
    }

    public boolean isReparented(ProcessIdentity id) {
        return reparented.contains(id);
    }

    /** The parent this process was first seen under, if it was not init; may be a ghost. */
    public ProcessIdentity originalParent(ProcessIdentity id) {
        Origin o = origins.get(id);
        return o == null ? null : o.parent();
    }

    /** The command of a process, living or ghost, as it was remembered. */
    public String commandKey(ProcessIdentity id) {
        Origin o = origins.get(id);
        return o == null ? null : o.commandKey();
    }

    public boolean firstSeenUnderInit(ProcessIdentity id) {
        Origin o = origins.get(id);
        return o != null && o.parentedToInitAtFirstSight();
    }

    int remembered() {
        return origins.size();
    }

    ProcessIdentity currentParent(int pid) {
        return lastParent.get(pid);
    }
}
