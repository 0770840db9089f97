// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.model;

/**
 * Text from processes (names, command lines, paths) is whatever their owner chose, control
 * characters included: raw, an escape sequence rewrites the terminal, and a control character
 * makes an SVG or HTML export invalid XML. Every place that shows such text to a terminal or
 * writes it into markup goes through here.
 */
public final class SafeText {
    private SafeText() {
    }

    /**
     * For a terminal or a log line: C0 controls (newline and CR included: one line stays one
     * line), DEL and C1 controls as \xNN, the characters that reorder or break lines without
     * being controls (bidi overrides and isolates, line and paragraph separators) as backslash-u
     * and 4 hex digits, a backslash doubled (so the escaped text reads back unambiguously), the
     * rest as is.
     */
    public static String terminal(String s) {
        if (s == null) return "";
        StringBuilder b = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!unsafe(c) && c != '\\') {
                if (b != null) b.append(c);
                continue;
            }
            if (b == null) b = new StringBuilder(s.length() + 8).append(s, 0, i);
            if (c == '\\') b.append("\\\\");
            else if (c <= 0x9f) b.append(String.format("\\x%02x", (int) c));
            else b.append(String.format("\\u%04x", (int) c));
        }
        return b == null ? s : b.toString();
    }

    /**
     * Whether a character must never reach a terminal raw: C0 and C1 controls, DEL, and the
     * invisible characters that reorder or break what follows them (U+200E, U+200F, U+2028,
     * U+2029, U+202A-U+202E, U+2066-U+2069). The one rule {@link #terminal} and {@link ShellWords} share.
     */
    public static boolean unsafe(char c) {
        return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0x200e || c == 0x200f || (c >= 0x2028 && c <= 0x202e)
                || (c >= 0x2066 && c <= 0x2069);
    }

    /** For a terminal, text of several lines: as {@link #terminal} line by line, newlines kept. */
    public static String lines(String s) {
        if (s == null) return "";
        StringBuilder b = new StringBuilder(s.length());
        int from = 0;
        for (int nl; (nl = s.indexOf('\n', from)) >= 0; from = nl + 1) b.append(terminal(s.substring(from, nl))).append('\n');
        return b.append(terminal(s.substring(from))).toString();
    }

    /**
     * For XML and HTML text or attribute values: the five markup characters as entities, and
     * characters XML 1.0 does not allow (controls but tab, newline and CR; lone surrogates;
     * U+FFFE, U+FFFF) as a backslash-x or backslash-u escape in plain text.
     */
    public static String markup(String s) {
        if (s == null) return "";
        StringBuilder b = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> {
                    if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                        b.append(c).append(s.charAt(++i));
                    } else if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || (c >= 0x7f && c <= 0x9f)) {
                        b.append(String.format("\\x%02x", (int) c));
                    } else if (Character.isSurrogate(c) || c == 0xfffe || c == 0xffff) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.toString();
    }
}
