// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop.plan;

import dev.runaway.stop.target.ExeReads;
import dev.runaway.stop.target.Targets;
import dev.runaway.model.ProcessSample;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Checks each lever for this user and machine before choosing (can this cgroup be written, is a
 * helper there, is every binary disposable and not run through an interpreter), and orders the
 * ones that can be pulled: those needing only your own rights first, strongest first, then
 * those needing the helper. The engine pulls them in that order, falling back to the next when
 * one fails at run time, down to a SIGSTOP sweep, which needs nothing but your own signals.
 */
public final class Planner {
    private final Disposable disposable;
    private final Privilege privilege;
    private final Path unified;

    public Planner(Disposable disposable, Privilege privilege) {
        this.disposable = disposable;
        this.privilege = privilege;
        this.unified = dev.runaway.sandbox.CgroupLayout.detect().unified().orElse(null);
    }

    /** As root, or as this user with no helper. */
    public Planner(Disposable disposable, boolean root) {
        this(disposable, new Privilege(root, root ? 0 : dev.runaway.sys.LibC.INSTANCE.geteuid(), Privilege.Helper.NONE));
    }

    public StopPlan plan(Targets set) {
        Map<Lever, LeverCheck> checks = new EnumMap<>(Lever.class);
        checks.put(Lever.FREEZE_CGROUP, freeze(set));
        List<String> binaries = new ArrayList<>();
        checks.put(Lever.REVOKE_EXEC, revoke(set.members(), binaries));
        checks.put(Lever.QUARANTINE, privilege.root() ? new LeverCheck(Lever.QUARANTINE, LeverCheck.Feasible.AS_YOU, "running as root")
                : privilege.helperPossible() ? new LeverCheck(Lever.QUARANTINE, LeverCheck.Feasible.VIA_HELPER, "through the helper")
                : new LeverCheck(Lever.QUARANTINE, LeverCheck.Feasible.NO, "needs root or the helper, and none is installed"));
        long others = othersProcesses(set.members());
        checks.put(Lever.SIGSTOP_SWEEP, privilege.root() || others == 0
                ? new LeverCheck(Lever.SIGSTOP_SWEEP, LeverCheck.Feasible.AS_YOU, "your own signals suffice")
                : privilege.helperPossible() ? new LeverCheck(Lever.SIGSTOP_SWEEP, LeverCheck.Feasible.VIA_HELPER,
                        others + " targets belong to other users: signalled through the helper")
                : new LeverCheck(Lever.SIGSTOP_SWEEP, LeverCheck.Feasible.AS_YOU, "your own processes only: " + others
                        + " targets belong to other users and no helper is installed"));
        List<Lever> order = new ArrayList<>();
        for (LeverCheck c : checks.values()) if (c.possible()) order.add(c.lever());
        order.sort(Comparator.comparing((Lever l) -> checks.get(l).feasible()).thenComparing(Lever::ordinal));
        order.remove(Lever.SIGSTOP_SWEEP);
        order.add(Lever.SIGSTOP_SWEEP); // the last resort, always
        // With your own rights a sweep comes before a lever that needs the helper started now.
        if (checks.get(Lever.SIGSTOP_SWEEP).feasible() == LeverCheck.Feasible.AS_YOU && privilege.helper() != Privilege.Helper.RUNNING) {
            order.removeIf(l -> l != Lever.SIGSTOP_SWEEP && checks.get(l).feasible() == LeverCheck.Feasible.VIA_HELPER);
            for (LeverCheck c : checks.values()) {
                if (c.feasible() == LeverCheck.Feasible.VIA_HELPER && c.lever() != Lever.SIGSTOP_SWEEP) order.add(c.lever());
            }
        }
        return new StopPlan(set, checks, List.copyOf(order), order.contains(Lever.REVOKE_EXEC) ? List.copyOf(binaries) : List.of(),
                privilege, others);
    }

    private LeverCheck freeze(Targets set) {
        if (set.cgroup().isEmpty()) return new LeverCheck(Lever.FREEZE_CGROUP, LeverCheck.Feasible.NO, set.cgroupNote());
        String cgroup = set.cgroup().get();
        if (privilege.root()) return new LeverCheck(Lever.FREEZE_CGROUP, LeverCheck.Feasible.AS_YOU, set.cgroupNote());
        Path dir = unified == null ? null : unified.resolve(cgroup.substring(1));
        if (dir != null && Files.isWritable(dir.resolve("cgroup.freeze")) && Files.isWritable(dir.resolve("cgroup.kill"))) {
            return new LeverCheck(Lever.FREEZE_CGROUP, LeverCheck.Feasible.AS_YOU, set.cgroupNote() + "; you can write it");
        }
        if (privilege.helperPossible()) {
            return new LeverCheck(Lever.FREEZE_CGROUP, LeverCheck.Feasible.VIA_HELPER, set.cgroupNote() + "; you cannot write it: through the helper");
        }
        return new LeverCheck(Lever.FREEZE_CGROUP, LeverCheck.Feasible.NO, set.cgroupNote()
                + ", but you cannot write its cgroup.freeze and no helper is installed");
    }

