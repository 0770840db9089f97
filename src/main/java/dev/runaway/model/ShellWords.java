// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.model;

import java.nio.charset.StandardCharsets;

/**
 * Commands suggested to a person ({@code runaway guard --release KEY}) carry keys that are their
 * owners' choice: a quote, a backtick or {@code $(...)} in one, pasted unquoted, runs as the
 * person who pastes it (often root). Every suggested command is written here, each word quoted
 * for POSIX sh so that the shell reads back exactly that word as one argument.
 *
 * <p>Printable text goes in single quotes, a quote in it as {@code '\''} ({@code 'it'\''s'}).
 * Characters that must not reach a terminal raw ({@link SafeText#unsafe}) are written as
 * {@code "$(printf '\033')"}, octal escapes of their UTF-8 bytes, so the suggestion stays one
 * printable line. A command substitution drops the newlines its output ends with, so a run that
 * ends in a newline takes the character after it into the same printf; newlines that end the
 * word have no character after them and no other POSIX form, and are the one raw control the
 * quoted word may hold (inside single quotes).
 */
public final class ShellWords {
    private ShellWords() {
    }

    /** One word for POSIX sh that the shell reads back as exactly {@code s}, quoted even when plain ({@code '/tmp/a.sh'}). */
    public static String quote(String s) {
        if (s.isEmpty()) return "''";
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == '\n') end--;
        StringBuilder b = new StringBuilder(s.length() + 16);
        int i = 0;
        while (i < end) {
            int from = i;
            if (!SafeText.unsafe(s.charAt(i))) {
                while (i < end && !SafeText.unsafe(s.charAt(i))) i++;
                b.append('\'').append(s.substring(from, i).replace("'", "'\\''")).append('\'');
                continue;
            }
            while (i < end && SafeText.unsafe(s.charAt(i))) i++;
            // A run that ends in a newline inside the word (end is past the trailing ones) keeps the next character with it.
            if (s.charAt(i - 1) == '\n') i += Character.isHighSurrogate(s.charAt(i)) && i + 1 < end ? 2 : 1;
            b.append("\"$(printf '").append(octal(s.substring(from, i))).append("')\"");
        }
        if (end < s.length()) b.append('\'').append(s, end, s.length()).append('\'');
        return b.toString();
    }

    /**
     * {@link #quote} for a face of one line per entry (a log line, a row of a screen): the one
     * word that spans lines, a key ending in a newline, is shown escaped by {@link SafeText#terminal}
     * instead, readable but not to be pasted.
     */
    public static String quoteOnOneLine(String s) {
        String word = quote(s);
        return word.indexOf('\n') < 0 ? word : SafeText.terminal(word);
    }

    private static String octal(String s) {
        StringBuilder b = new StringBuilder();
        for (byte x : s.getBytes(StandardCharsets.UTF_8)) b.append('\\').append(String.format("%03o", x & 0xff));
        return b.toString();
    }
}
