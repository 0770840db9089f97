// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop.run;

import dev.runaway.stop.StopException;
import dev.runaway.stop.act.Actions;
import dev.runaway.stop.act.Pidfd;
import dev.runaway.stop.plan.Lever;
import dev.runaway.stop.plan.StopPlan;
import dev.runaway.stop.target.Targets;
import dev.runaway.model.ProcessIdentity;
import dev.runaway.model.ProcessSample;
import dev.runaway.stoporder.StopOrder;
import dev.runaway.stoporder.StopOutcome;
import dev.runaway.stoporder.StopStep;
import dev.runaway.stoporder.StopStep.Action;
import dev.runaway.stoporder.StopStep.Phase;
import dev.runaway.stoporder.StopStep.Result;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The guided stop's levers on the one stop order ({@link StopOrder}): the plan's levers are
 * tried in its order, each falling back to the next when it fails at run time (no privilege,
 * no helper, the kernel refused), down to SIGSTOP sweeps; the fixed set is killed by
 * {@code cgroup.kill} when a cgroup lever held (and what that left alive by pid), else by
 * SIGKILL rounds until one finds no new member; zero is confirmed against the target definition
 * re-read on every check, never the first list; what step 1 changed is put back.
 */
public final class StopEngine {
    public static final Duration STABLE_WINDOW = Duration.ofSeconds(2);
    public static final Duration CONFIRM_TIMEOUT = Duration.ofSeconds(30);
    public static final int MAX_ROUNDS = 200;
    /** A killed cgroup whose count has not fallen for this long holds what cgroup.kill did not end. */
    static final Duration HELD_STILL = Duration.ofSeconds(1);
    private static final int SIGKILL = 9;
    private static final int SIGSTOP = 19;
    private static final int SIGCONT = 18;

    /** The order's outcome, with the survivors as the last reading saw them (pid, executable). */
    public record Outcome(StopOutcome order, List<ProcessSample> survivors, List<ProcessSample> unfollowed) {
        public boolean zeroConfirmed() {
            return order.zeroConfirmed();
        }

        public StopOutcome.Status status() {
            return order.status();
        }

        public List<StopStep> steps() {
            return order.steps();
        }

        public long millisToZero() {
            return order.millisToZero();
        }

        public long millisToGrowthStopped() {
            return order.millisToGrowthStopped();
        }

        public Map<String, Integer> restoredModes() {
            return order.restoredModes();
        }
    }

    private final Actions actions;
    private final Supplier<Targets> rescan;
    private final Consumer<StopStep> listener;
    private final Duration stableWindow;
    private final Duration confirmTimeout;

    /**
     * @param rescan   a fresh reading of the plan's target definition
     * @param listener told of every step as it happens (live counts)
     */
    public StopEngine(Actions actions, Supplier<Targets> rescan, Consumer<StopStep> listener) {
        this(actions, rescan, listener, STABLE_WINDOW, CONFIRM_TIMEOUT);
    }

    /** With a window and timeout of the caller's (the engine's unit tests). */
    public StopEngine(Actions actions, Supplier<Targets> rescan, Consumer<StopStep> listener, Duration stableWindow, Duration confirmTimeout) {
        this.actions = actions;
        this.rescan = rescan;
        this.listener = listener;
        this.stableWindow = stableWindow;
        this.confirmTimeout = confirmTimeout;
    }

    public Outcome run(StopPlan plan, boolean keepRevoked) {
        // Levers start acting here: the plan's targets were confirmed by the caller.
        actions.bind(plan.binding()); // a helper, when one is asked, acts on this stop's set only
        Run run = new Run(plan, keepRevoked);
        StopOutcome o;
        try {
            o = new StopOrder(stableWindow, confirmTimeout, stableWindow.compareTo(STABLE_WINDOW) < 0 ? 5 : 100).run(run, listener);
        } finally {
            actions.unbind();
        }
        Set<Integer> left = new HashSet<>(o.survivors());
        List<ProcessSample> survivors = new ArrayList<>();
        List<ProcessSample> unfollowed = new ArrayList<>();
        if (run.last != null) {
            for (ProcessSample p : run.last.members()) if (left.contains(p.pid())) survivors.add(p);
            for (ProcessSample p : run.last.unfollowed()) if (left.contains(p.pid())) unfollowed.add(p);
        }
        return new Outcome(o, List.copyOf(survivors), List.copyOf(unfollowed));
    }

