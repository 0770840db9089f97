package dev.runaway.analysis;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Each group's share of the machine's CPU time, from its members' summed user + system ticks
 * over the last {@link #WINDOW_SECONDS}. Incremental scans re-read a round-robin share of the
 * stats, so a short window would see most members' ticks stand still; ten seconds averages that
 * out. Ticks that leave with an exited member make the sum fall: such a drop counts as zero.
 */
final class CpuShare {
    static final double WINDOW_SECONDS = 10;
    /** The kernel's USER_HZ: /proc reports CPU time in hundredths of a second on every Linux build. */
    static final double TICKS_PER_SECOND = 100;

    private final int cores;
    private final Map<String, ArrayDeque<double[]>> history = new HashMap<>(); // {seconds, ticks}

    CpuShare(int cores) {
        this.cores = Math.max(1, cores);
    }

    /** The share (0 to 1 of all cores) for KEY, given its members' summed ticks now; NaN until two points. */
    double add(String key, double nowSeconds, long ticks) {
        ArrayDeque<double[]> points = history.computeIfAbsent(key, k -> new ArrayDeque<>());
        points.addLast(new double[] {nowSeconds, ticks});
        while (points.size() > 2 && nowSeconds - points.peekFirst()[0] > WINDOW_SECONDS) points.removeFirst();
        double[] first = points.peekFirst();
        double seconds = nowSeconds - first[0];
        if (points.size() < 2 || seconds <= 0) return Double.NaN;
        double used = Math.max(0, ticks - first[1]) / TICKS_PER_SECOND;
        return Math.min(1, used / seconds / cores);
    }

    /** Forgets groups that are gone. */
    void retain(Set<String> keys) {
        history.keySet().retainAll(keys);
    }
}
