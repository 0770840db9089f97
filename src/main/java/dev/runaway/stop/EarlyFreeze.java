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
    /** What was frozen, and when (System.nanoTime). */
    public record Frozen(String cgroup, int members, long atNanos) {
    }

    private EarlyFreeze() {
    }

    public static Optional<Frozen> tryFreeze(Path proc, Selector selector, Actions actions, Exclusions exclusions) {
        String cgroup;
        if (selector instanceof Selector.Cgroup c) {
            cgroup = c.path();
        } else if (selector instanceof Selector.Command c && c.key().startsWith("/")) {
            cgroup = cgroupOfKey(proc, c.key(), actions);
        } else {
            return Optional.empty();
        }
        if (cgroup == null || cgroup.equals("/") || TargetRescan.ownCgroups().contains(cgroup)) return Optional.empty();
        Set<Integer> members = actions.members(cgroup);
        for (var e : exclusions.listed()) if (members.contains(e.process().pid())) return Optional.empty();
        if (members.isEmpty()) return Optional.empty();
        try {
            actions.freeze(cgroup, true);
        } catch (StopException | RuntimeException e) {
            return Optional.empty(); // the plan checks the levers and says why
        }
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (!actions.isFrozen(cgroup) && System.nanoTime() < deadline) Thread.onSpinWait();
        return Optional.of(new Frozen(cgroup, members.size(), System.nanoTime()));
    }

    /** The cgroup holding exactly the processes of a binary key (and their children), or null. */
    private static String cgroupOfKey(Path proc, String key, Actions actions) {
        ProcReader reader = new ProcReader(proc);
        Set<Integer> matches = new HashSet<>();
        for (int pid : reader.pids()) if (key.equals(reader.exe(pid))) matches.add(pid);
        if (matches.isEmpty()) return null;
        String cgroup = null;
        for (int pid : matches) {
            cgroup = reader.cgroup(pid);
            if (cgroup != null && !cgroup.isEmpty()) break;
        }
        if (cgroup == null || cgroup.isEmpty()) return null;
        Set<Integer> members = actions.members(cgroup);
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
        return cgroup;
    }
}
