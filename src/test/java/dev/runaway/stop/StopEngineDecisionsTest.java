// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop;

import dev.runaway.stop.act.Actions;
import dev.runaway.stop.act.Pidfd;
import dev.runaway.stop.plan.Disposable;
import dev.runaway.stop.plan.Lever;
import dev.runaway.stop.plan.LeverCheck;
import dev.runaway.stop.plan.Planner;
import dev.runaway.stop.plan.Privilege;
import dev.runaway.stop.plan.StopPlan;
import dev.runaway.stop.run.StopEngine;
import dev.runaway.stop.target.Targets;
import dev.runaway.model.ProcessIdentity;
import dev.runaway.model.ProcessSample;
import dev.runaway.stoporder.StopOutcome;
import dev.runaway.stoporder.StopStep;
import dev.runaway.stoporder.StopStep.Action;
import dev.runaway.stoporder.StopStep.Phase;
import dev.runaway.stoporder.StopStep.Result;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The engine's decisions against a fake machine (no process is started): each lever failing in
 * turn falls back to the next, down to SIGSTOP sweeps; when every lever and signal fails the
 * survivors are listed; a member appearing during confirm is killed and the window starts
 * again; processes that cannot be followed are never reported as zero.
 */
class StopEngineDecisionsTest {
    private static final String CGROUP = "/runaway-test/app";
    private static final String TOOL = "/tmp/t/tool";

    /** A machine of processes: signals, freezes and cgroup kills act on its set; levers fail as told. */
    static final class FakeMachine implements Actions {
        final Map<Integer, ProcessSample> alive = new LinkedHashMap<>();
        final Set<Integer> stopped = new TreeSet<>();
        final EnumSet<Lever> failing = EnumSet.noneOf(Lever.class);
        boolean signalsDenied;
        final Set<Integer> deniedTo = new TreeSet<>(); // pids whose signals are refused (another user's, no helper)
        boolean frozen;
        boolean pidsCap;
        long freezeWriteMillis; // how long the write to cgroup.freeze takes (seconds, on a fire)
        final List<String> did = new ArrayList<>();
        final Map<String, Integer> modes = new LinkedHashMap<>();
        /** Processes whose main thread ended: cgroup.kill signals only that leader, and they live on. */
        final Set<Integer> leadersExited = new TreeSet<>();

        void spawn(int pid, int ppid) {
            alive.put(pid, new ProcessSample(new ProcessIdentity(pid, 1000 + pid), ppid, pid, 1, 'S', "tool", 1, 0, 0, 0,
                    List.of(TOOL), TOOL, CGROUP));
        }

        @Override
        public Pidfd.Result signal(ProcessIdentity id, int signal) throws StopException {
            if (signalsDenied || deniedTo.contains(id.pid())) throw new StopException("'SIGNAL' needs privilege and no helper is available");
            ProcessSample p = alive.get(id.pid());
            if (p == null || p.identity().startTicks() != id.startTicks()) return Pidfd.Result.GONE;
            did.add("signal " + signal + " " + id.pid());
            if (signal == 9) alive.remove(id.pid());
            if (signal == 19) stopped.add(id.pid());
            return Pidfd.Result.SENT;
        }