    /**
     * The order's first step alone, with a reversible lever only (the cgroup's freeze, its
     * pids.max 0 first; else SIGSTOP sweeps of exactly the members): a guard's hold. The held
     * set is then either released ({@link Held#release}: exactly what this changed is put back)
     * or stopped by an ordinary run of a plan of the same group (the console's, the terminal's, the
     * command line's), whose first step finds growth already held and which ends with the group
     * gone; the guard then forgets the hold.
     */
    public Held hold(StopPlan plan) throws StopException {
        Run run = new Run(plan, false);
        List<String> failed = new ArrayList<>();
        for (Lever l : plan.order()) {
            if (l != Lever.FREEZE_CGROUP && l != Lever.SIGSTOP_SWEEP) continue; // revoke and quarantine change more than they can put back unasked
            try {
                StopOrder.Pulled pulled = run.growth(l).pull();
                return new Held(run, l, pulled);
            } catch (StopOrder.Failed e) {
                failed.add(l.name() + ": " + e.getMessage());
            }
        }
        // Abandoned: a sweep that gave up (200 rounds, a denial) had stopped some already, a freeze
        // that failed may have set pids.max 0; nobody will release a hold that was never made.
        throw new HoldAbandoned("no reversible lever held it: " + (failed.isEmpty() ? "none applies" : String.join("; ", failed)),
                run.undoHold());
    }

    /** A hold that failed, and what of it was put back (each process its sweeps stopped continued, the cgroup as it was). */
    public static final class HoldAbandoned extends StopException {
        private final List<String> undone;

        HoldAbandoned(String why, List<String> undone) {
            super(why + "; abandoned, undone: " + (undone.isEmpty() ? "nothing had been changed" : String.join("; ", undone)));
            this.undone = List.copyOf(undone);
        }

        /** What was put back, one line each; empty when the attempt had changed nothing. */
        public List<String> undone() {
            return undone;
        }
    }

    /** A set held by {@link #hold}: the lever, what it reached, and how to put it back. */
    public final class Held {
        private final Run run;
        private final Lever lever;
        private final StopOrder.Pulled pulled;

        private Held(Run run, Lever lever, StopOrder.Pulled pulled) {
            this.run = run;
            this.lever = lever;
            this.pulled = pulled;
        }

        public Lever lever() {
            return lever;
        }

        public int count() {
            return pulled.count();
        }

        public String note() {
            return pulled.note();
        }

        /** The processes the hold stopped with SIGSTOP (none for a cgroup's freeze). */
        public Set<ProcessIdentity> stopped() {
            return Set.copyOf(run.stoppedBySweep);
        }

        /** Puts back exactly what the hold changed: thaw and pids.max as they were, SIGCONT to each process it stopped. */
        public List<String> release() {
            return run.undoHold();
        }
    }

    /** One run of a plan: its levers, kill, census and restore. */
    private final class Run implements StopOrder.Target, StopOrder.RestoresModes {
        private final StopPlan plan;
        private final boolean keepRevoked;
        private final Map<String, Integer> revoked = new LinkedHashMap<>();
        private final Map<String, Integer> restored = new LinkedHashMap<>();
        private boolean frozen;
        private boolean pidsCapped;
        private String quarantine;
        private String cgroupHeld; // the cgroup a lever holds the targets in: frozen, or the quarantine
        private boolean cgroupKilled;
        private boolean censusFromCgroup;
        private int heldLowest = Integer.MAX_VALUE; // the fewest members the killed cgroup held at a census
        private long heldFellNanos;                 // when that count last fell
        private final Set<ProcessIdentity> sigkilled = new HashSet<>();
        private final Set<ProcessIdentity> stoppedBySweep = new HashSet<>();
        Targets last;

