// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.analysis;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A command key that occurs again along one ancestry line: how many times it occurs along the
 * deepest line, and the cycle between two occurrences (top first, e.g. deploy.sh,
 * python3 -m unittest, deploy.sh); and how many times one invocation of it (the same command
 * line in the same directory) occurs along one line.
 */
record Recursion(List<String> cycle, int repeats, int identical) {
    static final Recursion NONE = new Recursion(List.of(), 1, 1);

    /**
     * For every living node, how many times its own key occurs on the line from the top of the
     * forest down to it (itself included). One depth-first pass with a running count per key:
     * O(nodes) however deep the chains are, and iterative, since they can be 50,000 deep.
     */
    static int[] repeatsAlongLines(Forest f) {
        int[] keyIds = new int[f.size];
        System.arraycopy(f.keyOfLiving, 0, keyIds, 0, f.livingCount);
        // Ghosts' keys are remembered as text: number them after the living ones, the same key the same id.
        java.util.Map<String, Integer> ids = null;
        int keyCount = f.keyNames.size();
        for (int n = f.livingCount; n < f.size; n++) {
            String k = f.keyOf(n);
            if (k == null) {
                keyIds[n] = -1;
                continue;
            }
            if (ids == null) {
                ids = new java.util.HashMap<>();
                for (int i = 0; i < keyCount; i++) ids.put(f.keyNames.get(i), i);
            }
            Integer id = ids.get(k);
            if (id == null) ids.put(k, id = keyCount++);
            keyIds[n] = id;
        }
        return countAlongLines(f, keyIds, keyCount);
    }

    /**
     * For every living node whose key recurs above it, how many times its own invocation (its
     * command line and working directory: {@link Invocations}) occurs on the line down to it,
     * itself included; 0 for the rest. A bounded descent (make -C, a task runner per package)
     * recurs with another directory or other words at each level and stays at 1 or 2; a runaway
     * recursion repeats itself. Ids are numbered by sorting the invocations (no boxing: at 50,000
     * nodes this runs every scan).
     */
    static int[] identicalAlongLines(Forest f, int[] keyRepeats) {
        int[] ids = new int[f.size];
        java.util.Arrays.fill(ids, -1);
        // Only keys that recur somewhere need their invocations told apart.
        boolean[] recurs = new boolean[f.keyNames.size()];
        for (int n = 0; n < f.livingCount; n++) if (keyRepeats[n] > 1) recurs[f.keyOfLiving[n]] = true;
        java.util.Set<String> recurringGhostKeys = new java.util.HashSet<>();
        for (int k = 0; k < recurs.length; k++) if (recurs[k]) recurringGhostKeys.add(f.keyNames.get(k));
        if (recurringGhostKeys.isEmpty()) return new int[f.livingCount];
        long[] inv = new long[f.size];
        int count = 0;
        for (int n = 0; n < f.size; n++) {
            boolean candidate = n < f.livingCount ? recurs[f.keyOfLiving[n]] : recurringGhostKeys.contains(f.keyOf(n));
            if (!candidate) continue;
            long i = f.invocationOf(n);
            if (i == Invocations.UNKNOWN) continue;
            inv[n] = i;
            ids[n] = 0;
            count++;
        }
        long[] sorted = new long[count];
        int at = 0;
        for (int n = 0; n < f.size; n++) if (ids[n] == 0) sorted[at++] = inv[n];
        java.util.Arrays.sort(sorted);
        for (int n = 0; n < f.size; n++) if (ids[n] == 0) ids[n] = java.util.Arrays.binarySearch(sorted, inv[n]);
        return countAlongLines(f, ids, Math.max(1, count));
    }

    /** The count of each node's id on the line from the top down to it (ids below 0 are not counted). */
    private static int[] countAlongLines(Forest f, int[] keyIds, int keyCount) {
        int[] repeats = new int[f.livingCount];
        int[] onPath = new int[keyCount];
        boolean[] visited = new boolean[f.size];
        int[] stack = new int[2 * f.size + 2]; // node codes: n entering, ~n leaving
        for (int root = 0; root < f.size; root++) {
            if (f.parent[root] != Forest.NONE || visited[root]) continue;
            int top = 0;
            stack[top++] = root;
            while (top > 0) {
                int code = stack[--top];
                if (code < 0) {
                    int k = keyIds[~code];
                    if (k >= 0) onPath[k]--;
                    continue;
                }
                if (visited[code]) continue;
                visited[code] = true;
                int k = keyIds[code];
                if (k >= 0 && parentsFork(f, code)) {
                    repeats[code] = onPath[k]; // a leaf: nothing below it reads onPath
                    continue;
                }
                if (k >= 0) {
                    onPath[k]++;
                    if (f.isLiving(code)) repeats[code] = onPath[k];
                }
                stack[top++] = ~code;
                for (int c = f.childStart[code]; c < f.childStart[code + 1]; c++) stack[top++] = f.childList[c];
            }
        }
        return repeats;
    }

    /** The group's deepest repetition, the cycle above its deepest member, and its most repeated invocation. */
    static Recursion find(String key, int[] members, int[] repeats, int[] identical, Forest f) {
        int deepest = Forest.NONE;
        int most = 1;
        int same = 1;
        for (int m : members) {
            if (parentsFork(f, m)) continue;
            if (repeats[m] > most) {
                most = repeats[m];
                deepest = m;
            }
            same = Math.max(same, identical[m]);
        }
        if (deepest == Forest.NONE) return NONE;
        return new Recursion(cycleAbove(key, deepest, f), most, same);
    }

    /**
     * A living leaf that forked from a process of its own key and has not exec'd yet: the
     * parent's program for the moment before its exec (bash about to run python3), not a second
     * occurrence of the key. Caught in that moment it made deploy.sh's cycle read
     * "deploy.sh, deploy.sh". Forks that have children of their own (nested subshells, a fork
     * bomb's levels) still count, as before.
     */
    static boolean parentsFork(Forest f, int node) {
        if (!f.isLiving(node) || !f.living.get(node).forkNoExec()) return false;
        if (f.childStart[node + 1] != f.childStart[node]) return false;
        int up = f.parent[node];
        return up != Forest.NONE && f.keyOf(node).equals(f.keyOf(up));
    }

    /** Keys from this node up to the next node of the same key, top first. */
    private static List<String> cycleAbove(String key, int from, Forest f) {
        List<String> upward = new ArrayList<>();
        int steps = 0;
        for (int n = from; n != Forest.NONE && steps++ <= f.size; n = f.parent[n]) {
            String k = f.keyOf(n);
            if (k == null) continue;
            upward.add(k);
            if (k.equals(key) && upward.size() > 1) {
                Collections.reverse(upward);
                return List.copyOf(upward);
            }
        }
        return List.of();
    }
}
