package dev.runaway.analysis;

import dev.runaway.model.ProcessIdentity;
import dev.runaway.model.ProcessSample;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Cuts the forest into chains: maximal linear runs, where a node continues its parent's chain
 * when it is that parent's only child (living or ghost). The children of an exited session
 * leader whose order is unknown make one chain together. Every living process is in exactly
 * one chain.
 */
final class Chains {
    private Chains() {
    }

    /** The chains, and for each living process the index of the chain it is in. */
    record Cut(List<Chain> chains, Map<ProcessIdentity, Integer> byProcess) {
    }

    static Cut of(Forest forest, Map<ProcessIdentity, String> keys) {
        List<Chain> chains = new ArrayList<>();
        Map<ProcessIdentity, Integer> byProcess = new HashMap<>(forest.living.size() * 2);
        Set<Forest.Node> nodes = new LinkedHashSet<>(forest.living.size() * 3);
        nodes.addAll(forest.parent.keySet());
        nodes.addAll(forest.children.keySet());
        for (ProcessIdentity id : forest.living.keySet()) nodes.add(new Forest.Proc(id));
        for (Forest.Node node : nodes) {
            if (!isHead(forest, node)) continue;
            List<ProcessIdentity> members = new ArrayList<>();
            Chain chain = collect(forest, node, keys, members);
            if (members.isEmpty()) continue; // ghosts only
            Integer index = chains.size();
            chains.add(chain);
            for (ProcessIdentity id : members) byProcess.put(id, index);
        }
        return new Cut(chains, byProcess);
    }

    private static boolean isHead(Forest f, Forest.Node node) {
        Forest.Node up = f.parent.get(node);
        if (up == null) return true;
        if (up instanceof Forest.Session) return false;
        return f.children.getOrDefault(up, List.of()).size() != 1;
    }

    private static boolean continues(Forest f, Forest.Node parent) {
        return parent instanceof Forest.Session || f.children.getOrDefault(parent, List.of()).size() == 1;
    }

    /** Walks down from a head; the visited set guards against a malformed table. */
    private static Chain collect(Forest f, Forest.Node head, Map<ProcessIdentity, String> keys,
                                 List<ProcessIdentity> members) {
        List<Integer> pids = new ArrayList<>();
        LinkedHashSet<String> commands = new LinkedHashSet<>();
        int tasks = 0;
        Set<Forest.Node> visited = new java.util.HashSet<>();
        Deque<Forest.Node> todo = new ArrayDeque<>();
        todo.add(head);
        while (!todo.isEmpty()) {
            Forest.Node n = todo.poll();
            if (!visited.add(n)) continue;
            if (n instanceof Forest.Proc p && f.living.containsKey(p.id())) {
                ProcessSample s = f.living.get(p.id());
                pids.add(s.pid());
                members.add(p.id());
                tasks += Math.max(1, s.numThreads());
                String key = keys.get(p.id());
                if (key != null) commands.add(key);
            }
            if (continues(f, n)) {
                todo.addAll(f.children.getOrDefault(n, List.of()));
            }
        }
        return new Chain(members.isEmpty() ? null : members.get(0), pids.size(), tasks, List.copyOf(commands), List.copyOf(pids));
    }
}
