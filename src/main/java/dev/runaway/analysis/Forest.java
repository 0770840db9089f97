// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.analysis;

import dev.runaway.model.ProcessIdentity;
import dev.runaway.model.ProcessSample;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The process forest as it was, not only as it is: each process hangs under its logical parent,
 * which is its parent now, unless that is init or a subreaper that adopted it, in which case it
 * is the parent it was first seen under (perhaps exited: a ghost). A process first seen already
 * adopted, whose session leader has exited, hangs under its session (order unknown). A process
 * is a root when its parent is 0, itself, absent, or init and nothing better is known.
 *
 * <p>Nodes are ints: 0 to {@code livingCount - 1} are the scan's processes in scan order, then
 * ghosts, then sessions. At 50,000 processes every structure here is a few int arrays; maps of
 * records cost ten times as much (measured, see docs/sampling.md).
 */
final class Forest {
    static final int NONE = -1;

    final List<ProcessSample> living;
    final int livingCount;
    final int[] keyOfLiving;
    final List<String> keyNames;
    private final Lineage lineage;

    private final PidIndex pids;
    private final Map<ProcessIdentity, Integer> ghostIndex = new HashMap<>();
    private final List<ProcessIdentity> ghosts = new ArrayList<>();
    private final Map<Integer, Integer> sessionIndex = new HashMap<>();

    int size;
    int[] parent;
    int[] childCount;
    int[] childStart;
    int[] childList;
    final boolean[] adopted;

    private Forest(List<ProcessSample> living, PidIndex pids, int[] keyOfLiving, List<String> keyNames, Lineage lineage) {
        this.living = living;
        this.livingCount = living.size();
        this.keyOfLiving = keyOfLiving;
        this.keyNames = keyNames;
        this.lineage = lineage;
        this.adopted = new boolean[livingCount];
        this.pids = pids;
    }

    /** The living node of a pid, or NONE. */
    int indexOfPid(int pid) {
        return pids.of(pid);
    }

    /** The node of an identity: living if the pid's start time matches, else a known ghost. */
    int indexOf(ProcessIdentity id) {
        int i = indexOfPid(id.pid());
        if (i != NONE && living.get(i).identity().startTicks() == id.startTicks()) return i;
        Integer g = ghostIndex.get(id);
        return g == null ? NONE : g;
    }

    boolean isLiving(int node) {
        return node >= 0 && node < livingCount;
    }

    /** The command key of any process node, living or ghost; null for sessions. */
    String keyOf(int node) {
        if (node < livingCount) return keyNames.get(keyOfLiving[node]);
        int ghost = node - livingCount;
        return ghost < ghosts.size() ? lineage.commandKey(ghosts.get(ghost)) : null;
    }

    /** The invocation of a living or ghost node (see {@link Invocations}); UNKNOWN for sessions and unseen ghosts. */
    long invocationOf(int node) {
        ProcessIdentity id = identityOf(node);
        return id == null ? Invocations.UNKNOWN : lineage.invocation(id);
    }

    /** The process of a living or ghost node; null for sessions. */
    ProcessIdentity identityOf(int node) {
        if (node < livingCount) return living.get(node).identity();
        int ghost = node - livingCount;
        return ghost < ghosts.size() ? ghosts.get(ghost) : null;
    }

    boolean isSession(int node) {
        return node >= livingCount + ghosts.size();
    }

    static Forest build(List<ProcessSample> processes, PidIndex pids, int[] keyOfLiving, List<String> keyNames,
                        Lineage lineage) {
        Forest f = new Forest(processes, pids, keyOfLiving, keyNames, lineage);
        int n = processes.size();
        int[] up = new int[n + 16];
        Arrays.fill(up, NONE);
        List<ProcessIdentity> ghostParents = new ArrayList<>(); // parent of ghost k, in order
        for (int i = 0; i < n; i++) {
            ProcessSample p = processes.get(i);
            if (p.pid() <= 2 || p.isKernelThread()) continue;
            up[i] = f.logicalParent(i, p);
        }
        // Ghosts are numbered as found; each one's own parent is what the lineage remembers.
        for (int g = 0; g < f.ghosts.size(); g++) {
            ProcessIdentity above = lineage.originalParent(f.ghosts.get(g));
            ghostParents.add(above);
            if (above != null && f.indexOf(above) == NONE) f.ghost(above);
        }
        f.size = n + f.ghosts.size() + f.sessionIndex.size();
        f.parent = new int[f.size];
        Arrays.fill(f.parent, NONE);
        System.arraycopy(up, 0, f.parent, 0, n);
        for (int g = 0; g < f.ghosts.size(); g++) {
            ProcessIdentity above = ghostParents.get(g);
            int node = n + g;
            f.parent[node] = above == null ? NONE : f.indexOf(above);
            if (f.parent[node] == node) f.parent[node] = NONE;
        }
        f.linkChildren();
        return f;
    }

    private int logicalParent(int i, ProcessSample p) {
        int actual = indexOfPid(p.ppid());
        boolean adoptedNow = p.ppid() <= 1 || actual == NONE || lineage.isReparented(p.identity());
        adopted[i] = adoptedNow;
        if (!adoptedNow) return actual == i ? NONE : actual;
        ProcessIdentity remembered = lineage.originalParent(p.identity());
        if (remembered != null) {
            int known = indexOf(remembered);
            return known != NONE ? known : ghost(remembered);
        }
        boolean leaderGone = p.session() != p.pid() && p.session() > 1 && indexOfPid(p.session()) == NONE;
        return leaderGone ? session(p.session()) : NONE;
    }

    private int ghost(ProcessIdentity id) {
        Integer g = ghostIndex.get(id);
        if (g != null) return g;
        int node = livingCount + ghosts.size();
        ghosts.add(id);
        ghostIndex.put(id, node);
        return node;
    }

    /** Sessions are numbered after all ghosts, so they get provisional negative codes first. */
    private int session(int sessionId) {
        return sessionIndex.computeIfAbsent(sessionId, s -> -2 - sessionIndex.size());
    }

    /** Resolves provisional session codes and builds the child lists (compressed rows). */
    private void linkChildren() {
        int firstSession = livingCount + ghosts.size();
        for (int node = 0; node < size; node++) {
            if (parent[node] <= -2) parent[node] = firstSession + (-2 - parent[node]);
        }
        childCount = new int[size];
        for (int node = 0; node < size; node++) if (parent[node] >= 0) childCount[parent[node]]++;
        childStart = new int[size + 1];
        for (int node = 0; node < size; node++) childStart[node + 1] = childStart[node] + childCount[node];
        childList = new int[childStart[size]];
        int[] fill = Arrays.copyOf(childStart, size);
        for (int node = 0; node < size; node++) if (parent[node] >= 0) childList[fill[parent[node]]++] = node;
    }

    /** True when the living process's parent now is init or a subreaper that adopted it. */
    boolean adopted(int livingNode) {
        return adopted[livingNode];
    }
}
