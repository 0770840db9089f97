// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sandbox;

import java.util.List;

/** Rates over a window of samples, derived from the raw samples (so a replay gets the same). */
public final class SampleRates {
    private SampleRates() {
    }

    /** Tasks per second between the newest sample and the oldest one within {@code windowSeconds}. */
    public static double tasksPerSecond(List<SandboxSample> history, double windowSeconds) {
        if (history.size() < 2) return 0;
        SandboxSample last = history.get(history.size() - 1);
        SandboxSample first = last;
        for (int i = history.size() - 2; i >= 0; i--) {
            if (last.secondsSinceStart() - history.get(i).secondsSinceStart() > windowSeconds) break;
            first = history.get(i);
        }
        double elapsed = last.secondsSinceStart() - first.secondsSinceStart();
        return elapsed <= 0 ? 0 : (last.tasks() - first.tasks()) / elapsed;
    }
}
