// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop.target;

import dev.runaway.analysis.Descent;
import dev.runaway.model.ProcessSample;
import dev.runaway.procfs.ProcStat;
import dev.runaway.procfs.StatsInTime;
import dev.runaway.stop.Selector;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.IntPredicate;
import java.util.function.IntUnaryOperator;

/**
 * Whether the targets' cgroup holds only them (the lever that stops growth through a cgroup
 * needs it): the kernel's list of it against the members, for {@link TargetRescan}. A process in
 * it that is neither a member nor a descendant of one ({@link Descent}), nor for a key one that
 * runs the key and is admitted, makes it shared; the reason goes into the definition's note.
 */
final class ExclusiveCgroup {
    private final Path proc;
    private final Selector selector;
    private final Path unified;
    private final Function<String, Set<Integer>> kernelMembers;
    private final IntPredicate admitted;
    private final IntUnaryOperator ppidOf;

    /**
     * @param unified       the cgroup v2 mount, or null without one
     * @param kernelMembers a cgroup's processes with its subtree's, from the kernel
     * @param admitted      whether a one-user definition admits a process by its real uid
     * @param ppidOf        a process's parent from its status (an exec under way does not hold it)
     */
    ExclusiveCgroup(Path proc, Selector selector, Path unified, Function<String, Set<Integer>> kernelMembers, IntPredicate admitted,
                    IntUnaryOperator ppidOf) {
        this.proc = proc;
        this.selector = selector;
        this.unified = unified;
        this.kernelMembers = kernelMembers;
        this.admitted = admitted;
        this.ppidOf = ppidOf;
    }

    /**
     * The cgroup every member is in, when the kernel's own list of it (with its subtree) holds
     * nothing else: a process in it that is not a member and not a child of one (forked since
     * the scan) shares it. Never this process's own cgroup or one of its ancestors.
     */
    Optional<String> of(List<ProcessSample> members, Set<Integer> memberPids, String[] note) {
        String cgroup = null;
        for (ProcessSample p : members) {
            if (!p.cgroup().isEmpty()) {
                cgroup = p.cgroup();
                break;
            }
        }
        if (members.isEmpty() || unified == null || cgroup == null) {
            note[0] = "no cgroup v2 path is known for the targets";
            return Optional.empty();
        }
        if (cgroup.equals("/")) {
            note[0] = "the targets are in the root cgroup";
            return Optional.empty();
        }
        if (TargetRescan.ownCgroups().contains(cgroup)) {
            note[0] = "the cgroup " + cgroup + " holds this stop too";
            return Optional.empty();
        }
        Set<Integer> inCgroup = kernelMembers.apply(cgroup);
        for (ProcessSample p : members) {
            // A member outside it (a read of its cgroup that raced with its exit aside) means the targets span cgroups.
            if (!inCgroup.contains(p.pid()) && ProcStat.read(proc, p.pid()).filter(s -> !s.isZombie()).isPresent()) {
                note[0] = "the targets are in more than one cgroup (pid " + p.pid() + " is outside " + cgroup + ")";
                return Optional.empty();
            }
        }
        Map<Integer, ProcStat> others = new HashMap<>();
        List<Integer> notMembers = new ArrayList<>();
        for (int pid : inCgroup) if (!memberPids.contains(pid)) notMembers.add(pid);
        // Most are children forked a moment ago, which is when they exec: a stat read waits on an
        // exec under way, during a fire for minutes (the console's plan once took 5 min), so on a deadline.
        StatsInTime.Result read = StatsInTime.read(proc, notMembers, STAT_STALL_MILLIS, STAT_RETRY_MILLIS);
        for (int pid : read.unread()) {
            // Mid-exec: its status (which the exec does not hold) still says whose child it is.
            if (descendsFromMembers(ppidOf.applyAsInt(pid), memberPids)) continue;
            note[0] = "pid " + pid + " shares the cgroup " + cgroup + " and its stat could not be read in time (an exec under way)";
            return Optional.empty();
        }
        for (int pid : notMembers) {
            ProcStat s = read.stats().get(pid);
            if (s == null || s.isZombie()) continue; // gone meanwhile
            if (forkedSinceTheScan(s, memberPids)) continue;
            if (!(selector instanceof Selector.Command)) return stranger(s, cgroup, note);
            others.put(pid, s);
        }
        if (!others.isEmpty()) {
            // Running the key? Read on a few threads: an exe link waits on a process in the middle of an exec.
            String key = ((Selector.Command) selector).key();
            ExeReads.Result exes = ExeReads.read(proc, others.keySet().stream().mapToInt(Integer::intValue).toArray(), EXE_STALL_MILLIS);
            for (ProcStat s : others.values()) {
                if (exes.unknown().contains(s.pid())) {
                    note[0] = "pid " + s.pid() + " (" + s.comm() + ") shares the cgroup " + cgroup + " and its executable could not be"
                            + " read in time (an exec under way)";
                    return Optional.empty();
                }
                String exe = exes.exes().get(s.pid());
                boolean gone = exe.isEmpty() && ProcStat.read(proc, s.pid()).filter(now -> !now.isZombie()).isEmpty();
                if (!exe.equals(key) && !gone) return stranger(s, cgroup, note); // an unreadable exe is no member
                if (!gone && !admitted.test(s.pid())) return stranger(s, cgroup, note); // the key, but another user's
            }
        }
        note[0] = TargetRescan.onlyTargets(cgroup, inCgroup.size(), members.size());
        return Optional.of(cgroup);
    }

    /** A read of a process's exe link that has not returned after this long (and nothing else moved) is left unknown. */
    private static final long EXE_STALL_MILLIS = 50;
    /** Stats of the cgroup's other processes: the scan's deadline, then once more for those left. */
    private static final long STAT_STALL_MILLIS = 50;
    private static final long STAT_RETRY_MILLIS = 250;

    private static Optional<String> stranger(ProcStat s, String cgroup, String[] note) {
        note[0] = "pid " + s.pid() + " (" + s.comm() + "), not a target, shares the cgroup " + cgroup;
        return Optional.empty();
    }

    /** A process the scan did not see that is a member all the same: forked since by a member (or by a child of one). */
    private boolean forkedSinceTheScan(ProcStat s, Set<Integer> memberPids) {
        return descendsFromMembers(s.ppid(), memberPids);
    }

    /** Whether {@code ppid} is a member or descends from one (parents read from status). */
    private boolean descendsFromMembers(int ppid, Set<Integer> memberPids) {
        return Descent.reaches(ppid, ppidOf, memberPids::contains);
    }
}
