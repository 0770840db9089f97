// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.timeline;

import java.util.List;

/**
 * One command group at one full scan: the raw counts, and the figures the analyzer derived from
 * them live (growth over its sliding window, time to exhaustion) for the record.
 *
 * @param secondsToExhaustion NaN when the group is not heading to any limit
 * @param cgroupRoom          tasks the group's own cgroup still allows; -1 when unknown or uncapped
 * @param cgroupMax           that cgroup's pids.max; -1 when unknown or uncapped
 */
public record GroupPoint(String command, int tasks, long rssBytes, String growth, double tasksPerSecond,
                         double bytesPerSecond, double secondsToExhaustion, String exhaustedBy, int chains,
                         int deepestChain, boolean parentedToInit, boolean recursive, List<String> cycle,
                         long cgroupRoom, long cgroupMax) {

    /** A group whose cgroup cap is not known. */
    public GroupPoint(String command, int tasks, long rssBytes, String growth, double tasksPerSecond,
                      double bytesPerSecond, double secondsToExhaustion, String exhaustedBy, int chains,
                      int deepestChain, boolean parentedToInit, boolean recursive, List<String> cycle, long cgroupRoom) {
        this(command, tasks, rssBytes, growth, tasksPerSecond, bytesPerSecond, secondsToExhaustion, exhaustedBy, chains,
                deepestChain, parentedToInit, recursive, cycle, cgroupRoom, -1);
    }
}
