// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop.run;

import dev.runaway.stop.StopException;
import dev.runaway.stop.act.Actions;
import dev.runaway.stop.plan.Lever;
import dev.runaway.stop.plan.StopPlan;
import dev.runaway.stop.target.Targets;
import dev.runaway.model.ProcessIdentity;
import dev.runaway.model.ProcessSample;
import dev.runaway.stoporder.StopOrder;
import dev.runaway.stoporder.StopOutcome;
import dev.runaway.stoporder.StopStep;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
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
        EngineRun run = new EngineRun(actions, rescan, plan, keepRevoked);
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
        EngineRun run = new EngineRun(actions, rescan, plan, false);
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
        private final EngineRun run;
        private final Lever lever;
        private final StopOrder.Pulled pulled;

        private Held(EngineRun run, Lever lever, StopOrder.Pulled pulled) {
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
}
