// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sandbox;

import java.time.Duration;
import java.util.List;

/**
 * What a teardown did, step by step, in the stop order: stop growth, kill, confirm zero,
 * remove. {@code remaining} is 0 only when zero was confirmed.
 */
public record TeardownReport(List<Step> steps, int remaining, Duration took) {

    /** One step: the lever used, how many processes it saw or reached, and anything odd. */
    public record Step(String lever, int count, String note) {
        @Override
        public String toString() {
            return lever + " (" + count + ")" + (note.isEmpty() ? "" : ": " + note);
        }
    }

    public boolean zeroConfirmed() {
        return remaining == 0;
    }

    public String summary() {
        StringBuilder out = new StringBuilder();
        for (Step step : steps) out.append(out.isEmpty() ? "" : "; ").append(step);
        return out + (zeroConfirmed() ? "; zero confirmed" : "; " + remaining + " left")
                + " in " + took.toMillis() + " ms";
    }
}
