// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.timeline.oom;

import java.time.Instant;

/**
 * One message from a log, whichever log it came from (/dev/kmsg or the journal), with who
 * wrote it. Who wrote it is taken from what the log itself vouches for (kmsg's facility 0 is
 * the kernel's alone; the journal's {@code _TRANSPORT} and {@code _COMM}), so a user's
 * {@code logger "Out of memory: Killed process 1 (init)"} is never read as a kill.
 */
public record LogLine(Instant time, Origin origin, String text) {

    public enum Origin {
        /** the kernel (its OOM killer's report) */
        KERNEL,
        /** systemd-oomd */
        OOMD,
        /** a systemd manager (PID 1 or a user's), which logs the per-unit count of an oomd kill */
        MANAGER,
        /** anyone else: never an OOM event */
        OTHER
    }
}
