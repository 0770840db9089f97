package dev.runaway.stop;

import dev.runaway.procfs.ProcReader;
import dev.runaway.procfs.ProcStat;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * The reversible growth lever taken before the plan, from the cheapest exact reading: for a
 * command key that names a binary, one readlink of /proc/PID/exe per process finds its
 * processes; when the kernel's list of their cgroup holds nothing else (a member, or a child of
 * one forked since), that cgroup is frozen at once. A full scan of thousands of processes
 * pressing on a cap takes seconds; this takes one read per process. The plan is then made while
 * they are frozen, and the engine's freeze finds its work done. Anything less certain (a script
 * key, a shared cgroup, no right to write it) freezes nothing and the ordinary plan decides.
 * For {@code runaway stop --yes} only: without it the user has not confirmed yet.
 */
public final class EarlyFreeze {
    /** What was frozen, when the targets were known and when the freeze held (System.nanoTime). */
    public record Frozen(String cgroup, int members, boolean pidsCapped, long startedNanos, long resolvedNanos, long atNanos,
                         java.util.Map<String, Long> phaseMillis) {
    }

    private EarlyFreeze() {
    }

    public static Optional<Frozen> tryFreeze(Path proc, Selector selector, Actions actions, Exclusions exclusions) {
        long started = System.nanoTime();
        java.util.Map<String, Long> phases = new java.util.LinkedHashMap<>();
        String cgroup;
        Set<Integer> members;
        if (selector instanceof Selector.Cgroup c) {
            cgroup = c.path();
            members = actions.members(cgroup);
        } else if (selector instanceof Selector.Command c && c.key().startsWith("/")) {
            Set<Integer>[] in = new Set[1];
            cgroup = cgroupOfKey(proc, c.key(), actions, in, phases);
            members = in[0];
        } else {
            return Optional.empty();
        }
        if (cgroup == null || cgroup.equals("/") || TargetRescan.ownCgroups().contains(cgroup)) return Optional.empty();
        for (var e : exclusions.listed()) if (members.contains(e.process().pid())) return Optional.empty();
        if (members.isEmpty()) return Optional.empty();
        long resolved = System.nanoTime();
        boolean capped = actions.capPids(cgroup);
        phases.put("capPids", (System.nanoTime() - resolved) / 1_000_000);
        try {
            actions.freeze(cgroup, true);
        } catch (StopException | RuntimeException e) {
            if (capped) actions.uncapPids(cgroup);
            return Optional.empty(); // the plan checks the levers and says why
        }
        if (!capped) {
            // Without a pids cap growth stops only once the freeze holds.
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (!actions.isFrozen(cgroup) && System.nanoTime() < deadline) Thread.onSpinWait();
        }
        return Optional.of(new Frozen(cgroup, members.size(), capped, started, resolved, System.nanoTime(), phases));
    }

    /**
     * The targets as the kernel lists them in the frozen cgroup, read cheaply: stat, exe and
     * owner of each (no command line, no cgroup file): at thousands of processes pressing on a
     * cap a full read of five files each takes seconds, and the cgroup is already exact.
     */
    public static Targets targetsOf(Path proc, Selector selector, Frozen frozen, Actions actions) {
        ProcReader reader = new ProcReader(proc);
        java.util.List<dev.runaway.model.ProcessSample> members = new java.util.ArrayList<>();
        for (int pid : actions.members(frozen.cgroup())) {
            Optional<ProcStat> s = reader.stat(pid);
            if (s.isEmpty() || s.get().isZombie()) continue;
            ProcStat st = s.get();
            members.add(new dev.runaway.model.ProcessSample(st.identity(), st.ppid(), st.pgrp(), st.session(), st.state(), st.comm(),
                    st.numThreads(), st.rssPages() * 4096, st.cpuTicks(), reader.uid(pid), java.util.List.of(), reader.exe(pid),
                    frozen.cgroup()));
        }
        return new Targets(selector, java.util.List.copyOf(members), Optional.of(frozen.cgroup()), "the cgroup " + frozen.cgroup()
                + " holds only the targets (the kernel's list, checked before it was frozen)", java.util.List.of(), java.util.List.of(),
                selector instanceof Selector.Cgroup ? Targets.Following.CGROUP : Targets.Following.KEY);
    }

    /** The cgroup holding exactly the processes of a binary key (and their children), or null. */
    private static String cgroupOfKey(Path proc, String key, Actions actions, Set<Integer>[] in, java.util.Map<String, Long> phases) {
        long t = System.nanoTime();
        ProcReader reader = new ProcReader(proc);
        int[] pids = reader.pids();
        phases.put("listPids", (System.nanoTime() - t) / 1_000_000);
        t = System.nanoTime();
        Set<Integer> matches = new HashSet<>();
        for (int pid : pids) if (key.equals(reader.exe(pid))) matches.add(pid);
        phases.put("readExe", (System.nanoTime() - t) / 1_000_000);
        if (matches.isEmpty()) return null;
        String cgroup = null;
        for (int pid : matches) {
            cgroup = reader.cgroup(pid);
            if (cgroup != null && !cgroup.isEmpty()) break;
        }
        if (cgroup == null || cgroup.isEmpty()) return null;
        t = System.nanoTime();
        Set<Integer> members = actions.members(cgroup);
        in[0] = members;
        phases.put("cgroupProcs", (System.nanoTime() - t) / 1_000_000);
        t = System.nanoTime();
        for (int pid : members) {
            if (matches.contains(pid)) continue;
            Optional<ProcStat> s = ProcStat.read(proc, pid);
            if (s.isEmpty() || s.get().isZombie() || matches.contains(s.get().ppid())) continue;
            String exe = reader.exe(pid);
            if (exe.isEmpty() && s.get().state() == 'X') continue;
            return null; // a stranger shares it: the plan will say so
        }
        for (int pid : matches) {
            // every one of them in it (or gone): a match elsewhere means the key spans cgroups
            if (!members.contains(pid) && ProcStat.read(proc, pid).filter(s -> !s.isZombie()).isPresent()) return null;
        }
        phases.put("check", (System.nanoTime() - t) / 1_000_000);
        return cgroup;
    }
}
