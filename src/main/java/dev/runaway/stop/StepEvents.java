// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop;

import dev.runaway.stoporder.StopStep;
import dev.runaway.timeline.EventKind;
import dev.runaway.timeline.Timeline;
import dev.runaway.timeline.TimelineEvent;

/**
 * A guided stop's step as an event on an incident's timeline: the phase is the title, the count
 * its count. A "confirm zero" event with count 0 is zero confirmed, and only that: every other
 * confirm-zero step (a member back, time out, processes not followed, a kill refused) counts
 * at least one process, so a reader decides on the count, never on the words.
 */
public final class StepEvents {
    /** The title of confirm-zero steps. */
    public static final String CONFIRM_ZERO = StopStep.Phase.CONFIRM_ZERO.words();

    private StepEvents() {
    }

    public static TimelineEvent of(StopStep step, String command, Timeline timeline) {
        String result = step.result() == StopStep.Result.DONE ? "" : step.result().name().toLowerCase(java.util.Locale.ROOT) + ": ";
        String detail = step.lever() + ": " + result + step.note();
        return new TimelineEvent(timeline.secondsOf(step.at()), step.at(), EventKind.STOP_STEP, step.step(), detail,
                step.count(), -1, command, step.millis());
    }

    /** Whether a recorded stop step says zero was confirmed. */
    public static boolean zeroConfirmed(TimelineEvent e) {
        return e.kind() == EventKind.STOP_STEP && e.title().equals(StopStep.Phase.CONFIRM_ZERO.words()) && e.count() == 0;
    }
}
