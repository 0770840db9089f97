// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.timeline.oom;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * The journal, through journalctl. The matches select the three writers an OOM event can come
 * from: the kernel ({@code _TRANSPORT=kernel}), systemd-oomd, and the systemd managers that log
 * each oomd kill's count ({@code +} between matches means "or").
 */
final class Journal {
    static final String COMMAND = "journalctl";
    static final List<String> KERNEL = List.of("_TRANSPORT=kernel");
    static final List<String> OOMD = List.of("SYSLOG_IDENTIFIER=systemd-oomd", "+", "SYSLOG_IDENTIFIER=systemd");
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(10);

    /** Whether the journal has entries, and if not why, in journalctl's own words where it gave some. */
    record Presence(boolean hasEntries, String why) {
    }

    private Journal() {
    }

    static List<String> matches(boolean kernel, boolean oomd) {
        List<String> matches = new ArrayList<>();
        if (kernel) matches.addAll(KERNEL);
        if (kernel && oomd) matches.add("+");
        if (oomd) matches.addAll(OOMD);
        return matches;
    }

    /** {@code journalctl -f}: new entries only, one JSON object a line. */
    static List<String> followCommand(List<String> matches) {
        List<String> command = new ArrayList<>(List.of(COMMAND, "--no-pager", "--follow", "--lines=0", "--output=json",
                "--output-fields=" + JournalJson.OUTPUT_FIELDS));
        command.addAll(matches);
        return command;
    }

    /** Entries from {@code since} to {@code until} (whole seconds, widened outwards). */
    static List<String> rangeCommand(Instant since, Instant until, List<String> matches) {
        List<String> command = new ArrayList<>(List.of(COMMAND, "--no-pager", "--output=json",
                "--output-fields=" + JournalJson.OUTPUT_FIELDS,
                "--since=@" + since.getEpochSecond(), "--until=@" + (until.getEpochSecond() + 1)));
        command.addAll(matches);
        return command;
    }

    /**
     * Asks journalctl for the last entry. With no journal files (no systemd running, as on the
     * machine this was written on) it prints "No journal files were found." and exits 0.
     */
    static Presence probe(Launcher launcher) {
        List<String> out = new ArrayList<>();
        try {
            Ended ended = run(launcher, List.of(COMMAND, "--no-pager", "--lines=1", "--output=short"), PROBE_TIMEOUT, out::add);
            boolean entries = out.stream().anyMatch(l -> !l.isBlank() && !l.startsWith("-- "));
            if (ended.status() == 0 && entries) return new Presence(true, "");
            if (ended.status() != 0) {
                return new Presence(false, "journalctl exited with " + ended.status() + (ended.said().isEmpty() ? "" : ": " + ended.said()));
            }
            return new Presence(false, ended.said().isEmpty() ? "the journal has no entries" : ended.said());
        } catch (IOException e) {
            return new Presence(false, "journalctl cannot run: " + e.getMessage());
        }
    }

    /** How a journalctl that ends by itself ended: its status and what it said on stderr. */
    record Ended(int status, String said) {
    }

    /** Runs a journalctl that ends by itself, feeding its output lines to {@code lines}; stopped after {@code timeout}. */
    static Ended run(Launcher launcher, List<String> command, Duration timeout, Consumer<String> lines) throws IOException {
        Process process = launcher.start(new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))));
        AtomicBoolean timedOut = new AtomicBoolean();
        CompletableFuture.delayedExecutor(timeout.toMillis(), TimeUnit.MILLISECONDS).execute(() -> {
            if (process.isAlive()) {
                timedOut.set(true);
                stop(process);
            }
        });
        try (BufferedReader out = reader(process.getInputStream()); BufferedReader err = reader(process.getErrorStream())) {
            for (String line = out.readLine(); line != null; line = out.readLine()) lines.accept(line);
            // stderr is read after stdout: journalctl writes a line or two there, far below a pipe's 64 KiB
            String said = err.lines().filter(l -> !l.isBlank()).map(String::trim).collect(Collectors.joining(" "));
            int status = process.waitFor();
            if (timedOut.get()) throw new IOException("journalctl did not end within " + timeout.toSeconds() + " s");
            return new Ended(status, said);
        } catch (InterruptedException e) {
            stop(process);
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while reading the journal", e);
        }
    }

    private static BufferedReader reader(InputStream stream) {
        return new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8));
    }

    /** Ends a journalctl child: SIGTERM, then SIGKILL after a second; only this process, by its handle. */
    static void stop(Process process) {
        process.destroy();
        try {
            if (!process.waitFor(1, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(1, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
