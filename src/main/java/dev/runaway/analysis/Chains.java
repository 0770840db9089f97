package dev.runaway.analysis;

import dev.runaway.model.ProcessIdentity;
import dev.runaway.model.ProcessSample;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * Cuts the forest into chains: maximal linear runs, where a node continues its parent's chain
 * when it is that parent's only child (living or ghost). The children of an exited session
 * leader, whose order is unknown, make one chain together. Every living process is in exactly
 * one chain.
 */
final class Chains {
    private Chains() {
    }

    /** The chains, and for each living node the index of its chain. */
    record Cut(List<Chain> chains, int[] chainOfLiving) {
    }

    static Cut of(Forest f) {
        List<Chain> chains = new ArrayList<>();
        int[] chainOf = new int[f.livingCount];
        Arrays.fill(chainOf, Forest.NONE);
        boolean[] visited = new boolean[f.size];
        int[] queue = new int[2 * f.size + 2];
        for (int node = 0; node < f.size; node++) {
            if (isHead(f, node)) collect(f, node, visited, queue, chains, chainOf);
        }
        // A parent cycle (a malformed table) has no head: each of its nodes heads its own run.
        for (int node = 0; node < f.livingCount; node++) {
            if (chainOf[node] == Forest.NONE && !isKernel(f, node)) collect(f, node, visited, queue, chains, chainOf);
        }
        return new Cut(chains, chainOf);
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

    private static void collect(Forest f, int head, boolean[] visited, int[] queue, List<Chain> chains, int[] chainOf) {
        int read = 0;
        int write = 0;
        queue[write++] = head;
        List<Integer> pids = new ArrayList<>();
        LinkedHashSet<String> commands = new LinkedHashSet<>();
        ProcessIdentity root = null;
        int tasks = 0;
        int index = chains.size();
        while (read < write) {
            int n = queue[read++];
            if (visited[n]) continue;
            visited[n] = true;
            if (f.isLiving(n)) {
                ProcessSample s = f.living.get(n);
                if (root == null) root = s.identity();
                pids.add(s.pid());
                tasks += Math.max(1, s.numThreads());
                commands.add(f.keyOf(n));
                chainOf[n] = index;
            }
            if (continues(f, n)) {
                for (int c = f.childStart[n]; c < f.childStart[n + 1]; c++) queue[write++] = f.childList[c];
            }
        }
        if (root != null) chains.add(new Chain(root, pids.size(), tasks, List.copyOf(commands), List.copyOf(pids)));
    }
}
