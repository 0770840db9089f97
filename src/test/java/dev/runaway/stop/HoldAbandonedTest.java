// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop;

import dev.runaway.stop.plan.Lever;
import dev.runaway.stop.plan.LeverCheck;
import dev.runaway.stop.plan.Privilege;
import dev.runaway.stop.plan.StopPlan;
import dev.runaway.stop.run.StopEngine;
import dev.runaway.stop.target.Targets;
import dev.runaway.model.ProcessSample;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * A guard's hold that fails undoes itself (a fake machine, no process started): when its SIGSTOP
 * sweep gives up, after {@link StopEngine#MAX_ROUNDS} rounds that each find a new member or on a
 * process it may not signal, every process it had stopped is continued, a pids.max 0 and freeze
 * of a freeze that failed are put back, and the failure says what was undone.
 */
class HoldAbandonedTest {
    private static final String CGROUP = "/runaway-test/app";

    private static StopPlan planOf(StopEngineDecisionsTest.FakeMachine m, Optional<String> cgroup, Lever... order) {
        Map<Lever, LeverCheck> checks = new EnumMap<>(Lever.class);
        for (Lever l : Lever.values()) checks.put(l, new LeverCheck(l, LeverCheck.Feasible.AS_YOU, "test"));
        Targets t = m.rescan(List.of()).get();
        t = new Targets(t.selector(), t.members(), cgroup, "", List.of(), List.of(), Targets.Following.KEY);
        return new StopPlan(t, checks, List.of(order), List.of(), new Privilege(true, 0, Privilege.Helper.NONE), 0);
    }

    private static StopEngine engine(StopEngineDecisionsTest.FakeMachine m, Supplier<Targets> rescan) {
        return new StopEngine(m, rescan, step -> { }, Duration.ofMillis(60), Duration.ofSeconds(5));
    }

    /** Continued: every pid the sweeps stopped got a SIGCONT after its SIGSTOP. */
    private static void assertEachContinued(StopEngineDecisionsTest.FakeMachine m) {
        assertThat(m.stopped).isNotEmpty();
        for (int pid : m.stopped) {
            assertThat(m.did).as("pid " + pid + " stopped, then continued").containsSubsequence("signal 19 " + pid, "signal 18 " + pid);
        }
    }

    @Test
    void aSweepThatFindsNewMembersEveryRoundGivesUpAndContinuesAllItStopped() {
        StopEngineDecisionsTest.FakeMachine m = new StopEngineDecisionsTest.FakeMachine();
        for (int i = 0; i < 4; i++) m.spawn(100 + i, i == 0 ? 1 : 100);
        int[] next = {1000};
        Supplier<Targets> growing = () -> {
            m.spawn(next[0]++, 100); // a fork each reading: every round finds one new member
            return m.rescan(List.of()).get();
        };
        StopEngine.HoldAbandoned e = catchThrowableOfType(() -> engine(m, growing).hold(planOf(m, Optional.empty(), Lever.SIGSTOP_SWEEP)),
                StopEngine.HoldAbandoned.class);
        assertThat(e).as("the hold fails as abandoned").isNotNull();
        assertThat(e.getMessage()).contains("still finding new targets after " + StopEngine.MAX_ROUNDS + " rounds").contains("abandoned, undone");
        assertThat(m.stopped.size()).isGreaterThan(StopEngine.MAX_ROUNDS);
        assertEachContinued(m);
        assertThat(e.undone()).anyMatch(line -> line.startsWith("SIGCONT to " + m.stopped.size() + " of the " + m.stopped.size()));
    }

    @Test
    void aSweepDeniedOneProcessContinuesTheOthersItStopped() {
        StopEngineDecisionsTest.FakeMachine m = new StopEngineDecisionsTest.FakeMachine();
        for (int i = 0; i < 5; i++) m.spawn(100 + i, i == 0 ? 1 : 100);
        m.deniedTo.add(103);
        assertThatThrownBy(() -> engine(m, m.rescan(List.of())).hold(planOf(m, Optional.empty(), Lever.SIGSTOP_SWEEP)))
                .isInstanceOf(StopEngine.HoldAbandoned.class).hasMessageContaining("could not be signalled")
                .hasMessageContaining("SIGCONT to 4 of the 4 it stopped");
        assertThat(m.stopped).containsExactly(100, 101, 102, 104);
        assertEachContinued(m);
    }

    @Test
    void aFreezeThatFailedAfterPidsMaxZeroAndASweepThatFailedAreBothPutBack() {
        StopEngineDecisionsTest.FakeMachine m = new StopEngineDecisionsTest.FakeMachine();
        for (int i = 0; i < 3; i++) m.spawn(100 + i, i == 0 ? 1 : 100);
        m.pidsCap = true;
        m.failing.add(Lever.FREEZE_CGROUP);
        m.deniedTo.add(102);
        StopEngine.HoldAbandoned e = catchThrowableOfType(() -> engine(m, m.rescan(List.of()))
                .hold(planOf(m, Optional.of(CGROUP), Lever.FREEZE_CGROUP, Lever.SIGSTOP_SWEEP)), StopEngine.HoldAbandoned.class);
        assertThat(e).isNotNull();
        assertThat(e.undone()).anyMatch(line -> line.contains("pids.max of " + CGROUP + " back as it was"));
        assertEachContinued(m);
    }

    @Test
    void aHoldThatChangedNothingSaysSo() {
        StopEngineDecisionsTest.FakeMachine m = new StopEngineDecisionsTest.FakeMachine();
        for (int i = 0; i < 2; i++) m.spawn(100 + i, i == 0 ? 1 : 100);
        m.signalsDenied = true;
        assertThatThrownBy(() -> engine(m, m.rescan(List.of())).hold(planOf(m, Optional.empty(), Lever.SIGSTOP_SWEEP)))
                .isInstanceOf(StopEngine.HoldAbandoned.class).hasMessageContaining("undone: nothing had been changed");
    }
}
