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

    /** For a terminal: C0 controls, DEL and C1 controls as \xNN (a backslash doubled), the rest as is. */
    public static String terminal(String s) {
        if (s == null) return "";
        StringBuilder b = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean control = c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\\';
            if (!control) {
                if (b != null) b.append(c);
                continue;
            }
            if (b == null) b = new StringBuilder(s.length() + 8).append(s, 0, i);
            if (c == '\\') b.append("\\\\");
            else b.append(String.format("\\x%02x", (int) c));
        }
        return b == null ? s : b.toString();
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
