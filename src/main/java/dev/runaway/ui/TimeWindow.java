// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.ui;

/** How much of the timeline the charts show: the newest minute, ten minutes, hour, or all of it. */
public enum TimeWindow {
    MINUTE("1 min", 60), TEN_MINUTES("10 min", 600), HOUR("1 h", 3600), ALL("all", Double.POSITIVE_INFINITY);

    private final String label;
    private final double seconds;

    TimeWindow(String label, double seconds) {
        this.label = label;
        this.seconds = seconds;
    }

    public double seconds() {
        return seconds;
    }

    /** The x range for a timeline that ends at {@code end}: the window's width back from it, never before 0. */
    public double[] range(double end) {
        double max = Math.max(end, 1);
        return new double[] {Math.max(0, max - seconds), max};
    }

    @Override
    public String toString() {
        return label;
    }
}
