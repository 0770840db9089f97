// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.metrics;


/**
 * Label values made safe for every reader of the text formats. Command keys and cgroup paths
 * come from other users' argv and unit names: they may hold control characters, broken UTF-16
 * (a lone surrogate cannot be written as UTF-8) and be kilobytes long. The exposition writers
 * escape backslash, quote and newline; this replaces what they do not (other control
 * characters, lone surrogates) and cuts a long value to {@link #MAX_CHARS}, ending it with a
 * short hash of the whole value so that two long keys with the same start stay two series.
 */
public final class LabelValues {
    /** The longest label value written, in chars; longer ones end in "~" and 12 hex digits of a hash. */
    public static final int MAX_CHARS = 160;
    private static final int HASH_HEX = 12;

    private LabelValues() {
    }

    public static String safe(String value) {
        StringBuilder b = new StringBuilder(Math.min(value.length(), MAX_CHARS + 16));
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < value.length() && Character.isLowSurrogate(value.charAt(i + 1))) {
                b.append(c).append(value.charAt(++i));
            } else if (Character.isSurrogate(c) || Character.isISOControl(c)) {
                b.append('\uFFFD');
            } else {
                b.append(c);
            }
        }
        if (b.length() <= MAX_CHARS) return b.toString();
        int cut = MAX_CHARS - HASH_HEX - 1;
        if (Character.isLowSurrogate(b.charAt(cut))) cut--; // never split a pair
        return b.substring(0, cut) + "~" + hash(value);
    }

    private static String hash(String value) {
        return dev.runaway.model.ShortHash.of(value, HASH_HEX);
    }
}
