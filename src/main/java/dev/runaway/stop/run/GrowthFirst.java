// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop.run;

import dev.runaway.procfs.ProcReader;
import dev.runaway.stop.Selector;
import dev.runaway.stop.StopCore;
import dev.runaway.stop.StopException;
import dev.runaway.stop.StopSession;
import dev.runaway.stop.act.Actions;
import dev.runaway.stop.plan.Lever;
import dev.runaway.stop.plan.StopPlan;
import dev.runaway.stop.target.Exclusions;
import dev.runaway.stop.target.ExeReads;
import dev.runaway.stop.target.FrozenMembers;
import dev.runaway.stop.target.StrangerAllowance;
import dev.runaway.stop.target.TargetRescan;
import dev.runaway.stop.target.Targets;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Growth stopped first, written once: the reversible lever taken before the plan, then the plan
 * made while frozen, and a thaw unless that plan freezes the same cgroup. The command line
 * ({@code runaway stop --yes}, or adopting runaway-rt's freeze), the console and {@code top}
 * (through {@link StopCore#confirmed}) take it; "pids.max 0, then freeze" ({@link
 * #capThenFreeze}) is also the engine's cgroup lever, which the guard's hold pulls.
 *
 * <p>The early lever reads the cheapest exact evidence: for a command key that names a binary,
 * one readlink of /proc/PID/exe per process finds its processes (stat, exe, status and cgroup
 * never wait on a process; cmdline, which the full scan reads, waits on each pressing process's
 * memory map while it forks, and at 20,000 of them that is minutes; exe waits only on a process
 * mid-exec, so those reads run on a few threads and one that does not return is left unknown:
 * {@link ExeReads}). When the kernel's list of their cgroup holds (nearly) nothing else ({@link
 * StrangerAllowance}), its pids.max goes to 0 and it is frozen at once: growth has stopped.
 * Then, with nothing new able to start, every other process in it is checked ({@link
 * FrozenMembers}); one stranger and both are undone at once and the ordinary plan decides.
 * Never the root cgroup, a slice, or a cgroup holding this stop. Only once the user confirmed.
 */
public final class GrowthFirst {
    /** What was frozen, when the targets were known and when the freeze held (System.nanoTime). */
    public record Frozen(String cgroup, int members, boolean pidsCapped, long startedNanos, long resolvedNanos, long atNanos,
                         Map<String, Long> phaseMillis) {
    }

    /** How an attempt went: frozen, or why not, and the time each phase took (for the figures). */
    public record Attempt(Optional<Frozen> frozen, String why, Map<String, Long> phaseMillis) {
        public static Attempt not(String why, Map<String, Long> phases) {
            return new Attempt(Optional.empty(), why, phases);
        }
    }

    /**
     * The plan made after an attempt, and the freeze it keeps: empty when there was none or the
     * plan chose otherwise (then {@code thawed} names the cgroup put back).
     */
    public record Planned(StopSession session, Optional<Frozen> frozen, Optional<String> thawed) {
    }

    private GrowthFirst() {
    }

    /**
     * pids.max 0 first: no fork succeeds from then on, whereas the freeze holds only once every
     * task was scheduled to freeze itself (seconds, at thousands pressing on a cap). {@code
     * capped} hears at once whether the cap was set, so the caller's restore knows even when the
     * freeze then fails. Returns when the cap was set (System.nanoTime), or -1 without one.
     */
    public static long capThenFreeze(Actions actions, String cgroup, Consumer<Boolean> capped) throws StopException {
        boolean pidsCapped = actions.capPids(cgroup);
        long at = pidsCapped ? System.nanoTime() : -1;
        capped.accept(pidsCapped);
        actions.freeze(cgroup, true);
        return at;
    }

    /** Thaws the cgroup and puts its pids.max back (when it was capped): nothing stays changed on an early lever's word. */
    public static void thaw(Actions actions, String cgroup, boolean capped) {
        try {
            actions.freeze(cgroup, false);
        } catch (StopException | RuntimeException e) {
            // the plan's levers decide; the freeze file is written again there
        }
        if (capped) actions.uncapPids(cgroup);
    }

    /** The early lever for a selector the user confirmed: a binary's key (by exe links) or a cgroup. */
    public static Attempt attempt(Path proc, Selector selector, Actions actions, Exclusions exclusions) {
        long started = System.nanoTime();
        Map<String, Long> phases = new LinkedHashMap<>();
        ProcReader reader = new ProcReader(proc);
        String cgroup;
        Set<Integer> matches;
        if (selector instanceof Selector.Cgroup c) {
            cgroup = c.path();
            matches = null; // the cgroup is the definition: every member is a target
        } else if (selector instanceof Selector.Command c && c.key().startsWith("/")) {
            long t = System.nanoTime();
            int[] pids = reader.pids();
            phases.put("listPids", millisSince(t));
            t = System.nanoTime();
            matches = new HashSet<>();
            ExeReads.Result exes = FrozenMembers.exes(proc, pids);
            exes.exes().forEach((pid, exe) -> {
                if (c.key().equals(exe)) matches.add(pid);
            });
            phases.put("readExe", millisSince(t));
            if (!exes.unknown().isEmpty()) phases.put("exeNotReturned", (long) exes.unknown().size());
            if (matches.isEmpty()) return Attempt.not("no process runs " + c.key() + " (by /proc/PID/exe)", phases);
            cgroup = null;
            for (int pid : matches) {
                cgroup = reader.cgroup(pid);
                if (cgroup != null && !cgroup.isEmpty()) break;
            }
        } else {
            return Attempt.not("only a binary's key or a cgroup is resolved this early", phases);
        }
        if (cgroup == null || cgroup.isEmpty()) return Attempt.not("no cgroup v2 path for its processes", phases);
        if (cgroup.equals("/") || cgroup.endsWith(".slice")) return Attempt.not(cgroup + " is shared by design (the root or a slice)", phases);
        if (TargetRescan.ownCgroups().contains(cgroup)) return Attempt.not("the cgroup " + cgroup + " holds this stop too", phases);
        long t = System.nanoTime();
        Set<Integer> members = actions.members(cgroup);
        phases.put("cgroupProcs", millisSince(t));
        if (members.isEmpty()) return Attempt.not("the cgroup " + cgroup + " is empty", phases);
        String excluded = FrozenMembers.excluded(exclusions, members, cgroup);
        if (excluded != null) return Attempt.not(excluded, phases);
        if (matches != null) {
            int strangers = 0;
            for (int pid : members) if (!matches.contains(pid)) strangers++;
            if (strangers > StrangerAllowance.allowed(matches.size())) {
                return Attempt.not(strangers + " processes in " + cgroup + " do not run the key (by the first reading)", phases);
            }
        }
        long resolved = System.nanoTime();
        boolean[] capped = new boolean[1];
        try {
            capThenFreeze(actions, cgroup, c -> {
                capped[0] = c;
                phases.put("capPids", millisSince(resolved));
            });
        } catch (StopException | RuntimeException e) {
            if (capped[0]) actions.uncapPids(cgroup);
            return Attempt.not("could not freeze " + cgroup + ": " + e.getMessage(), phases); // the plan checks the levers
        }
        phases.put("freeze", millisSince(resolved) - phases.getOrDefault("capPids", 0L));
        if (matches != null) {
            // Nothing new can start now: what is in it is all there is to check.
            t = System.nanoTime();
            String stranger = FrozenMembers.stranger(proc, ((Selector.Command) selector).key(), actions.members(cgroup), matches);
            phases.put("check", millisSince(t));
            if (stranger != null) {
                thaw(actions, cgroup, capped[0]);
                return Attempt.not(stranger + " shares " + cgroup + "; thawed at once", phases);
            }
        }
        if (!capped[0]) {
            // Without a pids cap growth stops only once the freeze holds.
            t = System.nanoTime();
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (!actions.isFrozen(cgroup) && System.nanoTime() < deadline) Thread.onSpinWait();
            phases.put("frozenHeld", millisSince(t));
        }
        return new Attempt(Optional.of(new Frozen(cgroup, members.size(), capped[0], started, resolved, System.nanoTime(), phases)),
                (capped[0] ? "pids.max 0 and froze " : "froze ") + cgroup, phases);
    }

    /**
     * Takes over the freeze runaway-rt's first lever made before this JVM started ({@link
     * FirstLever}): its pids.max is put back with the stop's restore, and every process in the
     * frozen cgroup is checked as after this class's own freeze ({@link FrozenMembers#check}); the
     * plan then reads the selector in full while they are frozen. A stranger, an excluded
     * process, or a lever made for another selector than this stop's: thawed and pids.max put back
     * at once.
     *
     * @param atNanos when the freeze was written, on this JVM's System.nanoTime clock
     */
    public static Attempt adopt(Path proc, Selector selector, Actions actions, Exclusions exclusions, FirstLever lever, long atNanos) {
        Map<String, Long> phases = new LinkedHashMap<>();
        lever.phaseMillis().forEach((name, millis) -> phases.put("rt." + name, millis));
        if (!lever.frozen()) return Attempt.not("runaway-rt did not freeze: " + lever.refused(), phases);
        String cgroup = lever.cgroup();
        if (!lever.pidsMax().isEmpty()) actions.adoptPidsCap(cgroup, lever.pidsMax(), lever.pidsOld());
        long t = System.nanoTime();
        Set<Integer> members = actions.members(cgroup);
        String stranger = !lever.selector().equals(Optional.of(selector))
                ? "runaway-rt froze for " + lever.selector().map(Selector::label).orElse("nothing") + ", not for this stop's " + selector.label()
                : FrozenMembers.check(proc, selector, exclusions, members, cgroup);
        phases.put("check", millisSince(t));
        if (stranger != null) {
            thaw(actions, cgroup, !lever.pidsMax().isEmpty());
            return Attempt.not(stranger + "; thawed at once (runaway-rt had frozen it)", phases);
        }
        return new Attempt(Optional.of(new Frozen(cgroup, members.size(), !lever.pidsMax().isEmpty(), atNanos, atNanos, atNanos, phases)),
                (lever.pidsMax().isEmpty() ? "froze " : "pids.max 0 and froze ") + cgroup + " (runaway-rt, before this JVM started)", phases);
    }

    /** The frozen cgroup's targets, the kernel's list read cheaply ({@link FrozenMembers#targetsOf}). */
    public static Targets targetsOf(Path proc, Selector selector, Frozen frozen, Actions actions) {
        return FrozenMembers.targetsOf(proc, selector, frozen.cgroup(), actions.members(frozen.cgroup()));
    }

    /**
     * Plans again after an attempt: a key's or a cgroup's targets are the frozen cgroup's kernel
     * list; a process's or a chain's are read in full (their lineage, placements), which waits on
     * nothing while they are frozen. The freeze is kept only when the plan's lever is the freeze
     * of that same cgroup; otherwise (or when the stop is refused) it is thawed and its pids.max
     * put back, and the plan's own levers decide.
     */
    public static Planned plan(StopCore core, Path proc, Selector selector, Attempt attempt, Actions actions) {
        Optional<Frozen> early = attempt.frozen();
        StopSession session = core.open(selector).prepare(early.filter(f -> selector.rootProcess() == null)
                .map(f -> targetsOf(proc, selector, f, actions)).orElse(null));
        if (early.isEmpty()) return new Planned(session, early, Optional.empty());
        Frozen f = early.get();
        boolean keeps = session.state() == StopSession.State.READY && session.plan().chosen() == Lever.FREEZE_CGROUP
                && session.plan().cgroup().equals(Optional.of(f.cgroup()));
        if (keeps) return new Planned(session, early, Optional.empty());
        thaw(actions, f.cgroup(), true);
        return new Planned(session, Optional.empty(), Optional.of(f.cgroup()));
    }

    /** Whether {@link StopCore#confirmed} may stop growth through a cgroup before this ready plan. */
    public static boolean mayGoFirst(Selector selector, StopPlan plan) {
        return plan != null && plan.chosen() != Lever.FREEZE_CGROUP && selector instanceof Selector.Command c
                && c.key().startsWith("/") && c.uid().isEmpty(); // the early freeze goes by key alone, every user's
    }

    private static long millisSince(long nanos) {
        return (System.nanoTime() - nanos) / 1_000_000;
    }
}
