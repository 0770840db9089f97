// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;

/**
 * Talks to a running runaway-helper over its line protocol (docs/helper-protocol.md): one
 * request line, one reply line. Kept running once started: when the machine is out of pids,
 * nothing new can be started, but a running helper still answers.
 */
public final class HelperClient implements AutoCloseable {
    /** One reply: OK with its words, or ERR with a code and text. */
    public record Reply(boolean ok, String code, String text) {
        static Reply parse(String line) {
            if (line == null) return new Reply(false, "failed", "the helper is gone");
            if (line.equals("OK")) return new Reply(true, "", "");
            if (line.startsWith("OK ")) return new Reply(true, "", line.substring(3));
            if (line.startsWith("ERR ")) {
                String[] parts = line.substring(4).split(" ", 2);
                return new Reply(false, parts[0], parts.length > 1 ? parts[1] : "");
            }
            return new Reply(false, "failed", "unreadable reply: " + line);
        }
    }

    private final Process process;
    private final Writer in;
    private final BufferedReader out;

    public HelperClient(Process process) {
        this.process = process;
        this.in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.US_ASCII);
        this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.US_ASCII));
    }

    public synchronized Reply request(String line) throws IOException {
        if (line.indexOf('\n') >= 0) throw new IllegalArgumentException("a request is one line");
        in.write(line + "\n");
        in.flush();
        return Reply.parse(out.readLine());
    }

    public boolean alive() {
        return process.isAlive();
    }

    @Override
    public void close() {
        try {
            in.close();
            process.waitFor(2, java.util.concurrent.TimeUnit.SECONDS);
        } catch (IOException | InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (process.isAlive()) process.destroyForcibly();
        }
    }
}
