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

    @Override
    public double rate() {
        return tasksGrowth.perSecond();
    }

    @Override
    public String growthShape() {
        return tasksGrowth.shape().json();
    }

    public Optional<GroupCap> cap() {
        return pidsMax >= 0 ? Optional.of(new GroupCap(GroupCap.PIDS_MAX, pidsMax)) : Optional.empty();
    }
}
