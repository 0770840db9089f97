// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.analysis;

import dev.runaway.model.PulseSample;

import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * The derived picture at one moment: the machine's figures from the newest pulse, and every
 * command group with its chains, recursion and growth, most severe first.
 *
 * @param scanNanos     how long the scan behind it took
 * @param analysisNanos how long deriving it took
 * @param monotonicNanos the scan's monotonic clock: the time axis growth is fitted on
 * @param newlyReparented processes this scan found adopted by init or a subreaper for the first time
 * @param cgroups        the cgroup lens: every cgroup with processes, most severe first
 * @param watched        the command keys shown now (the console's selected group): measured and
 *                       recorded like the most severe groups, wherever they rank
 */
public record Snapshot(Instant time, PulseSample pulse, double forksPerSecond, GrowthFit totalGrowth,
                       List<Group> groups, int processes, long scanNanos, long analysisNanos,
                       long monotonicNanos, int newlyReparented, List<CgroupLoad> cgroups, Set<String> watched) {

    /** A snapshot with nothing watched. */
    public Snapshot(Instant time, PulseSample pulse, double forksPerSecond, GrowthFit totalGrowth,
                    List<Group> groups, int processes, long scanNanos, long analysisNanos,
                    long monotonicNanos, int newlyReparented, List<CgroupLoad> cgroups) {
        this(time, pulse, forksPerSecond, totalGrowth, groups, processes, scanNanos, analysisNanos, monotonicNanos,
                newlyReparented, cgroups, Set.of());
    }

    /** A snapshot without the cgroup lens (synthetic and recorded data). */
    public Snapshot(Instant time, PulseSample pulse, double forksPerSecond, GrowthFit totalGrowth,
                    List<Group> groups, int processes, long scanNanos, long analysisNanos,
                    long monotonicNanos, int newlyReparented) {
        this(time, pulse, forksPerSecond, totalGrowth, groups, processes, scanNanos, analysisNanos, monotonicNanos,
                newlyReparented, List.of());
    }
}
