package dev.runaway.analysis;

import dev.runaway.model.ProcessIdentity;
import dev.runaway.model.ProcessSample;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A command key that occurs again along one ancestry line: the cycle between two occurrences
 * (top first, e.g. deploy.sh, python3 -m unittest, deploy.sh) and how many times the key occurs
 * along the deepest line. One walk per chain, upwards from the chain's deepest member of the
 * key, so a chain thousands deep is walked once, not once per member.
 */
record Recursion(List<String> cycle, int repeats) {
    static final Recursion NONE = new Recursion(List.of(), 1);

    static Recursion find(String key, List<ProcessSample> members, Set<Chain> chains, Forest forest,
                          Map<ProcessIdentity, String> keys) {
        if (members.size() < 2) return NONE;
        Map<Integer, ProcessIdentity> byPid = new java.util.HashMap<>();
        for (ProcessSample m : members) byPid.put(m.pid(), m.identity());
        Recursion best = NONE;
        for (Chain chain : chains) {
            ProcessIdentity deepest = null; // the last member of this key in the chain, top-down
            for (int pid : chain.pids()) if (byPid.containsKey(pid)) deepest = byPid.get(pid);
            if (deepest == null) continue;
            Recursion r = walk(key, new Forest.Proc(deepest), forest, keys);
            if (r.repeats > best.repeats) best = r;
        }
        return best;
    }

    private static Recursion walk(String key, Forest.Node from, Forest forest, Map<ProcessIdentity, String> keys) {
        List<String> upward = new ArrayList<>();
        List<String> cycle = null;
        int repeats = 0;
        Set<Forest.Node> visited = new HashSet<>();
        for (Forest.Node n = from; n != null && visited.add(n); n = forest.parent.get(n)) {
            String k = keyOf(n, forest, keys);
            if (k == null) continue;
            upward.add(k);
            if (k.equals(key)) {
                repeats++;
                if (repeats == 2 && cycle == null) {
                    cycle = new ArrayList<>(upward);
                    Collections.reverse(cycle);
                }
            }
        }
        return new Recursion(cycle == null ? List.of() : List.copyOf(cycle), Math.max(1, repeats));
    }

    private static String keyOf(Forest.Node n, Forest forest, Map<ProcessIdentity, String> keys) {
        if (!(n instanceof Forest.Proc p)) return null;
        String living = keys.get(p.id());
        return living != null ? living : forest.ghostKey(p.id());
    }
}
