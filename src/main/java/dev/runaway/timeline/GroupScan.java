// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.timeline;

import java.time.Instant;
import java.util.List;

/**
 * One full scan on the timeline: the busiest groups' figures at that moment.
 *
 * @param seconds        since the timeline started
 * @param monotonicNanos the scan's own monotonic clock, which growth is fitted on
 * @param processes      processes in the whole table
 * @param groups         the most severe groups first, at most {@link Timeline#GROUPS_PER_SCAN}
 */
public record GroupScan(double seconds, Instant time, long monotonicNanos, int processes, List<GroupPoint> groups) {

    public GroupPoint group(String command) {
        for (GroupPoint g : groups) if (g.command().equals(command)) return g;
        return null;
    }
}
