// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.timeline.oom;

import dev.runaway.sys.Clocks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

/**
 * Turns kmsg's microseconds since boot into wall time. The kernel stamps records with its
 * local clock, which (like CLOCK_MONOTONIC, and unlike /proc/uptime) stops during suspend, so
 * the boot instant is measured as CLOCK_REALTIME minus CLOCK_MONOTONIC. {@code btime} in
 * /proc/stat is the fallback: whole seconds, and counted with suspend (so late records of a
 * machine that slept read late, as {@code dmesg -T} does).
 *
 * @param boot the wall-clock instant the kernel's record clock started from
 */
public record BootClock(Instant boot) {

    /** The boot instant of this machine: measured from the two clocks, else btime. */
    public static BootClock detect() {
        return measure().or(() -> fromProcStat(Path.of("/proc/stat"))).orElse(new BootClock(Instant.EPOCH));
    }

    /** CLOCK_REALTIME minus CLOCK_MONOTONIC, read back to back. */
    public static Optional<BootClock> measure() {
        try {
            return Optional.of(new BootClock(Instant.ofEpochSecond(0, Clocks.realMinusMonotonicNanos())));
        } catch (UnsatisfiedLinkError | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** The {@code btime} line of a /proc/stat file (a parameter so tests can give their own). */
    public static Optional<BootClock> fromProcStat(Path procStat) {
        try {
            for (String line : Files.readAllLines(procStat)) {
                if (line.startsWith("btime ")) return Optional.of(new BootClock(Instant.ofEpochSecond(Long.parseLong(line.substring(6).trim()))));
            }
        } catch (IOException | NumberFormatException e) {
            // no such file or no number: no boot time from here
        }
        return Optional.empty();
    }

    public Instant wallTime(long microsSinceBoot) {
        return boot.plusNanos(microsSinceBoot * 1_000L);
    }
}
