// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.timeline;

import java.time.Instant;

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
 */
public record TimelineEvent(double seconds, Instant time, EventKind kind, String title, String detail, long count,
                            int pid, String command, long millis) {
}