        Run(StopPlan plan, boolean keepRevoked) {
            this.plan = plan;
            this.keepRevoked = keepRevoked;
            this.last = plan.targets();
        }

        Targets read() {
            last = rescan.get();
            return last;
        }

        @Override
        public List<StopOrder.Growth> growthLevers() {
            List<StopOrder.Growth> levers = new ArrayList<>();
            for (Lever l : plan.order()) levers.add(growth(l));
            return levers;
        }

        private StopOrder.Growth growth(Lever lever) {
            return switch (lever) {
                case FREEZE_CGROUP -> lever(Action.FREEZE, () -> {
                    String cgroup = plan.cgroup().orElseThrow(() -> new StopException("no cgroup holds only the targets"));
                    // pids.max 0 first, then the freeze (GrowthFirst says why)
                    long capped = GrowthFirst.capThenFreeze(actions, cgroup, c -> pidsCapped = c);
                    frozen = true;
                    cgroupHeld = cgroup;
                    if (pidsCapped) return new StopOrder.Pulled(actions.members(cgroup).size(), "pids.max 0 on " + cgroup
                            + " (no fork succeeds) and freezing it", capped);
                    waitFrozen(cgroup);
                    return new StopOrder.Pulled(actions.members(cgroup).size(), "froze " + cgroup);
                });
                case REVOKE_EXEC -> lever(Action.REVOKE_EXEC, () -> {
                    for (String binary : plan.binaries()) revoked.put(binary, actions.revoke(binary));
                    // Revoking stops every new exec, not a fork without one: a sweep of SIGSTOP makes the set fixed.
                    int stopped = sweep(SIGSTOP);
                    return new StopOrder.Pulled(stopped, "execute bits off " + String.join(", ", revoked.keySet())
                            + ", then every target stopped; a sweep found no new one");
                });
                case QUARANTINE -> lever(Action.QUARANTINE, () -> {
                    quarantine = actions.quarantine(ProcessHandle.current().pid() + "-" + System.nanoTime() % 100000);
                    int moved = moveAll(quarantine);
                    cgroupHeld = quarantine;
                    return new StopOrder.Pulled(moved, "moved into " + quarantine + " (frozen); a sweep found no new one");
                });
                case SIGSTOP_SWEEP -> lever(Action.SIGSTOP, () -> new StopOrder.Pulled(sweep(SIGSTOP),
                        "every target stopped; a sweep found no new one"));
            };
        }

        @Override
        public void kill(StopOrder.Growth held, StopOrder.Log log) {
            if (cgroupHeld != null) {
                long t = System.nanoTime();
                int members = actions.members(cgroupHeld).size();
                try {
                    actions.killCgroup(cgroupHeld);
                    cgroupKilled = true;
                    // Every member has its SIGKILL; what is left is exiting (at thousands pressing, each
                    // exit waits for a CPU). Sleep while they go: a sweep here would take that CPU from them.
                    long deadline = System.nanoTime() + Duration.ofSeconds(2).toNanos();
                    while (!actions.members(cgroupHeld).isEmpty() && System.nanoTime() < deadline) pause(20);
                    log.step(Phase.KILL, Action.CGROUP_KILL, members, Result.DONE, "killed every member of " + cgroupHeld, t);
                    return; // members outside it, if any, are the census's stragglers
                } catch (StopException | RuntimeException e) {
                    log.step(Phase.KILL, Action.CGROUP_KILL, 0, Result.FAILED, e.getMessage(), t);
                }
                if (read().members().isEmpty()) return;
            }
            long t = System.nanoTime();
            try {
                int killed = sweep(SIGKILL);
                log.step(Phase.KILL, Action.SIGKILL, killed, Result.DONE, "rounds until one found no new member", t);
            } catch (StopException e) {
                log.step(Phase.KILL, Action.SIGKILL, 0, Result.FAILED, e.getMessage(), t);
            }
        }

