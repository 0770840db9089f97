// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.timeline;

import dev.runaway.analysis.Group;
import dev.runaway.analysis.GroupCap;
import dev.runaway.analysis.GroupFigures;
import dev.runaway.analysis.GrowthFit;
import dev.runaway.analysis.MemorySource;

import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * One command group at one full scan, as a recording keeps it: the live group's
 * {@link GroupFigures} (same fields, same encodings) without its chains and pids, which only
 * their counts stand for. {@link #of(Group)} is the one way from a live group to its point.
 *
 * @param tasksGrowth         as live; read back from a file, fitted again on the recorded counts
 * @param secondsToExhaustion empty when the group is not heading to any limit
 * @param cgroupRoom          tasks the group's own cgroup still allows; -1 when unknown or uncapped
 * @param cgroupMax           that cgroup's pids.max; -1 when unknown or uncapped
 * @param atCap               its forks were refused at a limit (see {@code analysis.Group})
 * @param cap                 that limit and its value
 * @param forksRefused        refusals since the scan before; -1 where not counted
 * @param cgroup              the one cgroup that holds every member, or ""
 * @param self                the console's own processes
 * @param memoryBytes         the group's memory as measured live (a cgroup's charge, PSS or capped RSS)
 * @param memorySource        where that figure came from
 */
public record GroupPoint(String command, int tasks, long rssBytes, GrowthFit tasksGrowth, double bytesPerSecond,
                         OptionalDouble secondsToExhaustion, String exhaustedBy, int chainCount, int deepestChain,
                         boolean parentedToInit, boolean recursive, List<String> cycle, long cgroupRoom, long cgroupMax,
                         boolean atCap, Optional<GroupCap> cap, long forksRefused, String cgroup, boolean self,
                         long memoryBytes, MemorySource memorySource) implements GroupFigures {

    /** A group whose memory is its summed RSS (recordings before the memory source was written). */
    public GroupPoint(String command, int tasks, long rssBytes, GrowthFit tasksGrowth, double bytesPerSecond,
                      OptionalDouble secondsToExhaustion, String exhaustedBy, int chainCount, int deepestChain,
                      boolean parentedToInit, boolean recursive, List<String> cycle, long cgroupRoom, long cgroupMax,
                      boolean atCap, Optional<GroupCap> cap, long forksRefused, String cgroup, boolean self) {
        this(command, tasks, rssBytes, tasksGrowth, bytesPerSecond, secondsToExhaustion, exhaustedBy, chainCount, deepestChain,
                parentedToInit, recursive, cycle, cgroupRoom, cgroupMax, atCap, cap, forksRefused, cgroup, self, rssBytes,
                MemorySource.RSS);
    }

    /** A group not at a cap, in no known cgroup. */
    public GroupPoint(String command, int tasks, long rssBytes, GrowthFit tasksGrowth, double bytesPerSecond,
                      OptionalDouble secondsToExhaustion, String exhaustedBy, int chainCount, int deepestChain,
                      boolean parentedToInit, boolean recursive, List<String> cycle, long cgroupRoom, long cgroupMax) {
        this(command, tasks, rssBytes, tasksGrowth, bytesPerSecond, secondsToExhaustion, exhaustedBy, chainCount, deepestChain,
                parentedToInit, recursive, cycle, cgroupRoom, cgroupMax, false, Optional.empty(), 0, "", false);
    }

    /** A group whose cgroup cap is not known. */
    public GroupPoint(String command, int tasks, long rssBytes, GrowthFit tasksGrowth, double bytesPerSecond,
                      OptionalDouble secondsToExhaustion, String exhaustedBy, int chainCount, int deepestChain,
                      boolean parentedToInit, boolean recursive, List<String> cycle, long cgroupRoom) {
        this(command, tasks, rssBytes, tasksGrowth, bytesPerSecond, secondsToExhaustion, exhaustedBy, chainCount, deepestChain,
                parentedToInit, recursive, cycle, cgroupRoom, -1);
    }

    /** The live group's point: its figures as they are, its chains as their count and depth. */
    public static GroupPoint of(Group g) {
        return new GroupPoint(g.command(), g.tasks(), g.rssBytes(), g.tasksGrowth(), g.bytesPerSecond(), g.secondsToExhaustion(),
                g.exhaustedBy(), g.chainCount(), g.deepestChain(), g.parentedToInit(), g.recursive(), g.cycle(), g.cgroupRoom(),
                g.cgroupMax(), // the cap itself, not tasks + room: the cgroup may also hold a starter or a dying task
                g.atCap(), g.cap(), g.forksRefused(), g.cgroup(), g.self(), g.memoryBytes(), g.memorySource());
    }

    /** The same point with its growth fitted again. */
    GroupPoint withGrowth(GrowthFit fit, double bytesPerSecond) {
        return new GroupPoint(command, tasks, rssBytes, fit, bytesPerSecond, secondsToExhaustion, exhaustedBy, chainCount,
                deepestChain, parentedToInit, recursive, cycle, cgroupRoom, cgroupMax, atCap, cap, forksRefused, cgroup, self,
                memoryBytes, memorySource);
    }
}
