// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.timeline;

import dev.runaway.analysis.GroupCap;
import dev.runaway.analysis.MemorySource;
import dev.runaway.analysis.RankedGroup;

import java.util.List;
import java.util.Optional;

/**
 * One command group at one full scan: the raw counts, and the figures the analyzer derived from
 * them live (growth over its sliding window, time to exhaustion, whether it was at a cap) for
 * the record.
 *
 * @param secondsToExhaustion NaN when the group is not heading to any limit
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
public record GroupPoint(String command, int tasks, long rssBytes, String growth, double tasksPerSecond,
                         double bytesPerSecond, double secondsToExhaustion, String exhaustedBy, int chains,
                         int deepestChain, boolean parentedToInit, boolean recursive, List<String> cycle,
                         long cgroupRoom, long cgroupMax, boolean atCap, Optional<GroupCap> cap, long forksRefused,
                         String cgroup, boolean self, long memoryBytes, MemorySource memorySource) implements RankedGroup {

    /** A group whose memory is its summed RSS (recordings before the memory source was written). */
    public GroupPoint(String command, int tasks, long rssBytes, String growth, double tasksPerSecond,
                      double bytesPerSecond, double secondsToExhaustion, String exhaustedBy, int chains,
                      int deepestChain, boolean parentedToInit, boolean recursive, List<String> cycle,
                      long cgroupRoom, long cgroupMax, boolean atCap, Optional<GroupCap> cap, long forksRefused,
                      String cgroup, boolean self) {
        this(command, tasks, rssBytes, growth, tasksPerSecond, bytesPerSecond, secondsToExhaustion, exhaustedBy, chains,
                deepestChain, parentedToInit, recursive, cycle, cgroupRoom, cgroupMax, atCap, cap, forksRefused, cgroup,
                self, rssBytes, MemorySource.RSS);
    }

    /** A group not at a cap, in no known cgroup. */
    public GroupPoint(String command, int tasks, long rssBytes, String growth, double tasksPerSecond,
                      double bytesPerSecond, double secondsToExhaustion, String exhaustedBy, int chains,
                      int deepestChain, boolean parentedToInit, boolean recursive, List<String> cycle, long cgroupRoom,
                      long cgroupMax) {
        this(command, tasks, rssBytes, growth, tasksPerSecond, bytesPerSecond, secondsToExhaustion, exhaustedBy, chains,
                deepestChain, parentedToInit, recursive, cycle, cgroupRoom, cgroupMax, false, Optional.empty(), 0, "", false);
    }

    /** A group whose cgroup cap is not known. */
    public GroupPoint(String command, int tasks, long rssBytes, String growth, double tasksPerSecond,
                      double bytesPerSecond, double secondsToExhaustion, String exhaustedBy, int chains,
                      int deepestChain, boolean parentedToInit, boolean recursive, List<String> cycle, long cgroupRoom) {
        this(command, tasks, rssBytes, growth, tasksPerSecond, bytesPerSecond, secondsToExhaustion, exhaustedBy, chains,
                deepestChain, parentedToInit, recursive, cycle, cgroupRoom, -1);
    }

    /** The same point with its growth fitted again. */
    GroupPoint withGrowth(String growth, double tasksPerSecond, double bytesPerSecond) {
        return new GroupPoint(command, tasks, rssBytes, growth, tasksPerSecond, bytesPerSecond, secondsToExhaustion,
                exhaustedBy, chains, deepestChain, parentedToInit, recursive, cycle, cgroupRoom, cgroupMax, atCap, cap,
                forksRefused, cgroup, self, memoryBytes, memorySource);
    }

    @Override
    public double secondsLeft() {
        return secondsToExhaustion;
    }

    @Override
    public double rate() {
        return tasksPerSecond;
    }

    @Override
    public String growthShape() {
        return growth;
    }
}
