// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sandbox;

import dev.runaway.stoporder.StopOrder;
import dev.runaway.stoporder.StopOutcome;
import dev.runaway.stoporder.StopStep;
import java.time.Duration;
import java.util.List;

/**
 * What a teardown did, in the stop order ({@link StopOrder}): stop growth, kill, confirm zero,
 * remove the cgroups. {@code remaining} is 0 only when zero was confirmed.
 */
public record TeardownReport(StopOutcome outcome, int remaining, Duration took) {

    public static TeardownReport alreadyGone() {
        return new TeardownReport(new StopOutcome(StopOutcome.Status.ZERO_CONFIRMED, List.of(), List.of(), 0, 0,
                java.util.Map.of()), 0, Duration.ZERO);
    }

    public List<StopStep> steps() {
        return outcome.steps();
    }

    public boolean zeroConfirmed() {
        return outcome.zeroConfirmed();
    }

    public String summary() {
        if (outcome.steps().isEmpty()) return "already gone; zero confirmed";
        StringBuilder out = new StringBuilder();
        for (StopStep s : outcome.steps()) {
            if (s.phase() == StopStep.Phase.CONFIRM_ZERO) continue;
            out.append(out.isEmpty() ? "" : "; ").append(s.phase().words()).append(" (").append(s.count()).append("): ")
                    .append(s.action().words()).append(s.result() == StopStep.Result.FAILED ? " failed" : "");
        }
        return out + (zeroConfirmed() ? "; zero confirmed" : "; " + remaining + " left") + " in " + took.toMillis() + " ms";
    }
}
