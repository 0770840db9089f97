// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.tui;

import dev.runaway.sandbox.Sandbox;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A terminal for tests: a tmux server on a socket of its own, its pane started inside the
 * sandbox the test gives, and clients (send-keys, capture-pane) run from a second sandbox so
 * that they can start even when the first is at its task cap. Keys are sent and the screen
 * read as a user's terminal would show them.
 */
final class TmuxPane implements AutoCloseable {
    private final String socket;
    private final Sandbox clients;

    private TmuxPane(String socket, Sandbox clients) {
        this.socket = socket;
        this.clients = clients;
    }

    /** A {@code columns} x {@code rows} pane running {@code command} (through sh), its server in {@code inside}. */
    static TmuxPane start(Sandbox inside, Sandbox clients, int columns, int rows, String command) throws Exception {
        String socket = "runaway-test-" + ProcessHandle.current().pid() + "-" + System.nanoTime() % 1_000_000;
        Process p = inside.start(new ProcessBuilder("tmux", "-L", socket, "-f", "/dev/null", "new-session", "-d",
                "-x", Integer.toString(columns), "-y", Integer.toString(rows), command).redirectErrorStream(true));
        String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(20, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("tmux did not start (install it: apt-get install tmux): " + said);
        }
        return new TmuxPane(socket, clients);
    }

    /** Keys as tmux names them: literal text, or Enter, Escape, Down... */
    void keys(String... keys) throws Exception {
        List<String> command = new ArrayList<>(List.of("tmux", "-L", socket, "send-keys", "-t", "0"));
        command.addAll(List.of(keys));
        run(command);
    }

    /** Literal text, each character a key. */
    void type(String text) throws Exception {
        run(List.of("tmux", "-L", socket, "send-keys", "-t", "0", "-l", text));
    }

    /** Bytes as a terminal sends them (a mouse report, say), in hex through send-keys -H. */
    void raw(String bytes) throws Exception {
        List<String> command = new ArrayList<>(List.of("tmux", "-L", socket, "send-keys", "-t", "0", "-H"));
        for (byte b : bytes.getBytes(StandardCharsets.ISO_8859_1)) command.add(String.format("%02x", b));
        run(command);
    }

    String screen() throws Exception {
        return run(List.of("tmux", "-L", socket, "capture-pane", "-p", "-t", "0"));
    }

    /** The screen once it satisfies {@code test}; fails with the last screen after {@code seconds}. */
    String await(String what, Predicate<String> test, int seconds) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        String screen = screen();
        while (!test.test(screen)) {
            if (System.nanoTime() > deadline) throw new AssertionError("the pane never showed " + what + "; it shows:\n" + screen);
            Thread.sleep(200);
            screen = screen();
        }
        return screen;
    }

    private String run(List<String> command) throws Exception {
        Process p = clients.start(new ProcessBuilder(command).redirectErrorStream(true));
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(20, TimeUnit.SECONDS) || p.exitValue() != 0) throw new IOException(command + " failed: " + out);
        return out;
    }

    @Override
    public void close() {
        try {
            run(List.of("tmux", "-L", socket, "kill-server"));
        } catch (Exception e) {
            // the sandbox's teardown ends the server anyway
        }
    }
}
