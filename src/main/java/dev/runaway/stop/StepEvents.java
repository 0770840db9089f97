// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop;

import dev.runaway.stoporder.StopStep;
import dev.runaway.timeline.EventKind;
import dev.runaway.timeline.Timeline;
import dev.runaway.timeline.TimelineEvent;

/**
 * A guided stop's step as an event on an incident's timeline: the phase, action and result travel
 * as {@link TimelineEvent.Step}; the title (the phase's words) and detail are for a person. A
 * confirm-zero event with count 0 is zero confirmed, and only that: every other confirm-zero step
 * (a member back, time out, processes not followed, a kill refused) counts at least one process,
 * so a reader decides on the phase and the count, never on the words.
 */
public final class StepEvents {
    private StepEvents() {
    }

    public static TimelineEvent of(StopStep step, String command, Timeline timeline) {
        String result = step.result() == StopStep.Result.DONE ? "" : step.result().name().toLowerCase(java.util.Locale.ROOT) + ": ";
        String detail = step.lever() + ": " + result + step.note();
        return new TimelineEvent(timeline.secondsOf(step.at()), step.at(), EventKind.STOP_STEP, step.step(), detail,
                step.count(), -1, command, step.millis(),
                java.util.Optional.of(new TimelineEvent.Step(step.phase(), step.action(), step.result())));
    }

    /** Whether it is a step of the restore phase (a thaw, modes put back, quarantine released). */
    public static boolean restores(TimelineEvent e) {
        return e.kind() == EventKind.STOP_STEP && e.isStep(StopStep.Phase.RESTORE);
    }

    /**
     * The steps a chart marks: the first of each phase, but for confirm zero the step that
     * confirmed zero (the first, when none did); in phase order of first appearance.
     */
    public static java.util.List<TimelineEvent> marked(java.util.List<TimelineEvent> events) {
        java.util.Map<StopStep.Phase, TimelineEvent> first = new java.util.LinkedHashMap<>();
        for (TimelineEvent e : events) {
            if (e.kind() != EventKind.STOP_STEP || e.step().isEmpty()) continue;
            StopStep.Phase phase = e.step().get().phase();
            TimelineEvent before = first.get(phase);
            if (before == null || (phase == StopStep.Phase.CONFIRM_ZERO && !zeroConfirmed(before))) first.put(phase, e);
        }
        return java.util.List.copyOf(first.values());
    }

    /** A marked step's label: its phase and action, "stop growth (freeze)". */
    public static String label(TimelineEvent e) {
        return e.step().map(s -> s.phase().words() + " (" + s.action().words() + ")").orElse(e.title());
    }

    /** Whether a recorded stop step says zero was confirmed. */
    public static boolean zeroConfirmed(TimelineEvent e) {
        return e.kind() == EventKind.STOP_STEP && e.isStep(StopStep.Phase.CONFIRM_ZERO) && e.count() == 0;
    }
}
