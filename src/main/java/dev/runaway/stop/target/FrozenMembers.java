// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop.target;

import dev.runaway.analysis.Descent;
import dev.runaway.procfs.ProcReader;
import dev.runaway.procfs.ProcStat;
import dev.runaway.stop.Selector;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The targets of a cgroup frozen before the plan (growth stopped first, by the command line's
 * early lever or runaway-rt's), and the check that it holds nothing else. Nothing new can start
 * in it, so its members are all there is to check: read as a scan reads (stats on a deadline,
 * exes on a few threads), a member still mid-exec asked again for a while. On a stranger the
 * caller ({@code stop.run.GrowthFirst}) undoes the freeze at once and the ordinary plan decides.
 */
public final class FrozenMembers {
    private FrozenMembers() {
    }

    /**
     * Whether the frozen cgroup holds the selector's targets only: for a key, its exe or a
     * descendant of one of its processes (one still mid-exec when the freeze came is asked again
     * for a while, see {@link #exesInTime}), and none of the key's processes outside it. For a
     * cgroup: it is the one frozen. For a process or a chain: the root, a descendant of it by the
     * parents the members' stats name, or a process adopted by init that runs the root's
     * executable (the evidence {@link Placement} takes: the same cgroup and command). Never a
     * listed exclusion. The first stranger described, or null when there is none.
     */
    public static String check(Path proc, Selector selector, Exclusions exclusions, Set<Integer> members, String cgroup) {
        if (members.isEmpty()) return "the cgroup " + cgroup + " is empty";
        if (selector instanceof Selector.Cgroup c) {
            return c.path().equals(cgroup) ? excluded(exclusions, members, cgroup) : "runaway-rt froze " + cgroup + ", not " + c.path();
        }
        if (selector.rootProcess() != null) {
            String stranger = excluded(exclusions, members, cgroup);
            return stranger != null ? stranger : notDescended(proc, selector.rootProcess(), members, cgroup);
        }
        if (!(selector instanceof Selector.Command c) || !c.key().startsWith("/")) {
            return "the stop's selector is not a binary's key, a cgroup, a process or a chain";
        }
        String stranger = excluded(exclusions, members, cgroup);
        if (stranger != null) return stranger;
        Set<Integer> matches = new HashSet<>();
        exes(proc, members.stream().mapToInt(Integer::intValue).toArray()).exes().forEach((pid, exe) -> {
            if (c.key().equals(exe)) matches.add(pid);
        });
        String found = stranger(proc, c.key(), members, matches);
        return found != null ? found + " shares " + cgroup : outside(proc, new ProcReader(proc), c.key(), members, cgroup);
    }

    /** The exes of {@code pids}, read on a few threads; a read still waiting when no other returns for a while is left unknown. */
    public static ExeReads.Result exes(Path proc, int[] pids) {
        return exeReader.read(proc, pids, EXE_STALL_MILLIS);
    }

    /** An exe read still waiting when no other has returned for this long is left unknown (a process mid-exec). */
    private static final long EXE_STALL_MILLIS = 50;

    /**
     * The first member of the frozen cgroup that neither is the root nor descends from it (by the
     * parents its members' stats name: frozen, none is mid-fork) nor from an adopted member (its
     * parent no member: init, a subreaper) that runs the root's executable (the evidence {@link
     * Placement} takes, the same cgroup and command); described, or null when there is none.
     */
    private static String notDescended(Path proc, dev.runaway.model.ProcessIdentity root, Set<Integer> members, String cgroup) {
        dev.runaway.procfs.StatsInTime.Result stats = dev.runaway.procfs.StatsInTime.read(proc, List.copyOf(members), STALL_MILLIS, RETRY_MILLIS);
        if (!stats.unread().isEmpty()) return stats.unread().size() + " members' stat not read in time (their parents unknown)";
        java.util.Map<Integer, Integer> parents = new java.util.HashMap<>();
        stats.stats().forEach((pid, st) -> {
            if (!st.isZombie()) parents.put(pid, st.ppid());
        });
        boolean rootAlive = ProcStat.read(proc, root.pid()).filter(st -> st.identity().equals(root) && !st.isZombie()).isPresent();
        String rootExe = rootAlive ? new ProcReader(proc).exe(root.pid()) : "";
        // Each line up the parents ends at the root, or at its top: a member whose parent is none.
        // Memoized by the line's end (a linear chain is thousands of levels deep).
        java.util.Map<Integer, Integer> endOf = new java.util.HashMap<>();
        java.util.Map<Integer, String> tops = new java.util.HashMap<>(); // a top's exe, read once
        for (int pid : parents.keySet()) {
            List<Integer> line = new java.util.ArrayList<>();
            Integer at = pid;
            while (!endOf.containsKey(at) && !(at == root.pid() && rootAlive) && parents.containsKey(parents.get(at)) && line.size() <= parents.size()) {
                line.add(at);
                at = parents.get(at);
            }
            int end = endOf.getOrDefault(at, at);
            line.add(at);
            for (int p : line) endOf.put(p, end);
            if (end == root.pid() && rootAlive) continue;
            String exe = tops.computeIfAbsent(end, top -> exesInTime(proc, List.of(top)).getOrDefault(top, ""));
            if (!rootExe.isEmpty() && rootExe.equals(exe)) continue;
            if (ProcStat.read(proc, pid).filter(st -> !st.isZombie()).isEmpty()) continue; // gone
            return "pid " + pid + (end == pid ? "" : " (below pid " + end + ")") + " in " + cgroup + " does not descend from "
                    + (rootAlive ? "pid " + root.pid() : "pid " + root.pid() + ", gone,") + " (parent " + parents.get(end) + ", "
                    + (exe.isEmpty() ? "its executable not read" : exe) + ")";
        }
        return null;
    }

    /**
     * A process of the key outside the frozen cgroup (runaway-rt named the cgroup from a sample of
     * the key's processes): then freezing it is not the stop. Null when there is none.
     */
    private static String outside(Path proc, ProcReader reader, String key, Set<Integer> members, String cgroup) {
        int[] rest = java.util.Arrays.stream(reader.pids()).filter(pid -> !members.contains(pid)).toArray();
        for (var e : exeReader.read(proc, rest, EXE_STALL_MILLIS).exes().entrySet()) {
            if (key.equals(e.getValue()) && ProcStat.read(proc, e.getKey()).filter(st -> !st.isZombie()).isPresent()) {
                return "pid " + e.getKey() + " of the same key runs outside " + cgroup;
            }
        }
        return null;
    }

    /** The first listed exclusion (this process, an ancestor, its session) among the members, described; null when none. */
    public static String excluded(Exclusions exclusions, Set<Integer> members, String cgroup) {
        for (var e : exclusions.listed()) {
            if (members.contains(e.process().pid())) return "the cgroup " + cgroup + " holds pid " + e.process().pid();
        }
        return null;
    }

    /**
     * The first process in the cgroup that is neither the key's (its exe, read again) nor a
     * descendant of one of its processes, described; null when there is none. And a process of
     * the key still running outside it: the key spans cgroups, so this freeze is not the stop.
     * Read as a scan reads: stats on a deadline (a member still mid-exec when the freeze came
     * holds its stat until its exec is done), its parent from status when its stat is late, the
     * exes of those that do not descend from the key's processes on ExeReads; an exe still
     * unread then is a stranger (the freeze is undone and the plan decides).
     */
    public static String stranger(Path proc, String key, Set<Integer> members, Set<Integer> matches) {
        ProcReader reader = new ProcReader(proc);
        java.util.List<Integer> rest = new java.util.ArrayList<>();
        for (int pid : members) if (!matches.contains(pid)) rest.add(pid);
        dev.runaway.procfs.StatsInTime.Result stats = dev.runaway.procfs.StatsInTime.read(proc, rest, STALL_MILLIS, RETRY_MILLIS);
        java.util.Map<Integer, Integer> parents = new java.util.HashMap<>();
        java.util.Map<Integer, String> comms = new java.util.HashMap<>();
        for (int pid : rest) {
            ProcStat s = stats.stats().get(pid);
            if (stats.gone().contains(pid) || (s != null && s.isZombie())) continue; // gone meanwhile
            parents.put(pid, s != null ? s.ppid() : reader.ppid(pid));
            comms.put(pid, s != null ? s.comm() : "mid-exec");
        }
        Set<Integer> keyed = new HashSet<>(matches);
        java.util.List<Integer> undescended = new java.util.ArrayList<>();
        for (int pid : parents.keySet()) if (!descends(pid, parents, keyed)) undescended.add(pid);
        if (!undescended.isEmpty()) {
            java.util.Map<Integer, String> exes = exesInTime(proc, undescended);
            exes.forEach((pid, exe) -> {
                if (key.equals(exe)) keyed.add(pid);
            });
            for (int pid : undescended) {
                if (keyed.contains(pid) || descends(pid, parents, keyed)) continue;
                String exe = exes.get(pid);
                if (exe != null && exe.isEmpty() && ProcStat.read(proc, pid).filter(st -> !st.isZombie()).isEmpty()) continue; // gone
                // Exiting (PF_EXITING): its memory, and with it its exe link, goes before it is a zombie; a
                // member of the runaway caught so undid an early freeze at 20,000 pressing (bench stop).
                // Asked only of one whose exe was read, so not mid-exec: this stat read does not wait.
                if (exe != null && ProcStat.read(proc, pid).filter(ProcStat::isExiting).isPresent()) continue;
                return "pid " + pid + " (" + comms.get(pid) + (exe == null ? ", its executable not read in time" : "") + ")";
            }
        }
        for (int pid : matches) {
            if (!members.contains(pid) && ProcStat.read(proc, pid).filter(st -> !st.isZombie()).isPresent()) {
                return "pid " + pid + " outside it, of the same key,";
            }
        }
        return null;
    }

    /**
     * The exes of {@code pids}, asked again while some are unread, for up to {@link
     * #UNREAD_EXE_PATIENCE_NANOS}: the cgroup is frozen and capped, so waiting costs time, not
     * growth. A member still mid-exec when the freeze came (an orphan of the runaway re-executing
     * itself through /proc/self/exe, its comm "exe") holds its exe link until the exec is done; taken
     * for a stranger at once, it undid the freeze in 2 of 3 trials at 20,000 pressing, and growth
     * then stopped 13-15 s later by the plan's levers (bench stop).
     */
    private static java.util.Map<Integer, String> exesInTime(Path proc, java.util.List<Integer> pids) {
        java.util.Map<Integer, String> exes = new java.util.HashMap<>();
        java.util.List<Integer> unread = pids;
        long patience = System.nanoTime() + UNREAD_EXE_PATIENCE_NANOS;
        while (true) {
            exes.putAll(exeReader.read(proc, unread.stream().mapToInt(Integer::intValue).toArray(), RETRY_MILLIS).exes());
            unread = unread.stream().filter(pid -> !exes.containsKey(pid)).toList();
            if (unread.isEmpty() || System.nanoTime() >= patience) return exes;
            java.util.concurrent.locks.LockSupport.parkNanos(50_000_000L);
        }
    }

    /** How the exes of the processes a check could not place are read: the test seam (tests give one whose reads wait). */
    public interface ExeReader {
        ExeReads.Result read(Path proc, int[] pids, long stallMillis);
    }

    public static volatile ExeReader exeReader = ExeReads::read;

    /** How long the check asks again for exes still unread before it calls such a process a stranger. */
    static final long UNREAD_EXE_PATIENCE_NANOS = 5_000_000_000L;

    /** A child (or grandchild, forked since the first reading) of one of the key's processes, by the parents read. */
    private static boolean descends(int pid, java.util.Map<Integer, Integer> parents, Set<Integer> keyed) {
        return Descent.reaches(parents.getOrDefault(pid, Descent.NONE), p -> parents.getOrDefault(p, Descent.NONE), keyed::contains);
    }

    /**
     * The targets as the kernel lists them in the frozen cgroup, read cheaply: stat, exe and
     * owner of each (no command line, no cgroup file): at thousands of processes pressing on a
     * cap a full read of five files each takes seconds, and the cgroup is already exact. Stats
     * and exes are read as a scan reads them, on a deadline: a member still in the middle of an
     * exec when the freeze came is frozen only once the exec is done, and it waits for a CPU
     * first (one readlink held a stop 90 s at 20,000 pressing tasks, bench stop). A member whose
     * stat is still unread is left out of the list and said; the cgroup's kill takes it with the
     * rest, and the census is the kernel's list of the cgroup.
     */
    public static Targets targetsOf(Path proc, Selector selector, String cgroup, Set<Integer> cgroupMembers) {
        ProcReader reader = new ProcReader(proc);
        java.util.List<Integer> pids = new java.util.ArrayList<>();
        pids.addAll(cgroupMembers);
        dev.runaway.procfs.StatsInTime.Result stats = dev.runaway.procfs.StatsInTime.read(proc, pids, STALL_MILLIS, RETRY_MILLIS);
        // Growth is stopped: no member read yet is worth a wait, never a refusal that thaws the runaway.
        long patience = System.nanoTime() + NONE_READ_PATIENCE_NANOS;
        while (stats.stats().isEmpty() && !stats.unread().isEmpty() && System.nanoTime() < patience) {
            java.util.concurrent.locks.LockSupport.parkNanos(RETRY_MILLIS * 1_000_000L);
            dev.runaway.procfs.StatsInTime.Result again = dev.runaway.procfs.StatsInTime.read(proc, stats.unread(), STALL_MILLIS, RETRY_MILLIS);
            java.util.Set<Integer> gone = new java.util.HashSet<>(stats.gone());
            gone.addAll(again.gone());
            stats = new dev.runaway.procfs.StatsInTime.Result(again.stats(), gone, again.unread());
        }
        int[] alive = stats.stats().keySet().stream().mapToInt(Integer::intValue).toArray();
        java.util.Map<Integer, String> exes = exeReader.read(proc, alive, RETRY_MILLIS).exes();
        java.util.List<dev.runaway.model.ProcessSample> members = new java.util.ArrayList<>();
        for (int pid : pids) {
            ProcStat st = stats.stats().get(pid);
            if (st == null || st.isZombie()) continue;
            members.add(new dev.runaway.model.ProcessSample(st.identity(), st.ppid(), st.pgrp(), st.session(), st.state(), st.comm(),
                    st.numThreads(), st.rssPages() * 4096, st.cpuTicks(), reader.uid(pid), java.util.List.of(),
                    exes.getOrDefault(pid, ""), cgroup));
        }
        String unread = stats.unread().isEmpty() ? "" : "; " + stats.unread().size()
                + " members' stat not read in time (mid-exec when frozen): the cgroup's kill takes them with the rest";
        return new Targets(selector, java.util.List.copyOf(members), Optional.of(cgroup), "the cgroup " + cgroup
                + " holds only the targets (the kernel's list, checked before it was frozen)" + unread, java.util.List.of(),
                java.util.List.of(), selector instanceof Selector.Cgroup ? Targets.Following.CGROUP : Targets.Following.KEY);
    }

    /** A scan's stall deadline, and the retry's for those left (an exec ends in a moment once its process has a CPU). */
    private static final long STALL_MILLIS = 50;
    private static final long RETRY_MILLIS = 250;
    /** How long the plan waits, frozen, while no member's stat has been read at all. */
    private static final long NONE_READ_PATIENCE_NANOS = 10_000_000_000L;
}
