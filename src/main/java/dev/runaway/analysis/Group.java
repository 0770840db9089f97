// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.analysis;

import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * All processes of one command key, with the chains they are in and how the group grows: the
 * live group. Its figures a recording keeps ({@link GroupFigures}) have one encoding, shared with
 * the recorded point.
 *
 * @param tasks               member processes
 * @param parentedToInit      in every chain of the group, the first member is parented to init (or a
 *                            subreaper that adopted it): whatever started the group has exited
 * @param cycle               when recursive, the command keys from one occurrence of this key to the
 *                            next along an ancestry line, e.g. deploy.sh, python3 -m unittest, deploy.sh
 * @param repeats             how many times the key occurs along the deepest such line
 * @param secondsToExhaustion until memory, pid_max, threads-max or the group's pids.max runs out at
 *                            this rate; empty when not heading there
 * @param cgroup              the one cgroup (v2 path) that holds every member, or "" when they are spread
 * @param cgroupRoom          how many more tasks that cgroup's pids.max allows; -1 when unknown or uncapped
 * @param cgroupMax           that cgroup's pids.max; -1 when unknown or uncapped
 * @param atCap               its forks (or allocations) are being refused at a limit now: the most severe state
 * @param cap                 the limit it presses on and its value, when at cap
 * @param forksRefused        refusals at that cap since the last scan: forks refused by pids.max
 *                            (pids.events), OOM kills under a memory cap; -1 where the kernel keeps no
 *                            count (pid_max, threads-max, RLIMIT_NPROC)
 * @param self                the console's own processes (its JVM, watchdogs, helper)
 * @param stopped             members stopped (state T or t): by a signal, a debugger or a stop's sweep
 * @param zombies             members that exited and wait for their parent to reap them (state Z)
 * @param cpuShare            the group's share of all cores over the last ~10 s (0 to 1); NaN until known
 * @param memoryBytes         the group's memory from the best source there was ({@code memorySource}),
 *                            never above the machine's used memory
 * @param identicalRepeats    how many times one invocation of the key (the same command line in the same
 *                            working directory) occurs along one line: a runaway recursion repeats itself,
 *                            a build that descends (make -C, a task runner per package) does not
 */
