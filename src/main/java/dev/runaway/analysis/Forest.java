package dev.runaway.analysis;

import dev.runaway.model.ProcessIdentity;
import dev.runaway.model.ProcessSample;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The process forest as it was, not only as it is: each process hangs under its logical parent,
 * which is its parent now, unless that is init or a subreaper that adopted it, in which case it
 * is the parent it was first seen under (perhaps exited: a ghost). A process first seen already
 * adopted, whose session leader has exited, hangs under its session (order unknown). A process
 * is a root when its parent is 0, itself, absent, or init and nothing better is known.
 */
final class Forest {
    /** A node: a process (living or ghost), or the session of an exited leader. */
    sealed interface Node permits Proc, Session {
    }

    record Proc(ProcessIdentity id) implements Node {
    }

    record Session(int session) implements Node {
    }

    final Map<ProcessIdentity, ProcessSample> living;
    final Map<Node, Node> parent;
    final Map<Node, List<Node>> children;
    final Map<ProcessIdentity, Boolean> adopted;

    private Forest(int size) {
        int capacity = Math.max(16, size * 2);
        living = new HashMap<>(capacity);
        parent = new HashMap<>(capacity);
        children = new HashMap<>(capacity);
        adopted = new HashMap<>(capacity);
    }

    private Lineage lineage;

    /** The remembered command of a process that has exited. */
    String ghostKey(ProcessIdentity id) {
        return lineage.commandKey(id);
    }

    static Forest build(List<ProcessSample> processes, Lineage lineage) {
        Forest f = new Forest(processes.size());
        f.lineage = lineage;
        Map<Integer, ProcessSample> byPid = new HashMap<>(processes.size() * 2);
        for (ProcessSample p : processes) {
            byPid.put(p.pid(), p);
            f.living.put(p.identity(), p);
        }
        Set<Node> ghostsDone = new HashSet<>();
        for (ProcessSample p : processes) {
            if (p.pid() <= 2 || p.isKernelThread()) continue;
            Node self = new Proc(p.identity());
            Node up = f.logicalParent(p, byPid, lineage);
            if (up != null) f.link(self, up);
            // Ghosts chain upwards through what the lineage remembers of them.
            Node ghost = up;
            while (ghost instanceof Proc g && !f.living.containsKey(g.id()) && ghostsDone.add(ghost)) {
                ProcessIdentity above = lineage.originalParent(g.id());
                if (above == null) break;
                f.link(ghost, new Proc(above));
                ghost = new Proc(above);
            }
        }
        return f;
    }

    private Node logicalParent(ProcessSample p, Map<Integer, ProcessSample> byPid, Lineage lineage) {
        ProcessSample actual = byPid.get(p.ppid());
        boolean adoptedNow = p.ppid() <= 1 || actual == null || lineage.isReparented(p.identity());
        adopted.put(p.identity(), adoptedNow);
        if (!adoptedNow) return actual.pid() == p.pid() ? null : new Proc(actual.identity());
        ProcessIdentity remembered = lineage.originalParent(p.identity());
        if (remembered != null) return new Proc(remembered);
        boolean leaderGone = p.session() != p.pid() && p.session() > 1 && !byPid.containsKey(p.session());
        return leaderGone ? new Session(p.session()) : null;
    }

    private void link(Node child, Node up) {
        if (parent.containsKey(child)) return;
        parent.put(child, up);
        children.computeIfAbsent(up, k -> new ArrayList<>()).add(child);
    }

    boolean isLiving(Node n) {
        return n instanceof Proc p && living.containsKey(p.id());
    }

    /** True when the process's parent now is init or a subreaper that adopted it. */
    boolean adopted(ProcessIdentity id) {
        return adopted.getOrDefault(id, false);
    }
}
