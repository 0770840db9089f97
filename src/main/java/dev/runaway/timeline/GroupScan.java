// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.timeline;

import dev.runaway.analysis.CgroupLoad;

import java.time.Instant;
import java.util.List;

/**
 * One full scan on the timeline: the busiest groups' figures at that moment, and the cgroup lens.
 *
 * @param seconds        since the timeline started
 * @param monotonicNanos the scan's own monotonic clock, which growth is fitted on
 * @param processes      processes in the whole table
 * @param groups         the most severe groups first, at most {@link Timeline#GROUPS_PER_SCAN}
 * @param cgroups        the most severe cgroups first (tasks, growth, cap, headroom), at most
 *                       {@link Timeline#GROUPS_PER_SCAN}; empty in recordings made before they were kept
 */
public record GroupScan(double seconds, Instant time, long monotonicNanos, int processes, List<GroupPoint> groups,
                        List<CgroupLoad> cgroups) {

    /** A scan without the cgroup lens. */
    public GroupScan(double seconds, Instant time, long monotonicNanos, int processes, List<GroupPoint> groups) {
        this(seconds, time, monotonicNanos, processes, groups, List.of());
    }

    public GroupPoint group(String command) {
        for (GroupPoint g : groups) if (g.command().equals(command)) return g;
        return null;
    }
}
