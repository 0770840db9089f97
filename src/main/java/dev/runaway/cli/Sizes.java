// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.cli;

import java.util.Locale;

/** Sizes as people type them: 1500M, 2G, 512K, or plain bytes. */
final class Sizes {
    private Sizes() {
    }

    static long parse(String text) {
        String t = text.trim().toUpperCase(Locale.ROOT);
        long unit = 1;
        if (t.endsWith("B")) t = t.substring(0, t.length() - 1);
        if (t.endsWith("K")) unit = 1L << 10;
        else if (t.endsWith("M")) unit = 1L << 20;
        else if (t.endsWith("G")) unit = 1L << 30;
        if (unit > 1) t = t.substring(0, t.length() - 1);
        try {
            long n = Long.parseLong(t);
            if (n <= 0) throw new NumberFormatException();
            return n * unit;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a size (try 1500M or 2G): " + text);
        }
    }
}
