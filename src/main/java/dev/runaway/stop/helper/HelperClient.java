// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop.helper;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Talks to a running runaway-helper over its line protocol (docs/helper-protocol.md): one
 * request line, one reply line, each within a timeout. Kept running once started: when the
 * machine is out of pids, nothing new can be started, but a running helper still answers.
 */
public final class HelperClient implements AutoCloseable {
    /**
     * A lever is a few system calls, but on a machine on fire thousands of tasks wait for a CPU
     * (at a load of 10,000 a process waits seconds for its turn); past this the helper is stuck,
     * and the stop must say so.
     */
    public static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);
    /** Long enough to read the polkit dialog and type a password. */
    public static final Duration START_TIMEOUT = Duration.ofSeconds(120);
    private static final String GONE = "\u0000gone";
    private static final int STDERR_KEPT = 4096;

    /** An ERR reply's code (docs/helper-protocol.md); OK for a reply that is not an error. */
    public enum Code {
        OK, USAGE, REFUSED, GONE, FAILED;

        /** The code as the helper writes it; a code this side does not know counts as FAILED. */
        static Code ofWire(String word) {
            for (Code c : values()) if (c != OK && c.name().toLowerCase(java.util.Locale.ROOT).equals(word)) return c;
            return FAILED;
        }
    }

    /** One reply, parsed once here: OK with its words, or ERR with a code and text. */
    public record Reply(boolean ok, Code code, String text) {
        static Reply parse(String line) {
            if (line == null) return new Reply(false, Code.FAILED, "the helper is gone");
            if (line.equals("OK")) return new Reply(true, Code.OK, "");
            if (line.startsWith("OK ")) return new Reply(true, Code.OK, line.substring(3));
            if (line.startsWith("ERR ")) {
                String[] parts = line.substring(4).split(" ", 2);
                return new Reply(false, Code.ofWire(parts[0]), parts.length > 1 ? parts[1] : "");
            }
            return new Reply(false, Code.FAILED, "unreadable reply: " + line);
        }
    }

    /** The helper did not answer in time (it was closed): its own words say why better than its exit would. */
    static final class NoAnswer extends IOException {
        NoAnswer(String message) {
            super(message);
        }
    }

    private final Process process;
    private final Writer in;
    private final BlockingQueue<String> replies = new LinkedBlockingQueue<>();
    private final StringBuilder stderr = new StringBuilder();
    private volatile boolean broken;

    /** Wraps a started helper; its replies are read on a daemon thread so that a request can time out. */
    public HelperClient(Process process) {
        this.process = process;
        this.in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.US_ASCII);
        daemon("helper-replies", () -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.US_ASCII))) {
                for (String line; (line = out.readLine()) != null; ) replies.add(line);
            } catch (IOException ignored) {
                // the helper is gone: the marker below says so
            }
            replies.add(GONE);
        });
        daemon("helper-stderr", () -> keepStderr(process.getErrorStream()));
    }

    /**
     * Starts the helper and waits for its HELLO: a helper counts as started only once it answered
     * (pkexec may still be waiting for a password, or may have failed).
     */
    public static HelperClient start(ProcessBuilder command, Duration timeout) throws HelperUnavailable {
        Process process;
        try {
            process = command.redirectError(ProcessBuilder.Redirect.PIPE).start();
        } catch (IOException e) {
            throw new HelperUnavailable("cannot run " + command.command().get(0) + ": " + e.getMessage());
        }
        return handshake(process, command.command().get(0), timeout);
    }

    /** HELLO to a started PROGRAM (pkexec or the helper itself); its stderr must be a pipe. */
    public static HelperClient handshake(Process process, String program, Duration timeout) throws HelperUnavailable {
        HelperClient client = new HelperClient(process);
        String why;
        try {
            Reply hello = client.request("HELLO", timeout);
            if (hello.ok() && hello.text().startsWith("runaway-helper ")) return client;
            why = client.whyGone(program);
        } catch (NoAnswer e) {
            why = e.getMessage();
        } catch (IOException e) {
            why = client.whyGone(program);
        }
        client.close();
        throw new HelperUnavailable(why);
    }

    public Reply request(String line) throws IOException {
        return request(line, REQUEST_TIMEOUT);
    }

    /** Sends one line and waits for its reply; a timeout leaves the channel out of step, so it is closed. */
    public synchronized Reply request(String line, Duration timeout) throws IOException {
        if (line.indexOf('\n') >= 0) throw new IllegalArgumentException("a request is one line");
        if (broken) throw new IOException("the helper stopped answering earlier; it is closed");
        try {
            in.write(line + "\n");
            in.flush();
        } catch (IOException e) {
            broken = true;
            throw new IOException("the helper is gone (" + e.getMessage() + ")");
        }
        return Reply.parse(next(verb(line), timeout));
    }

    /**
     * Sends LINES in batches (the pipe holds about 64 KiB each way; a batch of 256 short lines
     * stays well below) and returns their replies in order: binding thousands of targets costs
     * one round trip per batch, not per target.
     */
    public synchronized List<Reply> requestAll(List<String> lines, Duration timeoutEach) throws IOException {
        List<Reply> out = new java.util.ArrayList<>(lines.size());
        for (int from = 0; from < lines.size(); from += 256) {
            List<String> batch = lines.subList(from, Math.min(lines.size(), from + 256));
            StringBuilder text = new StringBuilder();
            for (String line : batch) {
                if (line.indexOf('\n') >= 0) throw new IllegalArgumentException("a request is one line");
                text.append(line).append('\n');
            }
            try {
                in.write(text.toString());
                in.flush();
            } catch (IOException e) {
                broken = true;
                throw new IOException("the helper is gone (" + e.getMessage() + ")");
            }
            for (String line : batch) out.add(Reply.parse(next(verb(line), timeoutEach)));
        }
        return out;
    }

    private String next(String verb, Duration timeout) throws IOException {
        String reply;
        try {
            reply = replies.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            broken = true;
            throw new IOException("interrupted while waiting for the helper's answer to " + verb);
        }
        if (reply == null) {
            broken = true;
            close();
            throw new NoAnswer("the helper did not answer " + verb + " within " + timeout.toSeconds() + " s; it was closed");
        }
        if (reply.equals(GONE)) {
            broken = true;
            replies.add(GONE);
            return null;
        }
        return reply;
    }

    private static String verb(String line) {
        int space = line.indexOf(' ');
        return space < 0 ? line : line.substring(0, space);
    }

    public boolean alive() {
        return !broken && process.isAlive();
    }

    /** What the helper (or pkexec) wrote to stderr, last 4 KiB. */
    public String stderr() {
        synchronized (stderr) {
            return stderr.toString();
        }
    }

    /** Why the helper went away before answering, once it has exited (waits up to 2 s for that). */
    private String whyGone(String program) {
        try {
            process.waitFor(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Optional<Integer> exit = process.isAlive() ? Optional.empty() : Optional.of(process.exitValue());
        return PkexecFailure.describe(program.endsWith("pkexec"), exit, stderr());
    }

    private void keepStderr(InputStream err) {
        byte[] buffer = new byte[1024];
        try (err) {
            for (int n; (n = err.read(buffer)) >= 0; ) {
                synchronized (stderr) {
                    stderr.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
                    if (stderr.length() > STDERR_KEPT) stderr.delete(0, stderr.length() - STDERR_KEPT);
                }
            }
        } catch (IOException ignored) {
            // the helper is gone
        }
    }

    private static void daemon(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void close() {
        try {
            in.close();
            process.waitFor(2, TimeUnit.SECONDS);
        } catch (IOException e) {
            // already closed
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (process.isAlive()) process.destroyForcibly();
        }
    }
}
