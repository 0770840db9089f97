// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.export;

import dev.runaway.stoporder.StopStep;
import dev.runaway.timeline.EventKind;
import dev.runaway.timeline.Timeline;
import dev.runaway.timeline.TimelineEvent;
import org.junit.jupiter.api.Test;

import java.time.ZoneOffset;
import java.util.Optional;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The chart's stop marks and the summary's zero and restore come from a step's phase, action and
 * result, never from its words: here every title and detail is reworded.
 */
class StepMarksTest {
    private static final String KEY = "/tmp/deploy.sh";

    private static TimelineEvent step(Timeline t, double s, StopStep.Phase phase, StopStep.Action action, int count) {
        return new TimelineEvent(s, t.timeAt(s), EventKind.STOP_STEP, "Step " + s, "said otherwise: " + phase, count, -1, KEY, 10,
                Optional.of(new TimelineEvent.Step(phase, action, StopStep.Result.DONE)));
    }

    private static Timeline reworded() {
        Timeline t = new Timeline(IncidentFixtures.STARTED, 0, "reworded steps");
        for (int i = 0; i <= 40; i++) t.add(IncidentFixtures.pulse(t, i / 4.0, 500, 0, 1));
        t.add(step(t, 2, StopStep.Phase.STOP_GROWTH, StopStep.Action.PIDS_MAX_ZERO, 80));
        t.add(step(t, 2.5, StopStep.Phase.STOP_GROWTH, StopStep.Action.FREEZE, 80)); // the first of a phase is marked
        t.add(step(t, 3, StopStep.Phase.KILL, StopStep.Action.SIGKILL, 80));
        t.add(step(t, 5, StopStep.Phase.CONFIRM_ZERO, StopStep.Action.RESCAN, 2)); // members left: not yet zero
        t.add(step(t, 7, StopStep.Phase.CONFIRM_ZERO, StopStep.Action.RESCAN, 0)); // zero confirmed
        t.add(step(t, 8, StopStep.Phase.CONFIRM_ZERO, StopStep.Action.RESCAN, 1)); // after zero: not the mark
        t.add(step(t, 9, StopStep.Phase.RESTORE, StopStep.Action.THAW, 1));
        return t;
    }

    @Test
    void theMarksNameEachPhaseWithItsLeverAndZeroWhereItWasConfirmed() {
        Timeline t = reworded();
        Chart tasks = Charts.of(t, IncidentSummary.of(t), Optional.empty(), ZoneOffset.UTC, OptionalLong.empty()).stream()
                .filter(c -> c.name().equals("tasks")).findFirst().orElseThrow();
        assertThat(tasks.marks()).filteredOn(m -> m.legend().equals("guided stop step"))
                .extracting(Chart.Mark::label, Chart.Mark::seconds)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("stop growth (pids.max 0)", 2.0),
                        org.assertj.core.groups.Tuple.tuple("kill (sigkill)", 3.0),
                        org.assertj.core.groups.Tuple.tuple("confirm zero (rescan)", 7.0),
                        org.assertj.core.groups.Tuple.tuple("restore (thaw)", 9.0));
    }

    @Test
    void theSummaryFindsZeroAndTheRestoreByPhase() {
        IncidentSummary s = IncidentSummary.of(reworded());
        assertThat(s.zeroConfirmed()).isTrue();
        assertThat(s.secondsToZero()).isPresent();
        assertThat(s.restored()).containsExactly("said otherwise: RESTORE (1)");
    }
}
