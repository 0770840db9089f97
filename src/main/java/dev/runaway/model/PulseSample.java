// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.model;

import java.time.Instant;
import java.util.Optional;

/**
 * The cheap, frequent look at the whole machine (10 Hz or more), taken without a process scan.
 *
 * @param tasks            tasks (threads included) in the system, from /proc/loadavg
 * @param forksSinceBoot   /proc/stat {@code processes}: every fork and clone since boot
 * @param pressure         empty where the kernel has no PSI
 * @param pidMax           kernel.pid_max
 * @param threadsMax       kernel.threads-max
 */
public record PulseSample(Instant time, long monotonicNanos, int tasks, long forksSinceBoot,
                          long memoryTotalBytes, long memoryAvailableBytes, long swapTotalBytes, long swapFreeBytes,
                          Optional<Pressure> pressure, int pidMax, int threadsMax) {

    public long memoryUsedBytes() {
        return memoryTotalBytes - memoryAvailableBytes;
    }

    public long swapUsedBytes() {
        return swapTotalBytes - swapFreeBytes;
    }
}