        @Override
        public StopOrder.Census census() {
            if (cgroupKilled) {
                // While the killed cgroup still holds members and their count falls, the kernel's list is
                // the census: zero is not near, and a full read of thousands of exiting processes would
                // only slow them. Once it has not fallen for a while, cgroup.kill left some alive (a process
                // whose main thread ended while others run: the kernel signals only that leader): they are
                // read and killed by pid as stragglers.
                Set<Integer> held = actions.members(cgroupHeld);
                long now = System.nanoTime();
                if (held.size() < heldLowest) {
                    heldLowest = held.size();
                    heldFellNanos = now;
                }
                if (!held.isEmpty() && now - heldFellNanos < HELD_STILL.toNanos()) {
                    censusFromCgroup = true;
                    return new StopOrder.Census(List.copyOf(held), 0, List.of());
                }
            }
            censusFromCgroup = false;
            Targets now = read();
            Set<Integer> alive = new HashSet<>();
            for (ProcessSample p : now.members()) alive.add(p.pid());
            if (cgroupHeld != null) alive.addAll(actions.members(cgroupHeld)); // the kernel's count of what the lever holds
            List<Integer> unfollowed = new ArrayList<>();
            for (ProcessSample p : now.unfollowed()) unfollowed.add(p.pid());
            return new StopOrder.Census(List.copyOf(alive), 0, List.copyOf(unfollowed));
        }

        @Override
        public void killStragglers(StopOrder.Census census, StopOrder.Log log) {
            if (censusFromCgroup) return; // every one of them has its SIGKILL from cgroup.kill and nothing new can start there
            long t = System.nanoTime();
            int sent = 0;
            for (ProcessSample p : last.members()) {
                if (!sigkilled.add(p.identity())) continue; // a SIGKILL is not lost: once is enough
                try {
                    if (actions.signal(p.identity(), SIGKILL) == Pidfd.Result.SENT) sent++;
                } catch (StopException e) {
                    sigkilled.remove(p.identity());
                    log.step(Phase.CONFIRM_ZERO, Action.SIGKILL, 1, Result.FAILED, e.getMessage(), t);
                }
            }
            if (cgroupKilled && sent > 0) log.step(Phase.CONFIRM_ZERO, Action.SIGKILL, sent, Result.DONE, "alive after cgroup.kill: killed by pid", t);
            if (cgroupHeld != null) {
                try {
                    actions.killCgroup(cgroupHeld);
                } catch (StopException e) {
                    // logged once in the kill step; the members are signalled one by one above
                }
            }
        }

        @Override
        public void restore(StopOrder.Log log) {
            long t = System.nanoTime();
            if (pidsCapped) {
                actions.uncapPids(plan.cgroup().orElseThrow());
                log.step(Phase.RESTORE, Action.PIDS_MAX_ZERO, 1, Result.DONE, "pids.max of " + plan.cgroup().get() + " back as it was", t);
            }
            if (frozen) {
                try {
                    actions.freeze(plan.cgroup().orElseThrow(), false);
                    log.step(Phase.RESTORE, Action.THAW, 1, Result.DONE, "thawed " + plan.cgroup().get(), t);
                } catch (StopException | RuntimeException e) {
                    log.step(Phase.RESTORE, Action.THAW, 0, Result.FAILED, "the cgroup is gone or could not be thawed: " + e.getMessage(), t);
                }
            }
            if (quarantine != null) {
                try {
                    actions.release(quarantine);
                    log.step(Phase.RESTORE, Action.RELEASE_QUARANTINE, 1, Result.DONE, "removed " + quarantine, t);
                } catch (StopException e) {
                    log.step(Phase.RESTORE, Action.RELEASE_QUARANTINE, 0, Result.FAILED, e.getMessage(), t);
                }
            }
            if (revoked.isEmpty()) return;
            if (keepRevoked) {
                log.step(Phase.RESTORE, Action.RESTORE_MODES, 0, Result.KEPT, "execute bits left off, as asked: "
                        + String.join(", ", revoked.keySet()), t);
                return;
            }
            for (Map.Entry<String, Integer> e : revoked.entrySet()) {
                try {
                    actions.restore(e.getKey(), e.getValue());
                    restored.put(e.getKey(), e.getValue());
                } catch (StopException ex) {
                    log.step(Phase.RESTORE, Action.RESTORE_MODES, 0, Result.FAILED, ex.getMessage(), t);
                }
            }
            if (!restored.isEmpty()) log.step(Phase.RESTORE, Action.RESTORE_MODES, restored.size(), Result.DONE, "modes back as recorded", t);
        }

