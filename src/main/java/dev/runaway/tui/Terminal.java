// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.tui;

import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * The controlling terminal in raw mode (keys arrive one at a time, no echo), restored on close
 * and by a shutdown hook if the JVM ends another way (Ctrl-C).
 */
final class Terminal implements AutoCloseable {
    private static final File TTY = new File("/dev/tty");

    private final String saved;
    private final InputStream input;
    private final Thread restoreHook;

    private Terminal(String saved) throws IOException {
        this.saved = saved;
        this.input = new FileInputStream(TTY);
        this.restoreHook = new Thread(this::restore, "runaway-terminal-restore");
        Runtime.getRuntime().addShutdownHook(restoreHook);
    }

    static Terminal raw() throws IOException, InterruptedException {
        String saved = stty("-g").trim();
        stty("-icanon", "-echo", "min", "1");
        System.out.print("\033[?1049h\033[?25l"); // an alternate screen, cursor hidden, as top does
        return new Terminal(saved);
    }

    /** {rows, columns} of the terminal, or 40x120 when it cannot tell. */
    static int[] size() {
        try {
            String[] parts = stty("size").trim().split("\\s+");
            return new int[] {Integer.parseInt(parts[0]), Integer.parseInt(parts[1])};
        } catch (IOException | InterruptedException | RuntimeException e) {
            return new int[] {40, 120};
        }
    }

    InputStream input() {
        return input;
    }

    private void restore() {
        System.out.print("\033[?25h\033[?1049l");
        System.out.flush();
        try {
            stty(saved);
        } catch (IOException | InterruptedException e) {
            System.err.println("runaway: could not restore the terminal; type: stty sane");
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
    }

    private static String stty(String... args) throws IOException, InterruptedException {
        String[] command = new String[args.length + 1];
        command[0] = "stty";
        System.arraycopy(args, 0, command, 1, args.length);
        Process p = new ProcessBuilder(command).redirectInput(TTY).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) throw new IOException("stty failed: " + out);
        return out;
    }
}