        @Override
        public void freeze(String cgroup, boolean frozen) throws StopException {
            if (frozen && failing.contains(Lever.FREEZE_CGROUP)) throw new StopException("cannot write cgroup.freeze: permission denied");
            did.add(frozen ? "freeze" : "thaw");
            if (frozen && freezeWriteMillis > 0) {
                try {
                    Thread.sleep(freezeWriteMillis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            this.frozen = frozen;
        }

        @Override
        public boolean capPids(String cgroup) {
            if (pidsCap) did.add("pids.max 0");
            return pidsCap;
        }

        @Override
        public boolean isFrozen(String cgroup) {
            return frozen;
        }

        @Override
        public void killCgroup(String cgroup) {
            did.add("cgroup.kill");
            alive.keySet().retainAll(leadersExited);
        }

        @Override
        public Set<Integer> members(String cgroup) {
            return new TreeSet<>(alive.keySet());
        }

        @Override
        public String quarantine(String name) throws StopException {
            if (failing.contains(Lever.QUARANTINE)) throw new StopException("'QUARANTINE' needs privilege and no helper is available");
            return "/runaway-quarantine." + name;
        }

        @Override
        public boolean move(String quarantine, ProcessIdentity id) {
            return alive.containsKey(id.pid());
        }

        @Override
        public void release(String quarantine) {
            did.add("release");
        }

        @Override
        public int revoke(String file) throws StopException {
            if (failing.contains(Lever.REVOKE_EXEC)) throw new StopException("the helper would not revoke " + file + ": not disposable");
            modes.put(file, 0644);
            did.add("revoke " + file);
            return 0755;
        }

        @Override
        public void restore(String file, int mode) {
            modes.put(file, mode);
            did.add("restore " + file);
        }

        /** The definition read afresh: every live process is a member; an extra may appear once. */
        Supplier<Targets> rescan(List<ProcessSample> unfollowed) {
            return () -> new Targets(new Selector.Command(TOOL), List.copyOf(alive.values()), Optional.of(CGROUP), "",
                    List.of(), unfollowed, Targets.Following.KEY);
        }
    }

    private static StopPlan planOf(FakeMachine m, Lever... order) {
        Map<Lever, LeverCheck> checks = new EnumMap<>(Lever.class);
        for (Lever l : Lever.values()) checks.put(l, new LeverCheck(l, LeverCheck.Feasible.AS_YOU, "test"));
        return new StopPlan(m.rescan(List.of()).get(), checks, List.of(order), List.of(TOOL),
                new Privilege(true, 0, Privilege.Helper.NONE), 0);
    }

    private static StopEngine.Outcome run(FakeMachine m, StopPlan plan, Supplier<Targets> rescan, Duration timeout) {
        List<StopStep> live = new ArrayList<>();
        StopEngine.Outcome o = new StopEngine(m, rescan, live::add, Duration.ofMillis(60), timeout).run(plan, false);
        assertThat(live).as("every step told live").isEqualTo(o.steps());
        return o;
    }

    private static FakeMachine machine(int processes) {
        FakeMachine m = new FakeMachine();
        for (int i = 0; i < processes; i++) m.spawn(100 + i, i == 0 ? 1 : 100);
        return m;
    }

    private static List<String> growth(StopEngine.Outcome o) {
        return o.steps().stream().filter(s -> s.phase() == Phase.STOP_GROWTH).map(s -> s.action() + " " + s.result()).toList();
    }

    @Test
    void theFirstLeverThatHoldsStopsGrowthAndTheCgroupIsKilledThenThawed() {
        FakeMachine m = machine(5);
        StopEngine.Outcome o = run(m, planOf(m, Lever.FREEZE_CGROUP, Lever.SIGSTOP_SWEEP), m.rescan(List.of()), Duration.ofSeconds(5));
        assertThat(o.status()).isEqualTo(StopOutcome.Status.ZERO_CONFIRMED);
        assertThat(growth(o)).containsExactly("FREEZE DONE");
        assertThat(m.did).containsSubsequence("freeze", "cgroup.kill", "thaw");
        assertThat(o.millisToGrowthStopped()).isNotNegative();
    }

    @Test
    void growthStopsWhenPidsMaxIsZeroNotWhenTheFreezeWriteReturns() {
        FakeMachine m = machine(5);
        m.pidsCap = true;
        m.freezeWriteMillis = 3000;
        StopEngine.Outcome o = run(m, planOf(m, Lever.FREEZE_CGROUP, Lever.SIGSTOP_SWEEP), m.rescan(List.of()), Duration.ofSeconds(5));
        assertThat(m.did).containsSubsequence("pids.max 0", "freeze", "cgroup.kill");
        assertThat(o.steps().get(0).millis()).as("the lever's step lasts the whole write").isGreaterThanOrEqualTo(3000);
        assertThat(o.millisToGrowthStopped()).as("no fork succeeds from pids.max 0 on").isBetween(0L, 2999L);
    }

    @Test
    void eachLeverFailingInTurnFallsBackDownToSigstopSweeps() {
        FakeMachine m = machine(6);
        m.failing.addAll(List.of(Lever.FREEZE_CGROUP, Lever.REVOKE_EXEC, Lever.QUARANTINE));
        StopEngine.Outcome o = run(m, planOf(m, Lever.FREEZE_CGROUP, Lever.REVOKE_EXEC, Lever.QUARANTINE, Lever.SIGSTOP_SWEEP),
                m.rescan(List.of()), Duration.ofSeconds(5));
        assertThat(growth(o)).containsExactly("FREEZE FAILED", "REVOKE_EXEC FAILED", "QUARANTINE FAILED", "SIGSTOP DONE");
        assertThat(o.steps().get(0).note()).contains("permission denied");
        assertThat(m.stopped).hasSize(6);
        assertThat(o.steps()).filteredOn(s -> s.phase() == Phase.KILL).extracting(StopStep::action).containsExactly(Action.SIGKILL);
        assertThat(o.zeroConfirmed()).isTrue();
        assertThat(m.did).doesNotContain("cgroup.kill", "thaw");
    }

    @Test
    void onlyTheFreezeFailingLeavesRevokeToHoldAndTheModeComesBack() {
        FakeMachine m = machine(3);
        m.failing.add(Lever.FREEZE_CGROUP);
        StopEngine.Outcome o = run(m, planOf(m, Lever.FREEZE_CGROUP, Lever.REVOKE_EXEC, Lever.SIGSTOP_SWEEP), m.rescan(List.of()),
                Duration.ofSeconds(5));
        assertThat(growth(o)).containsExactly("FREEZE FAILED", "REVOKE_EXEC DONE");
        assertThat(o.zeroConfirmed()).isTrue();
        assertThat(m.modes).containsEntry(TOOL, 0755);
        assertThat(o.restoredModes()).containsEntry(TOOL, 0755);
    }

    @Test
    void whenEveryLeverAndSignalFailsTheSurvivorsAreListed() {
        FakeMachine m = machine(4);
        m.failing.addAll(List.of(Lever.FREEZE_CGROUP, Lever.QUARANTINE));
        m.signalsDenied = true;
        StopEngine.Outcome o = run(m, planOf(m, Lever.FREEZE_CGROUP, Lever.QUARANTINE, Lever.SIGSTOP_SWEEP), m.rescan(List.of()),
                Duration.ofMillis(300));
        assertThat(growth(o)).containsExactly("FREEZE FAILED", "QUARANTINE FAILED", "SIGSTOP FAILED");
        assertThat(o.status()).isEqualTo(StopOutcome.Status.SURVIVORS);
        assertThat(o.survivors()).extracting(ProcessSample::pid).containsExactly(100, 101, 102, 103);
        assertThat(o.order().survivors()).containsExactlyInAnyOrder(100, 101, 102, 103);
        assertThat(o.millisToGrowthStopped()).isEqualTo(-1);
        assertThat(o.steps()).anyMatch(s -> s.phase() == Phase.CONFIRM_ZERO && s.result() == Result.NOT_REACHED);
    }

    @Test
    void aMemberAppearingDuringConfirmIsKilledAndTheWindowStartsAgain() {
        FakeMachine m = machine(3);
        int[] censuses = {0};
        Supplier<Targets> base = m.rescan(List.of());
        Supplier<Targets> rescan = () -> {
            // the fourth reading after the kill finds a member nobody had seen (forked before the freeze held)
            if (m.alive.isEmpty() && ++censuses[0] == 4) m.spawn(555, 1);
            return base.get();
        };
        StopEngine.Outcome o = run(m, planOf(m, Lever.SIGSTOP_SWEEP), rescan, Duration.ofSeconds(5));
        assertThat(o.steps()).anyMatch(s -> s.phase() == Phase.CONFIRM_ZERO && s.result() == Result.CAME_BACK && s.count() == 1);
        assertThat(m.did).contains("signal 9 555");
        assertThat(o.zeroConfirmed()).isTrue();
        StopStep last = o.steps().stream().filter(s -> s.phase() == Phase.CONFIRM_ZERO).reduce((a, b) -> b).orElseThrow();
        assertThat(last.result()).isEqualTo(Result.ZERO);
        assertThat(last.count()).as("only a zero confirmation counts no process").isZero();
    }

    @Test
    void processesThatCannotBeFollowedAreNeverReportedAsZero() {
        FakeMachine m = machine(2);
        ProcessSample daemon = new ProcessSample(new ProcessIdentity(900, 5000), 1, 900, 1, 'S', "tool", 1, 0, 0, 0,
                List.of(TOOL), TOOL, "/elsewhere");
        StopEngine.Outcome o = run(m, planOf(m, Lever.SIGSTOP_SWEEP), m.rescan(List.of(daemon)), Duration.ofSeconds(5));
        assertThat(o.status()).isEqualTo(StopOutcome.Status.UNCONFIRMED);
        assertThat(o.zeroConfirmed()).isFalse();
        assertThat(o.unfollowed()).extracting(ProcessSample::pid).containsExactly(900);
        assertThat(o.order().survivors()).contains(900);
        StopStep last = o.steps().stream().filter(s -> s.phase() == Phase.CONFIRM_ZERO).reduce((a, b) -> b).orElseThrow();
        assertThat(last.result()).isEqualTo(Result.UNCONFIRMED);
        assertThat(last.count()).isEqualTo(1);
    }

    @Test
    void thePlannerChecksEachLeverForThisUserBeforeChoosing() {
        FakeMachine m = machine(3);
        Targets targets = new Targets(new Selector.Command(TOOL), List.copyOf(m.alive.values()), Optional.of("/no-such-cgroup-here"),
                "the cgroup /no-such-cgroup-here holds only the targets", List.of(), List.of(), Targets.Following.KEY);
        Disposable none = new Disposable(List.of(), java.nio.file.Path.of("/nonexistent-home"));
        StopPlan alone = new Planner(none, new Privilege(false, 0, Privilege.Helper.NONE)).plan(targets);
        assertThat(alone.checks().get(Lever.FREEZE_CGROUP).feasible()).isEqualTo(LeverCheck.Feasible.NO);
        assertThat(alone.checks().get(Lever.FREEZE_CGROUP).why()).contains("cannot write");
        assertThat(alone.checks().get(Lever.QUARANTINE).feasible()).isEqualTo(LeverCheck.Feasible.NO);
        assertThat(alone.order()).containsExactly(Lever.SIGSTOP_SWEEP);

        StopPlan withHelper = new Planner(none, new Privilege(false, 0, Privilege.Helper.INSTALLED)).plan(targets);
        assertThat(withHelper.checks().get(Lever.FREEZE_CGROUP).feasible()).isEqualTo(LeverCheck.Feasible.VIA_HELPER);
        assertThat(withHelper.order()).as("your own signals first; the helper's levers only if they fail")
                .containsExactly(Lever.SIGSTOP_SWEEP, Lever.FREEZE_CGROUP, Lever.QUARANTINE);

        StopPlan running = new Planner(none, new Privilege(false, 0, Privilege.Helper.RUNNING)).plan(targets);
        assertThat(running.order()).containsExactly(Lever.FREEZE_CGROUP, Lever.QUARANTINE, Lever.SIGSTOP_SWEEP);

        StopPlan root = new Planner(none, new Privilege(true, 0, Privilege.Helper.NONE)).plan(targets);
        assertThat(root.order()).containsExactly(Lever.FREEZE_CGROUP, Lever.QUARANTINE, Lever.SIGSTOP_SWEEP);
    }

    @Test
    void thePlanWritesEachTargetsStartAsAClockTimeNotTicks(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws java.io.IOException {
        FakeMachine m = machine(2);
        java.nio.file.Path stat = dir.resolve("stat");
        java.nio.file.Files.writeString(stat, "btime 1764496800\n"); // 2025-11-30 10:00:00 UTC
        dev.runaway.procfs.StartClock utc = dev.runaway.procfs.StartClock.of(stat, java.time.ZoneOffset.UTC);
        List<String> lines = planOf(m, Lever.SIGSTOP_SWEEP).describe(utc, java.time.Instant.parse("2025-11-30T12:00:00Z"));
        // pid 100 started 1100 ticks (11 s) after boot
        assertThat(lines).contains("  pid 100 (started 10:00:11) " + TOOL);
        assertThat(String.join("\n", lines)).doesNotContain("tick");
    }
}
