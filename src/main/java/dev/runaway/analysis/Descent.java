// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.analysis;

import java.util.function.IntPredicate;
import java.util.function.IntUnaryOperator;

/**
 * What a target is, by descent, written once: its seeds and every process below them, walked
 * down a process tree, and the walk up from a process to see whether it descends from a set.
 * The analysis's target sets, the stop's light rescans and its checks of a frozen cgroup all
 * use it. Both walks carry a visited set: /proc can show a parent cycle (a pid reused between
 * two reads), and a walk bounded by a fixed hop count either stops short of a deep chain or
 * goes round a cycle until the count runs out.
 */
public final class Descent {
    /** A parent unknown or none (init's parent, a process gone). */
    public static final int NONE = -1;

    private final int[] childStart;
    private final int[] childList;
    private final int[] seenIn;
    private final int[] queue;
    private int walk;

    /**
     * A tree by index: node n's children are {@code childList[c]} for c from {@code
     * childStart[n]} to {@code childStart[n + 1]}.
     */
    public Descent(int[] childStart, int[] childList) {
        this.childStart = childStart;
        this.childList = childList;
        this.seenIn = new int[childStart.length - 1];
        this.queue = new int[childStart.length - 1];
    }

    /** The tree of {@code parentOf}: node i's parent index, or {@link #NONE}. */
    public static Descent ofParents(int[] parentOf) {
        int size = parentOf.length;
        int[] start = new int[size + 1];
        for (int p : parentOf) if (p != NONE) start[p + 1]++;
        for (int i = 0; i < size; i++) start[i + 1] += start[i];
        int[] list = new int[start[size]];
        int[] at = java.util.Arrays.copyOf(start, size);
        for (int i = 0; i < size; i++) if (parentOf[i] != NONE) list[at[parentOf[i]]++] = i;
        return new Descent(start, list);
    }

    /**
     * Visits the first {@code count} seeds and every node below them, each once, breadth first.
     * {@code take} says for each whether the walk goes on below it (false: an excluded process,
     * and what it started is not reached through it). Walks of one Descent share its scratch.
     */
    public void walk(int[] seeds, int count, IntPredicate take) {
        walk++;
        int write = 0;
        for (int i = 0; i < count; i++) {
            int seed = seeds[i];
            if (seenIn[seed] == walk) continue;
            seenIn[seed] = walk;
            queue[write++] = seed;
        }
        for (int read = 0; read < write; read++) {
            int n = queue[read];
            if (!take.test(n)) continue;
            for (int c = childStart[n]; c < childStart[n + 1]; c++) {
                int child = childList[c];
                if (seenIn[child] != walk) {
                    seenIn[child] = walk;
                    queue[write++] = child;
                }
            }
        }
    }

    /**
     * Whether {@code pid} is in {@code of} or descends from a process that is, by {@code
     * parentOf} (a pid, or 0 or {@link #NONE} when unknown). Stops at init, at an unknown
     * parent, and at a pid seen before on the way: a cycle ends the walk with no.
     */
    public static boolean reaches(int pid, IntUnaryOperator parentOf, IntPredicate of) {
        java.util.Set<Integer> seen = new java.util.HashSet<>();
        for (int at = pid; at > 1 && seen.add(at); at = parentOf.applyAsInt(at)) {
            if (of.test(at)) return true;
        }
        return false;
    }
}
