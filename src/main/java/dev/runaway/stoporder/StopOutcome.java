// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stoporder;

import java.util.List;
import java.util.Map;

/**
 * How a stop ended.
 *
 * @param status               zero confirmed, members left, or not confirmable
 * @param survivors            pids of members still alive at the end (and of processes that could not be followed)
 * @param steps                every step, in order
 * @param millisToGrowthStopped from the start of the order to the first lever that held; -1 when none did
 * @param millisToZero         from the start of the order to zero confirmed, less the stable window; -1 without zero
 * @param restoredModes        files whose mode was put back, with that mode
 */
public record StopOutcome(Status status, List<Integer> survivors, List<StopStep> steps, long millisToGrowthStopped,
                          long millisToZero, Map<String, Integer> restoredModes) {

    public enum Status {
        /** No member of the target definition alive for the whole stable window. */
        ZERO_CONFIRMED,
        /** Members of the definition were still alive when time ran out (listed). */
        SURVIVORS,
        /** No member seen, but some processes the definition may hold could not be followed (listed). */
        UNCONFIRMED
    }

    public boolean zeroConfirmed() {
        return status == Status.ZERO_CONFIRMED;
    }
}