public record Group(String command, int tasks, List<Chain> chains, boolean parentedToInit, boolean recursive,
                    List<String> cycle, int repeats, long rssBytes, GrowthFit tasksGrowth, double bytesPerSecond,
                    OptionalDouble secondsToExhaustion, String exhaustedBy, List<Integer> pids,
                    String cgroup, long cgroupRoom, long cgroupMax,
                    boolean atCap, Optional<GroupCap> cap, long forksRefused, boolean self,
                    int stopped, int zombies, double cpuShare, long memoryBytes,
                    MemorySource memorySource, int identicalRepeats) implements GroupFigures {

    /** A group whose invocations were not told apart (a test's, a recording's): every repeat counts as identical. */
    public Group(String command, int tasks, List<Chain> chains, boolean parentedToInit, boolean recursive,
                 List<String> cycle, int repeats, long rssBytes, GrowthFit tasksGrowth, double bytesPerSecond,
                 OptionalDouble secondsToExhaustion, String exhaustedBy, List<Integer> pids,
                 String cgroup, long cgroupRoom, long cgroupMax,
                 boolean atCap, Optional<GroupCap> cap, long forksRefused, boolean self,
                 int stopped, int zombies, double cpuShare, long memoryBytes, MemorySource memorySource) {
        this(command, tasks, chains, parentedToInit, recursive, cycle, repeats, rssBytes, tasksGrowth, bytesPerSecond,
                secondsToExhaustion, exhaustedBy, pids, cgroup, cgroupRoom, cgroupMax, atCap, cap, forksRefused, self,
                stopped, zombies, cpuShare, memoryBytes, memorySource, repeats);
    }

    /** A group whose memory is its summed RSS (as sampled; see {@link #withMemory}). */
    public Group(String command, int tasks, List<Chain> chains, boolean parentedToInit, boolean recursive,
                 List<String> cycle, int repeats, long rssBytes, GrowthFit tasksGrowth, double bytesPerSecond,
                 OptionalDouble secondsToExhaustion, String exhaustedBy, List<Integer> pids,
                 String cgroup, long cgroupRoom, long cgroupMax,
                 boolean atCap, Optional<GroupCap> cap, long forksRefused, boolean self,
                 int stopped, int zombies, double cpuShare) {
        this(command, tasks, chains, parentedToInit, recursive, cycle, repeats, rssBytes, tasksGrowth, bytesPerSecond,
                secondsToExhaustion, exhaustedBy, pids, cgroup, cgroupRoom, cgroupMax, atCap, cap, forksRefused, self,
                stopped, zombies, cpuShare, rssBytes, MemorySource.RSS);
    }

    /** A group whose process states and CPU time are not known (a test's, a recording's). */
    public Group(String command, int tasks, List<Chain> chains, boolean parentedToInit, boolean recursive,
                 List<String> cycle, int repeats, long rssBytes, GrowthFit tasksGrowth, double bytesPerSecond,
                 OptionalDouble secondsToExhaustion, String exhaustedBy, List<Integer> pids, String cgroup, long cgroupRoom,
                 long cgroupMax, boolean atCap, Optional<GroupCap> cap, long forksRefused, boolean self) {
        this(command, tasks, chains, parentedToInit, recursive, cycle, repeats, rssBytes, tasksGrowth, bytesPerSecond,
                secondsToExhaustion, exhaustedBy, pids, cgroup, cgroupRoom, cgroupMax, atCap, cap, forksRefused, self,
                0, 0, Double.NaN);
    }

    /** A group that is not at a cap and not the console's own. */
    public Group(String command, int tasks, List<Chain> chains, boolean parentedToInit, boolean recursive,
                 List<String> cycle, int repeats, long rssBytes, GrowthFit tasksGrowth, double bytesPerSecond,
                 OptionalDouble secondsToExhaustion, String exhaustedBy, List<Integer> pids, String cgroup, long cgroupRoom,
                 long cgroupMax) {
        this(command, tasks, chains, parentedToInit, recursive, cycle, repeats, rssBytes, tasksGrowth, bytesPerSecond,
                secondsToExhaustion, exhaustedBy, pids, cgroup, cgroupRoom, cgroupMax, false, Optional.empty(), 0, false);
    }

    /** A group whose cgroup's cap is not known beyond its room. */
    public Group(String command, int tasks, List<Chain> chains, boolean parentedToInit, boolean recursive,
                 List<String> cycle, int repeats, long rssBytes, GrowthFit tasksGrowth, double bytesPerSecond,
                 OptionalDouble secondsToExhaustion, String exhaustedBy, List<Integer> pids, String cgroup, long cgroupRoom) {
        this(command, tasks, chains, parentedToInit, recursive, cycle, repeats, rssBytes, tasksGrowth, bytesPerSecond,
                secondsToExhaustion, exhaustedBy, pids, cgroup, cgroupRoom, -1);
    }

    /** This group at a cap (or no longer at one). */
    public Group withCap(boolean atCap, Optional<GroupCap> cap, long forksRefused) {
        return new Group(command, tasks, chains, parentedToInit, recursive, cycle, repeats, rssBytes, tasksGrowth,
                bytesPerSecond, secondsToExhaustion, exhaustedBy, pids, cgroup, cgroupRoom, cgroupMax, atCap, cap,
                forksRefused, self, stopped, zombies, cpuShare, memoryBytes, memorySource, identicalRepeats);
    }

    /** This group with its invocations told apart along its lines. */
    public Group withIdenticalRepeats(int identical) {
        return new Group(command, tasks, chains, parentedToInit, recursive, cycle, repeats, rssBytes, tasksGrowth,
                bytesPerSecond, secondsToExhaustion, exhaustedBy, pids, cgroup, cgroupRoom, cgroupMax, atCap, cap,
                forksRefused, self, stopped, zombies, cpuShare, memoryBytes, memorySource, identical);
    }

    /** This group with its memory measured. */
    public Group withMemory(long bytes, MemorySource source) {
        return new Group(command, tasks, chains, parentedToInit, recursive, cycle, repeats, rssBytes, tasksGrowth,
                bytesPerSecond, secondsToExhaustion, exhaustedBy, pids, cgroup, cgroupRoom, cgroupMax, atCap, cap,
                forksRefused, self, stopped, zombies, cpuShare, bytes, source, identicalRepeats);
    }

    @Override
    public int chainCount() {
        return chains.size();
    }

    @Override
    public int deepestChain() {
        int deepest = 0;
        for (Chain c : chains) deepest = Math.max(deepest, c.depth());
        return deepest;
    }
}
