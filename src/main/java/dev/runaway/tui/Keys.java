// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.tui;

import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Keys from a raw terminal: printable characters, Enter, Backspace, Esc, the arrows, page and
 * function keys, a mouse click or wheel, Ctrl-C. Escape sequences are matched against a table:
 * the terminal's own (terminfo, through {@link Terminal}) plus the sequences xterm, rxvt, screen,
 * tmux and the Linux console send, so a key is told even when the terminal's entry and its
 * keypad mode disagree. An Esc alone is told from the start of a sequence by waiting briefly for
 * the rest, as terminals send a sequence in one write.
 */
final class Keys {
    /**
     * One key press. {@code ch} is the character for {@link Kind#CHAR}, else 0; {@code row} and
     * {@code column} (from 0) are where a {@link Kind#CLICK} was, else -1.
     */
    record Key(Kind kind, char ch, int row, int column) {
        static Key of(Kind kind) {
            return new Key(kind, '\0', -1, -1);
        }

        static Key ch(char c) {
            return new Key(Kind.CHAR, c, -1, -1);
        }

        static Key click(int row, int column) {
            return new Key(Kind.CLICK, '\0', row, column);
        }

        boolean is(char c) {
            return kind == Kind.CHAR && ch == c;
        }
    }

    /** CLICK: the left button pressed; the wheel reads as UP and DOWN. */
    enum Kind {
        CHAR, ENTER, BACKSPACE, ESCAPE, UP, DOWN, LEFT, RIGHT, PAGE_UP, PAGE_DOWN, HOME, END,
        F1, F5, F6, F9, F10, CLICK, INTERRUPT, CLOSED
    }

    /** Characters from the terminal: the next one, -1 at the end of input, -2 when none came in time. */
    interface Source {
        int read(long millis) throws IOException, InterruptedException;
    }

    /** Mouse reports (xterm's normal and SGR encodings) start with these. */
    static final String MOUSE_X10 = "\033[M";
    static final String MOUSE_SGR = "\033[<";
    private static final long SEQUENCE_WAIT_MILLIS = 40;
    private static final long POLL_MILLIS = 10;

    private final Source in;
    private final Map<String, Kind> sequences;
    private final Set<String> prefixes = new HashSet<>();

    /** @param terminalSequences the terminal's own sequences (from its terminfo entry), over the common ones */
    Keys(Source in, Map<String, Kind> terminalSequences) {
        this.in = in;
        Map<String, Kind> all = new HashMap<>(common());
        all.putAll(terminalSequences);
        all.put(MOUSE_X10, Kind.CLICK);
        all.put(MOUSE_SGR, Kind.CLICK);
        this.sequences = Map.copyOf(all);
        for (String s : sequences.keySet()) for (int i = 1; i < s.length(); i++) prefixes.add(s.substring(0, i));
    }

    /** Keys from a stream that is polled (tests, and a terminal without a reader of its own). */
    Keys(InputStream stream) {
        this(millis -> poll(stream, millis), Map.of());
    }

    /** The sequences xterm, rxvt, screen/tmux and the Linux console send, in either keypad mode. */
    static Map<String, Kind> common() {
        Map<String, Kind> m = new HashMap<>();
        String[] letters = {"A", "B", "C", "D", "H", "F"};
        Kind[] arrows = {Kind.UP, Kind.DOWN, Kind.RIGHT, Kind.LEFT, Kind.HOME, Kind.END};
        for (int i = 0; i < letters.length; i++) {
            m.put("\033[" + letters[i], arrows[i]);
            m.put("\033O" + letters[i], arrows[i]);
        }
        m.put("\033[1~", Kind.HOME);
        m.put("\033[7~", Kind.HOME);
        m.put("\033[4~", Kind.END);
        m.put("\033[8~", Kind.END);
        m.put("\033[5~", Kind.PAGE_UP);
        m.put("\033[6~", Kind.PAGE_DOWN);
        m.put("\033OP", Kind.F1);       // xterm, screen, tmux
        m.put("\033[11~", Kind.F1);     // rxvt, PuTTY
        m.put("\033[[A", Kind.F1);      // the Linux console
        m.put("\033[15~", Kind.F5);
        m.put("\033[[E", Kind.F5);
        m.put("\033[17~", Kind.F6);
        m.put("\033[20~", Kind.F9);
        m.put("\033[21~", Kind.F10);
        return m;
    }

    /** The next key, or null when none came within {@code millis}. */
    Key next(long millis) throws IOException, InterruptedException {
        int c = in.read(millis);
        if (c == -2) return null;
        return switch (c) {
            case -1 -> Key.of(Kind.CLOSED);
            case 3 -> Key.of(Kind.INTERRUPT);
            case '\r', '\n' -> Key.of(Kind.ENTER);
            case 127, 8 -> Key.of(Kind.BACKSPACE);
            case 27 -> escape();
            default -> Key.ch((char) c);
        };
    }

    /** The longest sequence the characters after Esc complete; Esc alone when they complete none. */
    private Key escape() throws IOException, InterruptedException {
        StringBuilder seq = new StringBuilder("\033");
        while (prefixes.contains(seq.toString())) {
            int c = in.read(SEQUENCE_WAIT_MILLIS);
            if (c < 0) break;
            seq.append((char) c);
            String s = seq.toString();
            if (s.equals(MOUSE_X10)) return x10Mouse();
            if (s.equals(MOUSE_SGR)) return sgrMouse();
        }
        Kind k = sequences.get(seq.toString());
        return k == null ? Key.of(Kind.ESCAPE) : Key.of(k); // an unknown sequence is dropped as one Esc
    }

    /** ESC [ M b x y, each plus 32 (with 1005 mode, x and y are characters past 127). */
    private Key x10Mouse() throws IOException, InterruptedException {
        int b = in.read(SEQUENCE_WAIT_MILLIS);
        int x = in.read(SEQUENCE_WAIT_MILLIS);
        int y = in.read(SEQUENCE_WAIT_MILLIS);
        if (b < 0 || x < 0 || y < 0) return Key.of(Kind.ESCAPE);
        return mouse(b - 32, x - 33, y - 33, false);
    }

    /** ESC [ < b ; x ; y M (pressed) or m (released), numbers in decimal, x and y from 1. */
    private Key sgrMouse() throws IOException, InterruptedException {
        int[] n = new int[3];
        int at = 0;
        while (true) {
            int c = in.read(SEQUENCE_WAIT_MILLIS);
            if (c < 0) return Key.of(Kind.ESCAPE);
            if (c >= '0' && c <= '9') n[at] = n[at] * 10 + c - '0';
            else if (c == ';' && at < 2) at++;
            else if ((c == 'M' || c == 'm') && at == 2) return mouse(n[0], n[1] - 1, n[2] - 1, c == 'm');
            else return Key.of(Kind.ESCAPE);
        }
    }

    /** The left button pressed is a click; the wheel scrolls; releases, motion and other buttons are nothing (null). */
    private Key mouse(int button, int column, int row, boolean released) throws IOException, InterruptedException {
        if ((button & 64) != 0) return Key.of((button & 1) == 0 ? Kind.UP : Kind.DOWN);
        if (released || (button & 32) != 0 || (button & 3) != 0) return next(0);
        return Key.click(row, column);
    }

    private static int poll(InputStream stream, long millis) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + millis * 1_000_000;
        while (true) {
            if (stream.available() > 0) return stream.read();
            if (System.nanoTime() >= deadline) return -2;
            Thread.sleep(POLL_MILLIS);
        }
    }
}
