// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.view;

/** How alarming a figure is: the header colours it, the tests check the thresholds. */
public enum Severity {
    CALM, WATCH, CRITICAL;

    /** The style class a label of this severity carries (see console.css). */
    public String styleClass() {
        return "severity-" + name().toLowerCase(java.util.Locale.ROOT);
    }

    public static Severity of(double value, double watchFrom, double criticalFrom) {
        if (Double.isNaN(value)) return CALM;
        return value >= criticalFrom ? CRITICAL : value >= watchFrom ? WATCH : CALM;
    }

    public static Severity worst(Severity a, Severity b) {
        return a.ordinal() >= b.ordinal() ? a : b;
    }
}
