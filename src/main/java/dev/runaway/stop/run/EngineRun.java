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
import dev.runaway.stoporder.StopStep;
import dev.runaway.stoporder.StopStep.Action;
import dev.runaway.stoporder.StopStep.Phase;
import dev.runaway.stoporder.StopStep.Result;
import static dev.runaway.sys.Signal.SIGCONT;
import static dev.runaway.sys.Signal.SIGKILL;
import static dev.runaway.sys.Signal.SIGSTOP;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
/**
 * One run of a plan on the stop order, for {@link StopEngine}: its growth levers (the cgroup's
 * pids.max and freeze, revoked execute bits, the quarantine, SIGSTOP sweeps), the kill, the
 * census against the definition re-read, and the restore of what the levers changed (also
 * what a guard's hold puts back, {@link #undoHold}).
 */
final class EngineRun implements StopOrder.Target, StopOrder.RestoresModes {

    private final Actions actions;
    private final Supplier<Targets> rescan;
    private final StopPlan plan;
    private final boolean keepRevoked;
    private final Map<String, Integer> revoked = new LinkedHashMap<>();
    private final Map<String, Integer> restored = new LinkedHashMap<>();
    private boolean frozen;
    private boolean pidsCapped;
    private String quarantine;
    private String cgroupHeld; // the cgroup a lever holds the targets in: frozen, or the quarantine
    /** The members counted once pids.max 0 and the freeze held them: a fixed set, not read again before the kill. */
    private int heldCount = -1;
    private boolean cgroupKilled;
    private boolean censusFromCgroup;
    private int heldLowest = Integer.MAX_VALUE; // the fewest members the killed cgroup held at a census
    private long heldFellNanos;                 // when that count last fell
    private final Set<ProcessIdentity> sigkilled = new HashSet<>();
    final Set<ProcessIdentity> stoppedBySweep = new HashSet<>(); // read by StopEngine.Held
    Targets last;

    EngineRun(Actions actions, Supplier<Targets> rescan, StopPlan plan, boolean keepRevoked) {
        this.actions = actions;
        this.rescan = rescan;
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

    StopOrder.Growth growth(Lever lever) {
        return switch (lever) {
            case FREEZE_CGROUP -> lever(Action.FREEZE, () -> {
                String cgroup = plan.cgroup().orElseThrow(() -> new StopException("no cgroup holds only the targets"));
                // pids.max 0 first, then the freeze (GrowthFirst says why)
                long capped = GrowthFirst.capThenFreeze(actions, cgroup, c -> pidsCapped = c);
                frozen = true;
                cgroupHeld = cgroup;
                if (pidsCapped) {
                    heldCount = actions.members(cgroup).size();
                    return new StopOrder.Pulled(heldCount, "pids.max 0 on " + cgroup + " (no fork succeeds) and freezing it", capped);
                }
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
            // Under pids.max 0 and frozen nothing joins: the count taken then stands for the log (one
            // killed meanwhile by another hand is still counted), and reading thousands of pids again
            // would only put the kill off.
            int members = heldCount >= 0 ? heldCount : actions.members(cgroupHeld).size();
            try {
                actions.killCgroup(cgroupHeld);
                cgroupKilled = true;
                // Every member has its SIGKILL; what is left is exiting (at thousands pressing, each
                // exit waits for a CPU). Sleep while they go: a sweep here would take that CPU from them,
                // and so did reading their list every 20 ms (a cold JVM parsing 5,000 pids): the
                // kernel's populated flag says the same in a few bytes.
                long deadline = System.nanoTime() + Duration.ofSeconds(2).toNanos();
                while (actions.populated(cgroupHeld) && System.nanoTime() < deadline) pause(20);
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
            if (!held.isEmpty() && now - heldFellNanos < StopEngine.HELD_STILL.toNanos()) {
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
        for (int round = 1; round <= StopEngine.MAX_ROUNDS; round++) {
            int fresh = 0;
            for (ProcessSample p : read().members()) {
                if (moved.contains(p.identity())) continue;
                if (actions.move(into, p.identity())) fresh++;
                moved.add(p.identity());
            }
            if (fresh == 0) return moved.size();
        }
        throw new StopException("still finding targets outside the quarantine after " + StopEngine.MAX_ROUNDS + " sweeps");
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
        for (int round = 1; round <= StopEngine.MAX_ROUNDS; round++) {
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
        throw new StopException("still finding new targets after " + StopEngine.MAX_ROUNDS + " rounds");
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
