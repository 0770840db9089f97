package dev.runaway.tui;

import java.io.IOException;
import java.io.InputStream;

/**
 * Keys from a raw terminal: printable characters, Enter, Backspace, Esc, the arrows and page
 * keys (their escape sequences decoded), Ctrl-C. An Esc alone is told from the start of a
 * sequence by waiting briefly for the rest, as terminals send a sequence in one write.
 */
final class Keys {
    /** One key press. {@code ch} is the character for {@link Kind#CHAR}, else 0. */
    record Key(Kind kind, char ch) {
        static Key of(Kind kind) {
            return new Key(kind, '\0');
        }

        static Key ch(char c) {
            return new Key(Kind.CHAR, c);
        }

        boolean is(char c) {
            return kind == Kind.CHAR && ch == c;
        }
    }

    enum Kind { CHAR, ENTER, BACKSPACE, ESCAPE, UP, DOWN, LEFT, RIGHT, PAGE_UP, PAGE_DOWN, HOME, END, INTERRUPT, CLOSED }

    private static final long SEQUENCE_WAIT_MILLIS = 40;
    private static final long POLL_MILLIS = 10;

    private final InputStream in;

    Keys(InputStream in) {
        this.in = in;
    }

    /** The next key, or null when none came within {@code millis}. */
    Key next(long millis) throws IOException, InterruptedException {
        int b = read(millis);
        if (b == -2) return null;
        return decode(b);
    }

    private Key decode(int b) throws IOException, InterruptedException {
        return switch (b) {
            case -1 -> Key.of(Kind.CLOSED);
            case 3 -> Key.of(Kind.INTERRUPT);
            case '\r', '\n' -> Key.of(Kind.ENTER);
            case 127, 8 -> Key.of(Kind.BACKSPACE);
            case 27 -> escape();
            default -> Key.ch((char) b);
        };
    }

    /** ESC [ A (or ESC O A) and friends; ESC alone is Esc. */
    private Key escape() throws IOException, InterruptedException {
        int b = read(SEQUENCE_WAIT_MILLIS);
        if (b != '[' && b != 'O') return Key.of(Kind.ESCAPE); // a lone Esc (a following key is dropped)
        int c = read(SEQUENCE_WAIT_MILLIS);
        switch (c) {
            case 'A': return Key.of(Kind.UP);
            case 'B': return Key.of(Kind.DOWN);
            case 'C': return Key.of(Kind.RIGHT);
            case 'D': return Key.of(Kind.LEFT);
            case 'H': return Key.of(Kind.HOME);
            case 'F': return Key.of(Kind.END);
            default: break;
        }
        if (c < '0' || c > '9') return Key.of(Kind.ESCAPE);
        int number = c - '0';
        int d;
        while ((d = read(SEQUENCE_WAIT_MILLIS)) >= '0' && d <= '9') number = number * 10 + d - '0';
        if (d != '~') return Key.of(Kind.ESCAPE);
        return switch (number) {
            case 1, 7 -> Key.of(Kind.HOME);
            case 4, 8 -> Key.of(Kind.END);
            case 5 -> Key.of(Kind.PAGE_UP);
            case 6 -> Key.of(Kind.PAGE_DOWN);
            default -> Key.of(Kind.ESCAPE);
        };
    }

    /** A byte, -1 at the end of input, -2 when none came in time. */
    private int read(long millis) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + millis * 1_000_000;
        while (true) {
            if (in.available() > 0) return in.read();
            if (System.nanoTime() >= deadline) return -2;
            Thread.sleep(POLL_MILLIS);
        }
    }
}
