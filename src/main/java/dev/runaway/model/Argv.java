// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.model;

import java.util.ArrayList;
import java.util.List;

/**
 * How much of a command line is kept in memory. Any user's argv may be tens of kilobytes (one
 * argument up to 128 KiB; /proc reads give up to 64 KiB), and the guard and the exporter keep
 * one per interpreter-named process for as long as it lives: 50,000 such processes would pin
 * gigabytes in a JVM of 512 MiB. What a key needs is near the start: the interpreter, its
 * options, the script (a path, at most PATH_MAX), a module or a main class.
 *
 * <p>So an argument longer than {@link #ARG_CHARS} keeps its first {@link #ARG_CHARS} characters
 * and ends in {@code "…#"} and 12 hex digits of a hash of the whole argument (two long arguments
 * with the same start stay two); once a line has kept {@link #KEPT_CHARS}, the arguments after
 * are dropped, and the line ends in one element that starts with a NUL, which no real argument
 * holds ({@link #isCut}). A line of ordinary length is kept as it is, the same list.
 */
public final class Argv {
    /** The longest argument kept whole: PATH_MAX, so a script's path is never cut. */
    public static final int ARG_CHARS = 4096;
    /** A command line keeps at most about this many characters (its last kept argument may end past it). */
    public static final int KEPT_CHARS = 8192;
    /**
     * What a command line keeps once the table's budget for long ones is spent: the interpreter,
     * its options and a script path of ordinary length still fit.
     */
    public static final int FLOOR_CHARS = 512;
    /** An argument cut short by the room left is cut no shorter than this; with less room the rest is dropped. */
    private static final int LEAST_ROOM = 64;
    private static final int HASH_HEX = 12;
    private static final String DROPPED = "\0";

    private Argv() {
    }

    /** ARGS kept to at most about KEPT characters (see the class comment); ARGS itself when it fits. */
    public static List<String> bounded(List<String> args, int keptChars) {
        boolean fits = true;
        int total = 0;
        for (String a : args) {
            total += a.length();
            fits &= a.length() <= ARG_CHARS;
        }
        if (fits && total <= keptChars) return args;
        List<String> out = new ArrayList<>();
        int kept = 0;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            int room = keptChars - kept;
            int limit = Math.min(ARG_CHARS, room);
            if (a.length() <= limit) {
                out.add(a);
                kept += a.length();
                continue;
            }
            if (limit < LEAST_ROOM) {
                out.add(DROPPED + (args.size() - i) + " arguments not kept");
                break;
            }
            String cut = cut(a, limit);
            out.add(cut);
            kept += cut.length();
        }
        return List.copyOf(out);
    }

    /** Whether arguments were dropped from the end of this line (the key cannot be told from what is left). */
    public static boolean isCut(List<String> args) {
        return !args.isEmpty() && args.get(args.size() - 1).startsWith(DROPPED);
    }

    /** The line without the element that says arguments were dropped. */
    public static List<String> kept(List<String> args) {
        return isCut(args) ? args.subList(0, args.size() - 1) : args;
    }

    /** The characters a line holds (its heap is about this, or twice this beyond Latin-1). */
    public static long chars(List<String> args) {
        long n = 0;
        for (int i = 0; i < args.size(); i++) n += args.get(i).length();
        return n;
    }

    private static String cut(String a, int limit) {
        int end = Character.isHighSurrogate(a.charAt(limit - 1)) ? limit - 1 : limit; // never split a pair
        return a.substring(0, end) + "…#" + hash(a);
    }

    private static String hash(String value) {
        return dev.runaway.model.ShortHash.of(value, HASH_HEX);
    }
}
