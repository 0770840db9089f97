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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

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
    private final BufferedReader said;
    private CompletableFuture<String> pending;

    private TypingShell(Process shell) {
        this.shell = shell;
        this.typed = new java.io.OutputStreamWriter(shell.getOutputStream(), StandardCharsets.UTF_8);
        this.said = new BufferedReader(new InputStreamReader(shell.getInputStream(), StandardCharsets.UTF_8));
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
    long type(List<String> command, Map<String, String> env, Path out, Path err) throws IOException {
        StringBuilder line = new StringBuilder();
        env.forEach((k, v) -> line.append(k).append('=').append(ShellWords.quoteOnOneLine(v)).append(' '));
        for (String word : command) line.append(ShellWords.quoteOnOneLine(word)).append(' ');
        line.append('>').append(ShellWords.quoteOnOneLine(out.toString())).append(" 2>").append(ShellWords.quoteOnOneLine(err.toString()));
        line.append(" & echo $!; wait $!; echo \"status $?\"\n");
        typed.write(line.toString());
        typed.flush();
        String pid = said.readLine();
        if (pid == null || !pid.matches("\\d{1,9}")) throw new IOException("the shell did not start the command: " + pid);
        return Long.parseLong(pid);
    }

    /** The typed command's exit status once it ended, or empty when it did not end within {@code millis}. */
    OptionalInt awaitEnd(long millis) throws IOException, InterruptedException {
        // One reader at a time: a wait that ran out leaves its read pending, and the next wait takes it over.
        if (pending == null) {
            pending = CompletableFuture.supplyAsync(() -> {
                try {
                    return said.readLine();
                } catch (IOException e) {
                    return null;
                }
            });
        }
        try {
            String status = pending.get(millis, TimeUnit.MILLISECONDS);
            pending = null;
            if (status == null || !status.startsWith("status ")) throw new IOException("the shell ended: " + status);
            return OptionalInt.of(Integer.parseInt(status.substring("status ".length()).trim()));
        } catch (TimeoutException stillRunning) {
            return OptionalInt.empty();
        } catch (java.util.concurrent.ExecutionException e) {
            pending = null;
            throw new IOException(e.getCause());
        }
    }

    @Override
    public void close() throws IOException, InterruptedException {
        typed.close(); // end of input: the shell exits once what it runs has ended (the sandbox's teardown takes the rest)
        if (!shell.waitFor(10, TimeUnit.SECONDS)) shell.destroyForcibly();
    }
}
