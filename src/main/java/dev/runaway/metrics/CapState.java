package dev.runaway.metrics;

import dev.runaway.analysis.Group;

/**
 * Whether a group is at its cap. INTERIM until analysis.Group carries its own at-cap state:
 * the group's cgroup has at most one task of room under its pids.max (pids.current >=
 * pids.max - 1), from the cap fields the analyzer already reads.
 */
final class CapState {
    private CapState() {
    }

    static boolean atCap(Group g) {
        return g.cgroupRoom() >= 0 && g.cgroupRoom() <= 1;
    }
}
