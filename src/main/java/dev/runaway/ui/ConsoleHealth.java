// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.ui;

import dev.runaway.model.Units;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;

/**
 * The status line's figures: how the sampler keeps up (scan time, pulses per second) and what
 * the console itself costs (CPU, resident memory), so a user can trust what the window shows.
 */
public final class ConsoleHealth {
    private final Deque<Long> pulseNanos = new ArrayDeque<>();
    private volatile long scanNanos = -1;

    /** A pulse arrived (any thread). */
    public synchronized void pulse(long nanos) {
        pulseNanos.addLast(nanos);
        while (!pulseNanos.isEmpty() && nanos - pulseNanos.peekFirst() > 5_000_000_000L) pulseNanos.removeFirst();
    }

    public void scan(long tookNanos) {
        scanNanos = tookNanos;
    }

    /** Pulses per second over the last 5 s; 0 with fewer than two. */
    public synchronized double pulsesPerSecond() {
        if (pulseNanos.size() < 2) return 0;
        return (pulseNanos.size() - 1) / ((pulseNanos.peekLast() - pulseNanos.peekFirst()) / 1e9);
    }

    public String text() {
        String scan = scanNanos < 0 ? "-" : String.format(Locale.ROOT, "%.1f ms", scanNanos / 1e6);
        return String.format(Locale.ROOT, "scan %s · %.1f pulses/s · console CPU %s · RSS %s", scan, pulsesPerSecond(),
                cpu(), ownRss());
    }

    private static String cpu() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            double load = os.getProcessCpuLoad();
            if (load >= 0) return String.format(Locale.ROOT, "%.0f%%", load * 100 * os.getAvailableProcessors());
        }
        return "n/a";
    }

    /** Resident memory of this process from /proc/self/statm (pages * page size). */
    static String ownRss() {
        try {
            String[] f = Files.readString(Path.of("/proc/self/statm")).trim().split("\\s+");
            return Units.bytes(Long.parseLong(f[1]) * dev.runaway.sys.LibC.INSTANCE.getpagesize());
        } catch (IOException | RuntimeException e) {
            return "n/a";
        }
    }
}
