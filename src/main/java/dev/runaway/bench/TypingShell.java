// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.bench;

import dev.runaway.model.ShellWords;
import dev.runaway.sandbox.Sandbox;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A shell waiting for a typed command, as in a person's terminal: started before the fire's
 * decision, so the command starts as a fork and exec of a warm shell. Spawned from this JVM at
 * the decision instead (jspawnhelper, then runaway-sandbox enter), the command line's stop
 * waited 3-6 s for its own start in 2 of 5 trials at 5,000 pressing, and an xdotool 3.7-10.9 s:
 * the bench's time, not the stop's.
 */
final class TypingShell implements AutoCloseable {
    private final Process shell;
    private final Writer typed;
    /** What the shell says, a line at a time, read by a thread of its own (a wait for it may run out). */
    private final BlockingQueue<String> said = new LinkedBlockingQueue<>();

    private TypingShell(Process shell) {
        this.shell = shell;
        this.typed = new java.io.OutputStreamWriter(shell.getOutputStream(), StandardCharsets.UTF_8);
        Thread reader = new Thread(() -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(shell.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = lines.readLine()) != null; ) said.add(line);
            } catch (IOException ended) {
                // the shell is gone: no more lines
            }
        }, "runaway-bench-shell-output");
        reader.setDaemon(true);
        reader.start();
    }

    /** A bash in {@code tools}, at the real-time policy (inherited by what it starts) when {@code realtime}. */
    static TypingShell start(Sandbox tools, boolean realtime) throws IOException {
        ProcessBuilder bash = new ProcessBuilder("bash", "--norc", "--noprofile").redirectError(ProcessBuilder.Redirect.DISCARD);
        try (var raised = realtime ? dev.runaway.sys.Sched.raisedWithChildren() : null) {
            return new TypingShell(tools.start(bash));
        }
    }

    /**
     * Types {@code command} (with {@code env} set for it), its output and errors into files; returns
     * its pid once the shell has started it.
     */
    long type(List<String> command, Map<String, String> env, Path out, Path err) throws IOException, InterruptedException {
        StringBuilder line = new StringBuilder();
        env.forEach((k, v) -> line.append(k).append('=').append(ShellWords.quoteOnOneLine(v)).append(' '));
        for (String word : command) line.append(ShellWords.quoteOnOneLine(word)).append(' ');
        line.append('>').append(ShellWords.quoteOnOneLine(out.toString())).append(" 2>").append(ShellWords.quoteOnOneLine(err.toString()));
        line.append(" & echo $!; wait $!; echo \"status $?\"\n");
        typed.write(line.toString());
        typed.flush();
        String pid = said.poll(60, TimeUnit.SECONDS);
        if (pid == null || !pid.matches("\\d{1,9}")) throw new IOException("the shell did not start the command: " + pid);
        return Long.parseLong(pid);
    }

    /** The typed command's exit status once it ended, or empty when it did not end within {@code millis}. */
    OptionalInt awaitEnd(long millis) throws IOException, InterruptedException {
        String status = said.poll(millis, TimeUnit.MILLISECONDS);
        if (status == null) return OptionalInt.empty();
        if (!status.startsWith("status ")) throw new IOException("the shell said something else: " + status);
        return OptionalInt.of(Integer.parseInt(status.substring("status ".length()).trim()));
    }

    @Override
    public void close() throws IOException, InterruptedException {
        typed.close(); // end of input: the shell exits once what it runs has ended (the sandbox's teardown takes the rest)
        if (!shell.waitFor(10, TimeUnit.SECONDS)) shell.destroyForcibly();
    }
}