        @Override
        public Map<String, Integer> restoredModes() {
            return restored;
        }

        /** What a hold (made or abandoned) changed, put back: the cgroup's pids.max and freeze, SIGCONT to each process its sweeps stopped. */
        List<String> undoHold() {
            List<String> done = new ArrayList<>();
            restore((phase, action, count, result, note, startedNanos) -> done.add(note));
            int continued = 0;
            for (ProcessIdentity id : stoppedBySweep) {
                try {
                    if (actions.signal(id, SIGCONT) == Pidfd.Result.SENT) continued++;
                } catch (StopException e) {
                    done.add("pid " + id.pid() + " could not be continued: " + e.getMessage());
                }
            }
            if (!stoppedBySweep.isEmpty()) done.add("SIGCONT to " + continued + " of the " + stoppedBySweep.size() + " it stopped (the rest are gone)");
            return done;
        }

        /** Moves targets into the quarantine, re-reading them, until a sweep finds none left outside. */
        private int moveAll(String into) throws StopException {
            Set<ProcessIdentity> moved = new HashSet<>();
            for (int round = 1; round <= MAX_ROUNDS; round++) {
                int fresh = 0;
                for (ProcessSample p : read().members()) {
                    if (moved.contains(p.identity())) continue;
                    if (actions.move(into, p.identity())) fresh++;
                    moved.add(p.identity());
                }
                if (fresh == 0) return moved.size();
            }
            throw new StopException("still finding targets outside the quarantine after " + MAX_ROUNDS + " sweeps");
        }

        private void waitFrozen(String cgroup) throws StopException {
            long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (!actions.isFrozen(cgroup)) {
                if (System.nanoTime() > deadline) throw new StopException("the cgroup " + cgroup + " did not freeze within 5 s");
                pause(10);
            }
        }

        /**
         * Signals every member, re-reading the definition, until a round finds no one new; returns
         * how many were reached. Fails when some could not be signalled at all (not ours, no helper).
         */
        private int sweep(int signal) throws StopException {
            Set<ProcessIdentity> done = new HashSet<>();
            Map<ProcessIdentity, String> denied = new HashMap<>();
            for (int round = 1; round <= MAX_ROUNDS; round++) {
                int fresh = 0;
                for (ProcessSample p : read().members()) {
                    if (!done.add(p.identity())) continue;
                    try {
                        if (signal == SIGSTOP && p.state() == 'T') continue; // stopped before: not this sweep's to continue
                        if (actions.signal(p.identity(), signal) == Pidfd.Result.SENT) {
                            fresh++;
                            if (signal == SIGSTOP) stoppedBySweep.add(p.identity());
                        }
                    } catch (StopException e) {
                        denied.put(p.identity(), e.getMessage());
                    }
                }
                if (fresh == 0) {
                    if (!denied.isEmpty()) {
                        throw new StopException(denied.size() + " of " + done.size() + " targets could not be signalled: "
                                + denied.values().iterator().next());
                    }
                    return done.size();
                }
            }
            throw new StopException("still finding new targets after " + MAX_ROUNDS + " rounds");
        }
    }

    private interface Pull {
        StopOrder.Pulled pull() throws StopException;
    }

    private static StopOrder.Growth lever(Action action, Pull pull) {
        return new StopOrder.Growth() {
            @Override
            public Action action() {
                return action;
            }

            @Override
            public StopOrder.Pulled pull() throws StopOrder.Failed {
                try {
                    return pull.pull();
                } catch (StopException e) {
                    throw new StopOrder.Failed(e.getMessage());
                }
            }
        };
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
