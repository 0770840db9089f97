// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.analysis;

import java.util.Optional;

/**
 * The second lens: one cgroup as a whole, whatever its processes' commands. A runaway of
 * copied or renamed binaries is hundreds of one-task command groups, but one cgroup that grows
 * and presses on its cap; this is where it shows.
 *
 * @param path          the v2 cgroup path
 * @param tasks         tasks (threads) of its processes
 * @param processes     its processes
 * @param groups        how many command groups its processes fall in
 * @param tasksGrowth   the shape and rate of its task count
 * @param pidsMax       its pids.max; -1 when uncapped or unknown
 * @param room          tasks its pids.max still allows; -1 when uncapped or unknown
 * @param atCap         forks refused at its pids.max now (or no room left)
 * @param forksRefused  forks its pids.max refused since the last scan; -1 when not counted
 * @param secondsLeft   until its pids.max runs out at this rate; NaN when not heading there
 * @param self          it holds only the console's own processes
 */
public record CgroupLoad(String path, int tasks, int processes, int groups, GrowthFit tasksGrowth, long pidsMax, long room,
                         boolean atCap, long forksRefused, double secondsLeft, boolean self) implements RankedGroup {

    @Override
    public String command() {
        return path;
    }

    @Override
    public boolean recursive() {
        return false;
    }

    /**
     * Seconds until a cgroup growing at {@code growth} uses up the {@code room} its pids.max
     * allows; NaN when it is not growing, has no cap ({@code room} &lt; 0), is at it already, or
     * will not be there within {@link Analyzer#HORIZON_SECONDS}. Live and replay derive it alike.
     */
    public static double secondsLeft(GrowthFit growth, int tasks, long room, boolean atCap) {
        boolean growing = growth.shape() == GrowthShape.LINEAR || growth.shape() == GrowthShape.EXPONENTIAL;
        if (room < 0 || !growing || atCap) return Double.NaN;
        double t = growth.secondsUntil(tasks, tasks + room);
        return t >= 0 && t <= Analyzer.HORIZON_SECONDS ? t : Double.NaN;
    }

    /** The same figures with the growth fitted again (a recording read back). */
    public CgroupLoad withGrowth(GrowthFit fit) {
        return new CgroupLoad(path, tasks, processes, groups, fit, pidsMax, room, atCap, forksRefused,
                secondsLeft(fit, tasks, room, atCap), self);
    }

    /** The raw figures only, growth not fitted: what a recording keeps, to compare and write. */
    public CgroupLoad raw() {
        return new CgroupLoad(path, tasks, processes, groups, GrowthFit.UNKNOWN, pidsMax, room, atCap, forksRefused,
                Double.NaN, self);
    }

    public Optional<GroupCap> cap() {
        return pidsMax >= 0 ? Optional.of(new GroupCap(GroupCap.PIDS_MAX, pidsMax)) : Optional.empty();
    }
}
