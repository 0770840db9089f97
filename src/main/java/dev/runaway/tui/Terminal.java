// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.tui;

import dev.runaway.sys.Tty;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * The controlling terminal in raw mode (keys arrive one at a time, no echo), restored on close
 * and by a shutdown hook if the JVM ends another way (Ctrl-C). The mode is set through termios
 * ({@link Tty}), never by running {@code stty}: at a task cap no process can start, and a view
 * opened before the fire must still give the terminal back.
 */
final class Terminal implements AutoCloseable {
    static final String TTY = "/dev/tty";
    /** When the terminal cannot tell its size. */
    static final int[] FALLBACK_SIZE = {40, 120};

    private final Tty tty;
    private final InputStream input;
    private final Keys keys;
    private final Thread restoreHook;

    private Terminal(Tty tty) throws IOException {
        this.tty = tty;
        this.input = new FileInputStream(TTY);
        this.keys = new Keys(input);
        this.restoreHook = new Thread(this::restore, "runaway-terminal-restore");
        Runtime.getRuntime().addShutdownHook(restoreHook);
    }

    static Terminal raw() throws IOException {
        Tty tty = Tty.open(TTY);
        try {
            tty.raw();
        } catch (IOException e) {
            tty.close();
            throw e;
        }
        System.out.print("\033[?1049h\033[?25l"); // an alternate screen, cursor hidden, as top does
        System.out.flush();
        return new Terminal(tty);
    }

    /** {rows, columns} now (it follows a resized window), or 40x120 when the terminal cannot tell. */
    int[] size() {
        int[] size = tty.size();
        return size.length == 2 ? size : FALLBACK_SIZE;
    }

    Keys keys() {
        return keys;
    }

    private void restore() {
        System.out.print("\033[?25h\033[?1049l");
        System.out.flush();
        try {
            tty.restore();
        } catch (IOException e) {
            System.err.println("runaway: could not restore the terminal (" + e.getMessage() + "); type: stty sane");
        }
    }

    @Override
    public void close() throws IOException {
        try {
            Runtime.getRuntime().removeShutdownHook(restoreHook);
        } catch (IllegalStateException shuttingDown) {
            return; // the hook runs restore
        }
        restore();
        input.close();
        tty.close();
    }
}
