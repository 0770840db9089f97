// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.model;

import java.util.Locale;

/** How figures are written for people, the same in the terminal, the window and reports. */
public final class Units {
    private Units() {
    }

    /** Binary units, one decimal from KiB up: {@code 512 B}, {@code 15.9 MiB}, {@code 1.4 GiB}. */
    public static String bytes(long bytes) {
        if (bytes < 1024) return bytes + " B";
        String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB"};
        double value = bytes;
        int unit = -1;
        while (value >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return String.format(Locale.ROOT, "%.1f %s", value, units[unit]);
    }

    /** A rate with its sign, one decimal: {@code +32.0/s}. */
    public static String perSecond(double rate) {
        return String.format(Locale.ROOT, "%+.1f/s", rate);
    }

    /** Seconds with one decimal: {@code 12.3 s}. */
    public static String seconds(double seconds) {
        return String.format(Locale.ROOT, "%.1f s", seconds);
    }
}
