// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop;

import dev.runaway.timeline.EventKind;
import dev.runaway.timeline.Timeline;
import dev.runaway.timeline.TimelineEvent;

/** A guided stop's step as an event on an incident's timeline. */
public final class StepEvents {
    private StepEvents() {
    }

    public static TimelineEvent of(StopEngine.Step step, String command, Timeline timeline) {
        String detail = step.lever().isEmpty() ? step.note() : step.lever() + (step.note().isEmpty() ? "" : ": " + step.note());
        return new TimelineEvent(timeline.secondsOf(step.at()), step.at(), EventKind.STOP_STEP, step.step(), detail,
                step.count(), -1, command, step.millis());
    }
}
