// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop;

import dev.runaway.sandbox.NativeBinaries;
import dev.runaway.sandbox.Sandbox;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The test's side of the helper protocol: one line out, one line back. The helper always runs
 * inside a sandbox the test owns, so whatever happens to it is torn down with that sandbox.
 */
final class HelperLine implements AutoCloseable {
    static final String BINARY = "runaway-helper";

    private final Process process;
    private final OutputStream requests;
    private final BufferedReader replies;

    private HelperLine(Process process) {
        this.process = process;
        this.requests = process.getOutputStream();
        this.replies = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.US_ASCII));
    }

    /** Starts the helper in BOX with its disposable roots read from CONFIG. */
    static HelperLine start(Sandbox box, Path config) throws IOException {
        Process process = box.start(new ProcessBuilder(NativeBinaries.find(BINARY).toString(), "--config", config.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT));
        return new HelperLine(process);
    }

    /**
     * Starts the helper in BOX as pkexec would for the user UID (PKEXEC_UID set): then no
     * argument configures it, and its disposable roots are the built-in ones (and the machine's
     * /etc/runaway/disposable-roots, if any).
     */
    static HelperLine startFor(Sandbox box, int uid) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(NativeBinaries.find(BINARY).toString()).redirectError(ProcessBuilder.Redirect.INHERIT);
        pb.environment().put("PKEXEC_UID", Integer.toString(uid));
        return new HelperLine(box.start(pb));
    }

    long pid() {
        return process.pid();
    }

    /** Sends one request line and returns the reply line. */
    String ask(String line) throws IOException {
        requests.write((line + "\n").getBytes(StandardCharsets.US_ASCII));
        requests.flush();
        String reply = replies.readLine();
        if (reply == null) {
            throw new IOException("the helper closed its output (alive: " + process.isAlive() + ") after: " + abbreviate(line));
        }
        return reply;
    }

    /**
     * Binds the helper to a confirmed stop: CGROUP ("-" for none) and PROCESSES (pids with their
     * start times read now). Every lever but HELLO, MEMBERS and RESTORE needs one.
     */
    void bind(String cgroup, long... pids) throws IOException {
        expectOk("BIND " + cgroup);
        for (long pid : pids) {
            long ticks = dev.runaway.procfs.ProcStat.read(Path.of("/proc"), (int) pid)
                    .orElseThrow(() -> new IOException("no process " + pid)).startTicks();
            expectOk("TARGET " + pid + " " + ticks);
        }
        expectOk("CONFIRM");
    }

    private void expectOk(String line) throws IOException {
        String reply = ask(line);
        if (!reply.startsWith("OK")) throw new IOException(line + " -> " + reply);
    }

    private static String abbreviate(String line) {
        return line.length() > 80 ? line.substring(0, 80) + "..." : line;
    }

    /** Closes stdin (the helper's cue to exit 0) and returns its exit code. */
    int finish() throws IOException, InterruptedException {
        requests.close();
        if (!process.waitFor(10, TimeUnit.SECONDS)) throw new IOException("the helper did not exit when stdin closed");
        return process.exitValue();
    }

    @Override
    public void close() {
        try {
            requests.close();
            process.waitFor(5, TimeUnit.SECONDS);
        } catch (IOException ignored) {
            // the sandbox around the helper tears it down in any case
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (process.isAlive()) process.destroyForcibly();
    }
}
