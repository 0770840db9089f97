package dev.runaway.analysis;

import dev.runaway.model.ProcessIdentity;
import dev.runaway.model.ProcessSample;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A command key that occurs again along one ancestry line: how many times it occurs along the
 * deepest line, and the cycle between two occurrences (top first, e.g. deploy.sh,
 * python3 -m unittest, deploy.sh).
 */
record Recursion(List<String> cycle, int repeats) {
    static final Recursion NONE = new Recursion(List.of(), 1);

    /**
     * For every living process, how many times its own key occurs on the line from the top of
     * the forest down to it (itself included). One depth-first pass over the whole forest with
     * a running count per key, so it costs O(processes) however deep the chains are.
     */
    static Map<ProcessIdentity, Integer> repeatsAlongLines(Forest forest, Map<ProcessIdentity, String> keys) {
        Map<ProcessIdentity, Integer> repeats = new HashMap<>(forest.living.size() * 2);
        Map<String, Integer> onPath = new HashMap<>();
        Set<Forest.Node> roots = new HashSet<>();
        for (Forest.Node n : forest.children.keySet()) if (!forest.parent.containsKey(n)) roots.add(n);
        for (ProcessIdentity id : forest.living.keySet()) {
            Forest.Node n = new Forest.Proc(id);
            if (!forest.parent.containsKey(n)) roots.add(n);
        }
        Set<Forest.Node> visited = new HashSet<>(forest.living.size() * 2);
        // Iterative: chains can be tens of thousands deep. A frame is entered, then left.
        Deque<Object[]> stack = new ArrayDeque<>();
        for (Forest.Node root : roots) stack.push(new Object[] {root, Boolean.FALSE});
        while (!stack.isEmpty()) {
            Object[] frame = stack.pop();
            Forest.Node n = (Forest.Node) frame[0];
            String key = keyOf(n, forest, keys);
            if ((Boolean) frame[1]) {
                if (key != null) onPath.merge(key, -1, Integer::sum);
                continue;
            }
            if (!visited.add(n)) continue;
            if (key != null) {
                int count = onPath.merge(key, 1, Integer::sum);
                if (n instanceof Forest.Proc p && forest.living.containsKey(p.id())) repeats.put(p.id(), count);
            }
            stack.push(new Object[] {n, Boolean.TRUE});
            for (Forest.Node child : forest.children.getOrDefault(n, List.of())) stack.push(new Object[] {child, Boolean.FALSE});
        }
        return repeats;
    }

    /** The group's deepest repetition, and the cycle above its deepest member. */
    static Recursion find(String key, List<ProcessSample> members, Map<ProcessIdentity, Integer> repeats, Forest forest,
                          Map<ProcessIdentity, String> keys) {
        ProcessIdentity deepest = null;
        int most = 1;
        for (ProcessSample m : members) {
            int r = repeats.getOrDefault(m.identity(), 1);
            if (r > most) {
                most = r;
                deepest = m.identity();
            }
        }
        if (deepest == null) return NONE;
        return new Recursion(cycleAbove(key, new Forest.Proc(deepest), forest, keys), most);
    }

    /** Keys from this node up to the next node of the same key, top first. */
    private static List<String> cycleAbove(String key, Forest.Node from, Forest forest, Map<ProcessIdentity, String> keys) {
        List<String> upward = new ArrayList<>();
        Set<Forest.Node> visited = new HashSet<>();
        for (Forest.Node n = from; n != null && visited.add(n); n = forest.parent.get(n)) {
            String k = keyOf(n, forest, keys);
            if (k == null) continue;
            upward.add(k);
            if (k.equals(key) && upward.size() > 1) {
                Collections.reverse(upward);
                return List.copyOf(upward);
            }
        }
        return List.of();
    }

    private static String keyOf(Forest.Node n, Forest forest, Map<ProcessIdentity, String> keys) {
        if (!(n instanceof Forest.Proc p)) return null;
        String living = keys.get(p.id());
        return living != null ? living : forest.ghostKey(p.id());
    }
}
