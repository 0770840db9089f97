// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.timeline;

import java.time.Instant;

/**
 * One pulse on the timeline: the raw figures as read, and forks per second derived from the
 * previous pulse (so a replay derives the same rate).
 *
 * @param seconds        since the timeline started (monotonic clock)
 * @param pressureSome10 memory pressure "some" avg10 in percent; NaN where the kernel has no PSI
 */
public record PulsePoint(double seconds, Instant time, int tasks, long forksSinceBoot, double forksPerSecond,
                         long memoryTotalBytes, long memoryAvailableBytes, long swapTotalBytes, long swapFreeBytes,
                         double pressureSome10, double pressureFull10, int pidMax) {

    public long memoryUsedBytes() {
        return memoryTotalBytes - memoryAvailableBytes;
    }

    public long swapUsedBytes() {
        return swapTotalBytes - swapFreeBytes;
    }

    /** Forks per second between two pulses; 0 when the counter is unknown or time did not pass. */
    public static double forksPerSecond(double previousSeconds, long previousForks, double seconds, long forks) {
        double elapsed = seconds - previousSeconds;
        if (elapsed <= 0 || previousForks < 0 || forks < 0) return 0;
        return (forks - previousForks) / elapsed;
    }
}
