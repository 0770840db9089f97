// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop;

import dev.runaway.stop.plan.Lever;
import dev.runaway.stop.plan.LeverCheck;
import dev.runaway.stop.plan.Privilege;
import dev.runaway.stop.plan.StopPlan;
import dev.runaway.stop.run.StopEngine;
import dev.runaway.stoporder.StopOutcome;
import dev.runaway.stoporder.StopStep;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What cgroup.kill leaves alive is killed by pid: on kernel 6.18 it signals only the leader of
 * a process whose main thread ended while others run, and the process lives on in the frozen
 * cgroup (STACK-NOTES "Zombie leaders"). The engine's census goes by the cgroup's count while it
 * falls; once it stops falling, the members are read and each is killed by pid.
 */
class StopEngineLeaderExitedTest {

    @Test
    void membersTheCgroupKillLeavesAreKilledByPidAndZeroIsConfirmed() {
        StopEngineDecisionsTest.FakeMachine m = new StopEngineDecisionsTest.FakeMachine();
        for (int i = 0; i < 6; i++) m.spawn(100 + i, i == 0 ? 1 : 100);
        m.leadersExited.addAll(List.of(101, 104));
        Map<Lever, LeverCheck> checks = new EnumMap<>(Lever.class);
        for (Lever l : Lever.values()) checks.put(l, new LeverCheck(l, LeverCheck.Feasible.AS_YOU, "test"));
        StopPlan plan = new StopPlan(m.rescan(List.of()).get(), checks, List.of(Lever.FREEZE_CGROUP, Lever.SIGSTOP_SWEEP),
                List.of("/tmp/t/tool"), new Privilege(true, 0, Privilege.Helper.NONE), 0);
        List<StopStep> live = new ArrayList<>();
        StopEngine.Outcome o = new StopEngine(m, m.rescan(List.of()), live::add, Duration.ofMillis(60), Duration.ofSeconds(5))
                .run(plan, false);
        assertThat(o.status()).as("%s", o.steps()).isEqualTo(StopOutcome.Status.ZERO_CONFIRMED);
        assertThat(m.did).containsSubsequence("freeze", "cgroup.kill", "signal 9 101", "thaw").contains("signal 9 104");
        assertThat(m.alive).isEmpty();
        assertThat(o.steps()).as("the journal says so").anyMatch(s -> s.action() == StopStep.Action.SIGKILL && s.count() == 2
                && s.note().equals("alive after cgroup.kill: killed by pid"));
    }
}
