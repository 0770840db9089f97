// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.timeline;

import dev.runaway.stoporder.StopStep;

import java.time.Instant;
import java.util.Optional;

/**
 * A marked moment on the timeline's axis.
 *
 * @param seconds since the timeline started (negative for history from before it)
 * @param title   short words for a chart label: "oom-kill tailscaled", "revoke-exec"
 * @param detail  the longer story: the lever and why, the kernel's line, the cycle
 * @param count   how many processes it concerns (killed, reparented, in the step); -1 unknown
 * @param pid     the one process concerned, or -1
 * @param command the command (or the cgroup's unit for an oomd kill), or ""
 * @param millis  how long it took (stop steps), or -1
 * @param step    for a stop step: its phase, action and result, which charts and summaries decide on
 *                (the title and detail are their words for a person); empty for other kinds
 */
public record TimelineEvent(double seconds, Instant time, EventKind kind, String title, String detail, long count,
                            int pid, String command, long millis, Optional<Step> step) {

    /** What a stop step was, as types. */
    public record Step(StopStep.Phase phase, StopStep.Action action, StopStep.Result result) {
    }

    /** An event that is not a stop step. */
    public TimelineEvent(double seconds, Instant time, EventKind kind, String title, String detail, long count,
                         int pid, String command, long millis) {
        this(seconds, time, kind, title, detail, count, pid, command, millis, Optional.empty());
    }

    /** Whether this is a stop step of {@code phase}. */
    public boolean isStep(StopStep.Phase phase) {
        return step.isPresent() && step.get().phase() == phase;
    }
}
