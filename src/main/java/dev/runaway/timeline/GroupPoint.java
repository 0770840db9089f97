package dev.runaway.timeline;

import java.util.List;

/**
 * One command group at one full scan: the raw counts, and the figures the analyzer derived from
 * them live (growth over its sliding window, time to exhaustion) for the record.
 *
 * @param secondsToExhaustion NaN when the group is not heading to any limit
 * @param cgroupRoom          tasks the group's own cgroup still allows; -1 when unknown or uncapped
 */
public record GroupPoint(String command, int tasks, long rssBytes, String growth, double tasksPerSecond,
                         double bytesPerSecond, double secondsToExhaustion, String exhaustedBy, int chains,
                         int deepestChain, boolean parentedToInit, boolean recursive, List<String> cycle,
                         long cgroupRoom) {
}
