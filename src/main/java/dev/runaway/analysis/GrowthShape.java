// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.analysis;

import java.util.Locale;

/** How a count changes over the recent window. */
public enum GrowthShape {
    LINEAR, EXPONENTIAL, STEADY, SHRINKING, UNKNOWN;

    /** Its name in files and JSON output (a recording's {@code growth}, the export's). */
    @com.fasterxml.jackson.annotation.JsonValue
    public String json() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The shape a file names (as {@link #json}); UNKNOWN for a name this version does not know. */
    public static GrowthShape ofJson(String json) {
        for (GrowthShape s : values()) if (s.json().equals(json)) return s;
        return UNKNOWN;
    }
}
