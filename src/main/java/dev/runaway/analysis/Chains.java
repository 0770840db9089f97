// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.analysis;

import dev.runaway.model.PidList;
import dev.runaway.model.ProcessIdentity;
import dev.runaway.model.ProcessSample;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Cuts the forest into chains: maximal linear runs, where a node continues its parent's chain
 * when it is that parent's only child (living or ghost). The children of an exited session
 * leader, whose order is unknown, make one chain together. Every living process is in exactly
 * one chain.
 *
 * <p>A chain that is what it was at the last cut is that cut's Chain object again. At 50,000
 * sleepers nearly every chain is unchanged from one scan to the next; making them anew every
 * scan (about 45,000 records with their lists) filled the old generation with copies the
 * console still held, and the full collections that followed froze the window for 100-240 ms.
 */
final class Chains {
    private Chains() {
    }

    /** The chains, for each living node the index of its chain, and the chains by their root's pid. */
    record Cut(List<Chain> chains, int[] chainOfLiving, PidIndex byRootPid) {
        static final Cut NONE = new Cut(List.of(), new int[0], PidIndex.EMPTY);

        Chain withRootPid(int pid) {
            int at = byRootPid.of(pid);
            return at == PidIndex.NONE ? null : chains.get(at);
        }
    }

    static Cut of(Forest f) {
        return of(f, Cut.NONE, new java.util.HashMap<>());
    }

    /**
     * The cut of {@code f}, reusing the chains of {@code previous} that did not change, and for
     * chains of one command the list from {@code singles} (key to a list of it), which it fills.
     */
    static Cut of(Forest f, Cut previous, java.util.Map<String, List<String>> singles) {
        Cutter cutter = new Cutter(f, previous, singles);
        for (int node = 0; node < f.size; node++) {
            if (isHead(f, node)) cutter.collect(node);
        }
        // A parent cycle (a malformed table) has no head: each of its nodes heads its own run.
        for (int node = 0; node < f.livingCount; node++) {
            if (cutter.chainOf[node] == Forest.NONE && !isKernel(f, node)) cutter.collect(node);
        }
        int[] rootPids = new int[cutter.chains.size()];
        for (int i = 0; i < rootPids.length; i++) rootPids[i] = cutter.chains.get(i).rootPid();
        return new Cut(cutter.chains, cutter.chainOf, PidIndex.of(rootPids));
    }

    private static boolean isKernel(Forest f, int node) {
        ProcessSample p = f.living.get(node);
        return p.pid() <= 2 || p.isKernelThread();
    }

    private static boolean isHead(Forest f, int node) {
        if (node < f.livingCount && isKernel(f, node)) return false;
        int up = f.parent[node];
        if (up == Forest.NONE) return true;
        return !continues(f, up);
    }

    private static boolean continues(Forest f, int parent) {
        return f.isSession(parent) || f.childCount[parent] == 1;
    }

    /** One cut's work buffers: a chain is gathered into them, and becomes an object only when it changed. */
    private static final class Cutter {
        final Forest f;
        final Cut previous;
        final java.util.Map<String, List<String>> singles;
        final List<Chain> chains = new ArrayList<>();
        final int[] chainOf;
        final boolean[] visited;
        final int[] queue;
        final int[] pids;
        final int[] keys;
        final int[] keyStamp; // keyStamp[k] == stamp: key k is already in this chain
        int stamp;

        Cutter(Forest f, Cut previous, java.util.Map<String, List<String>> singles) {
            this.f = f;
            this.previous = previous;
            this.singles = singles;
            chainOf = new int[f.livingCount];
            Arrays.fill(chainOf, Forest.NONE);
            visited = new boolean[f.size];
            queue = new int[2 * f.size + 2];
            pids = new int[f.livingCount];
            keys = new int[f.keyNames.size()];
            keyStamp = new int[f.keyNames.size()];
        }

        void collect(int head) {
            int read = 0;
            int write = 0;
            queue[write++] = head;
            int depth = 0;
            int keyCount = 0;
            int tasks = 0;
            int rootNode = Forest.NONE;
            int index = chains.size();
            stamp++;
            while (read < write) {
                int n = queue[read++];
                if (visited[n]) continue;
                visited[n] = true;
                if (f.isLiving(n)) {
                    if (rootNode == Forest.NONE) rootNode = n;
                    pids[depth++] = f.living.get(n).pid();
                    tasks += Math.max(1, f.living.get(n).numThreads());
                    int k = f.keyOfLiving[n];
                    if (keyStamp[k] != stamp) {
                        keyStamp[k] = stamp;
                        keys[keyCount++] = k;
                    }
                    chainOf[n] = index;
                }
                if (continues(f, n)) {
                    for (int c = f.childStart[n]; c < f.childStart[n + 1]; c++) queue[write++] = f.childList[c];
                }
            }
            if (rootNode == Forest.NONE) return;
            ProcessIdentity root = f.living.get(rootNode).identity();
            Chain before = previous.withRootPid(root.pid());
            chains.add(before != null && unchanged(before, root, depth, tasks, keyCount) ? before
                    : new Chain(root, depth, tasks, commands(keyCount), PidList.copyOf(pids, depth)));
        }

        private boolean unchanged(Chain before, ProcessIdentity root, int depth, int tasks, int keyCount) {
            if (!before.root().equals(root) || before.depth() != depth || before.tasks() != tasks
                    || before.commands().size() != keyCount) return false;
            for (int i = 0; i < keyCount; i++) {
                if (!before.commands().get(i).equals(f.keyNames.get(keys[i]))) return false;
            }
            if (before.pids() instanceof PidList list) return list.sameAs(pids, depth);
            for (int i = 0; i < depth; i++) if (before.pids().get(i) != pids[i]) return false;
            return true;
        }

        private List<String> commands(int keyCount) {
            if (keyCount == 1) return singles.computeIfAbsent(f.keyNames.get(keys[0]), List::of);
            String[] names = new String[keyCount];
            for (int i = 0; i < keyCount; i++) names[i] = f.keyNames.get(keys[i]);
            return List.of(names);
        }
    }
}
