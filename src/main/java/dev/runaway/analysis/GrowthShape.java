// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.analysis;

import java.util.Locale;

/** How a count changes over the recent window. */
public enum GrowthShape {
    LINEAR, EXPONENTIAL, STEADY, SHRINKING, UNKNOWN;

    public String json() {
        return name().toLowerCase(Locale.ROOT);
    }
}
