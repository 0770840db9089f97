// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.export;

import java.util.Locale;

/** Durations and counts written for people in charts and reports. */
final class Words {
    private Words() {
    }

    /** {@code 0.11 s}, {@code 5.5 s}, {@code 12 min 5 s}, {@code 3 h 52 min}, {@code 1 day 20 h}. */
    static String duration(double seconds) {
        if (Double.isNaN(seconds)) return "?";
        double s = Math.abs(seconds);
        String sign = seconds < 0 ? "-" : "";
        if (s < 1) return sign + String.format(Locale.ROOT, "%.2f s", s);
        if (s < 60) return sign + String.format(Locale.ROOT, "%.1f s", s);
        long whole = Math.round(s);
        if (whole < 3600) return sign + two(whole / 60, "min", whole % 60, "s");
        if (whole < 86400) return sign + two(whole / 3600, "h", whole % 3600 / 60, "min");
        long days = whole / 86400;
        return sign + two(days, days == 1 ? "day" : "days", whole % 86400 / 3600, "h");
    }

    private static String two(long a, String unitA, long b, String unitB) {
        return b == 0 ? a + " " + unitA : a + " " + unitA + " " + b + " " + unitB;
    }

    static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    static String rate(double perSecond, String unit) {
        return String.format(Locale.ROOT, "%+,.1f %s/s", perSecond, unit);
    }

    /** The last path element of a command key's first word: chart labels stay short. */
    static String shortName(String command) {
        String first = command.split(" ")[0];
        int slash = first.lastIndexOf('/');
        return slash >= 0 && slash < first.length() - 1 ? command.substring(slash + 1) : command;
    }

    static String plural(long n, String one, String many) {
        return count(n) + " " + (n == 1 ? one : many);
    }
}