    private long othersProcesses(List<ProcessSample> targets) {
        if (privilege.root()) return 0;
        return targets.stream().filter(t -> t.uid() != privilege.uid()).count();
    }

    private LeverCheck revoke(List<ProcessSample> targets, List<String> binaries) {
        String why = revokable(targets, binaries);
        if (why != null) return new LeverCheck(Lever.REVOKE_EXEC, LeverCheck.Feasible.NO, why);
        boolean allOwn = privilege.root() || binaries.stream().allMatch(b -> ownerOf(b) == privilege.uid());
        String words = String.join(", ", binaries) + " disposable";
        if (allOwn) return new LeverCheck(Lever.REVOKE_EXEC, LeverCheck.Feasible.AS_YOU, words);
        // Never through the helper: for a user it changes only that user's files, which the user
        // can chmod alone (docs/helper-protocol.md, REVOKE). Another user's binary is theirs.
        return new LeverCheck(Lever.REVOKE_EXEC, LeverCheck.Feasible.NO, words + ", but not all are yours"
                + " (the helper takes execute bits only off your own files)");
    }

    /** Null when every target's binary may be revoked; else why not (the first reason). */
    private String revokable(List<ProcessSample> targets, List<String> binaries) {
        if (targets.isEmpty()) return "no targets";
        Set<String> seen = new LinkedHashSet<>();
        Reread late = unreadExes(targets);
        for (ProcessSample t : targets) {
            // A zombie starts nothing, and its executable can no longer be read (init may be slow to reap it).
            if (t.isZombie()) continue;
            // Nor does one that has exited since the scan (a drill's middle process that lives a
            // moment): its pid reads as gone, or as another process's.
            if (late.gone().contains(t.pid())) continue;
            String exe = t.exe().isEmpty() ? late.exes().getOrDefault(t.pid(), "") : t.exe();
            if (exe.isEmpty()) return "pid " + t.pid() + ": its executable cannot be read";
            String key = t.exe().isEmpty() ? dev.runaway.analysis.CommandKeys.of(t.cmdline(), exe, t.comm())
                    : dev.runaway.analysis.CommandKeys.of(t);
            if (!key.equals(exe)) {
                return exe + " runs " + key + ": a script started through an interpreter is not stopped by"
                        + " revoking execute on it";
            }
            if (seen.add(exe)) {
                Disposable.Verdict v = disposable.check(exe);
                if (!v.disposable()) return v.why();
            }
        }
        if (seen.isEmpty()) return "every target has exited since the scan";
        binaries.addAll(seen);
        return null;
    }

    /** The exes read again, and the sampled processes found gone (exited, or their pid reused). */
    private record Reread(java.util.Map<Integer, String> exes, Set<Integer> gone) {}

    /**
     * The executables the scan left unread (its exe read waits while a process is mid-exec, and
     * a scan does not wait for it), read once more now with a deadline; only for the very
     * process sampled (same start time), never a pid reused since.
     */
    private static Reread unreadExes(List<ProcessSample> targets) {
        java.util.Map<Integer, ProcessSample> unread = new java.util.HashMap<>();
        for (ProcessSample t : targets) {
            if (t.exe().isEmpty() && !t.isZombie()) unread.put(t.pid(), t);
        }
        if (unread.isEmpty()) return new Reread(java.util.Map.of(), Set.of());
        java.util.Map<Integer, String> out = new java.util.HashMap<>();
        java.util.Map<Integer, String> exes = ExeReads.read(PROC, unread.keySet().stream().mapToInt(Integer::intValue).toArray(), 250).exes();
        Set<Integer> gone = new java.util.HashSet<>();
        // Stat after the exe read: a process that is the sampled one, alive, after its exe was read
        // was that process when it was read (a pid is not reused while its process lives). On a
        // deadline, as a scan reads them: one by one, each may wait on a forking process (two
        // plans at 20,000 pressing tasks took 97 s; not traced to this read).
        var stats = dev.runaway.procfs.StatsInTime.read(PROC, unread.keySet(), 250, 250);
        for (ProcessSample t : unread.values()) {
            if (stats.unread().contains(t.pid())) continue; // not known either way: its exe stays unread
            boolean same = Optional.ofNullable(stats.stats().get(t.pid()))
                    .filter(s -> !s.isZombie())
                    .map(s -> s.startTicks() == t.identity().startTicks()).orElse(false);
            String exe = exes.getOrDefault(t.pid(), "");
            if (!same) gone.add(t.pid());
            else if (!exe.isEmpty()) out.put(t.pid(), exe);
        }
        return new Reread(out, gone);
    }

    private static final Path PROC = Path.of("/proc");

    private static int ownerOf(String file) {
        try {
            return (Integer) Files.getAttribute(Path.of(file), "unix:uid");
        } catch (java.io.IOException e) {
            return -1;
        }
    }
}
