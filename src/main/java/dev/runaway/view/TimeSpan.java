// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.view;

/**
 * The time a chart shows, in seconds since the timeline began, and how the keyboard moves it:
 * + and - halve and double it around its middle, the arrows move it by a quarter of itself.
 * Never narrower than {@link #MIN_SECONDS}, never before 0.
 */
public record TimeSpan(double from, double to) {
    public static final double MIN_SECONDS = 1;
    public static final double ZOOM = 2;
    public static final double PAN_SHARE = 0.25;

    /** What a key does to the time shown. */
    public enum Move { ZOOM_IN, ZOOM_OUT, BACK, FORWARD }

    public double seconds() {
        return to - from;
    }

    public TimeSpan move(Move m) {
        return switch (m) {
            case ZOOM_IN -> around((from + to) / 2, Math.max(MIN_SECONDS, seconds() / ZOOM));
            case ZOOM_OUT -> around((from + to) / 2, seconds() * ZOOM);
            case BACK -> startingAt(from - seconds() * PAN_SHARE);
            case FORWARD -> startingAt(from + seconds() * PAN_SHARE);
        };
    }

    private TimeSpan around(double middle, double width) {
        return new TimeSpan(middle - width / 2, middle + width / 2).startingAt(Math.max(0, middle - width / 2));
    }

    private TimeSpan startingAt(double start) {
        double s = Math.max(0, start);
        return new TimeSpan(s, s + seconds());
    }
}
