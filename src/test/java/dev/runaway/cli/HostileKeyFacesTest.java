// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.cli;

import dev.runaway.analysis.LiveAnalysis;
import dev.runaway.guard.Guard;
import dev.runaway.guard.GuardPolicy;
import dev.runaway.guard.GuardState;
import dev.runaway.guard.HeldGroup;
import dev.runaway.model.SafeText;
import dev.runaway.procfs.PulseReader;
import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import dev.runaway.sandbox.ShellRoundTrip;
import dev.runaway.stop.act.Actuator;
import dev.runaway.stop.plan.Disposable;
import dev.runaway.stop.StopCore;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A user names their script with an escape sequence, a newline, quotes, backticks and $() and
 * lets it recurse: the guard holds it, and its key reaches the journal, {@code guard --status},
 * {@code scan} and {@code stop}'s plan escaped (no line forged, no raw control character), and
 * the release and stop each face suggests, pasted into a real sh, hand runaway exactly the key.
 */
@Tag("process")
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class HostileKeyFacesTest {
    private static final Path PROC = Path.of("/proc");
    private static final Pattern SUGGESTED = Pattern.compile("(runaway guard --release .*?);? +stop: (runaway guard --stop .*)$");

    @Test
    void aHostileKeyReachesEveryFaceEscapedAndEverySuggestionPastesBackExactly(@TempDir Path dir) throws Exception {
        assumeTrue(new com.sun.security.auth.module.UnixSystem().getUid() == 0, "the guard holds as root");
        String before = System.getProperty("runaway.guard.dir");
        System.setProperty("runaway.guard.dir", dir.resolve("guard").toString());
        Path work = Files.createDirectories(dir.resolve("work"));
        Files.setAttribute(dir, "unix:mode", 0755);
        Files.setAttribute(work, "unix:mode", 0777);
        Path script = work.resolve(ShellRoundTrip.HOSTILE_NAME);
        // A line of itself, one level every 0.2 s, 30 levels at most: the guard's recursion rule holds it.
        Files.writeString(script, "d=${D:-0}\nsleep 0.2\n[ \"$d\" -lt 30 ] && D=$((d + 1)) bash \"$0\"\nsleep 600\n");
        Files.setAttribute(script, "unix:mode", 0755);
        String key = script.toString();
        StringWriter journal = new StringWriter();
        try (LiveAnalysis live = LiveAnalysis.live().start();
             Sandbox box = Sandboxes.create(SandboxSpec.of("test-hostile-key", 64))) {
            live.awaitLatest();
            String cgroup = cgroupOf(box.start(new ProcessBuilder("sleep", "600")).pid());
            StopCore core = new StopCore(PROC, PulseReader.live(), new Actuator(PROC, forStop -> null), Disposable.forThisUser());
            try (Guard guard = new Guard(live, core, GuardPolicy.DEFAULTS.watchingOnly(List.of(cgroup)), false, Guard.Notices.NONE,
                    new PrintWriter(journal, true)).start()) {
                box.start(new ProcessBuilder("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "/bin/bash", key)
                        .directory(work.toFile()).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD));
                await().atMost(Duration.ofSeconds(60)).until(() -> guard.status().stream().anyMatch(h -> h.key().equals(key)));

                // The journal: one line per event, each the guard's, nothing raw; its suggestions paste back.
                String log = journal.toString();
                for (String line : log.split("\n")) {
                    assertThat(line).as(log).startsWith("runaway guard: ");
                    assertNothingRaw(line);
                }
                String held = log.lines().filter(l -> l.startsWith("runaway guard: HELD ")).findFirst().orElseThrow();
                assertThat(held).contains("HELD " + SafeText.terminal(key));
                assertPastesBack(held.replaceFirst(".*Release: ", "release: "), key);

                // runaway guard --status: escaped, and its suggestions paste back.
                String status = run(new GuardCommand(), "--status");
                assertThat(status).contains("HELD " + SafeText.terminal(key));
                status.lines().forEach(HostileKeyFacesTest::assertNothingRaw);
                assertPastesBack(status.lines().filter(l -> l.startsWith("  release: ")).findFirst().orElseThrow(), key);

                // runaway scan's table and its HELD line.
                StringWriter scan = new StringWriter();
                ScanCommand.printTable(new PrintWriter(scan, true), live.awaitLatest(), Integer.MAX_VALUE, 400);
                assertThat(scan.toString()).contains("HELD " + SafeText.terminal(key) + " by the guard");
                scan.toString().lines().forEach(HostileKeyFacesTest::assertNothingRaw);

                // runaway stop's plan and steps (it also ends the runaway).
                StopCommand stop = new StopCommand();
                stop.input = new ByteArrayInputStream(new byte[0]);
                String stopped = run(stop, "--command", key, "--yes");
                assertThat(stopped).contains("Stop plan for " + SafeText.terminal(key)).contains("Zero confirmed");
                stopped.lines().forEach(HostileKeyFacesTest::assertNothingRaw);
            }
        } finally {
            if (before == null) System.clearProperty("runaway.guard.dir");
            else System.setProperty("runaway.guard.dir", before);
        }
    }

    /** "release: CMD; stop: CMD" (or with spaces): each command, through sh, gives runaway exactly KEY. */
    private static void assertPastesBack(String line, String key) throws Exception {
        Matcher m = SUGGESTED.matcher(line.replaceFirst("^ *release: ", ""));
        assertThat(m.find()).as(line).isTrue();
        assertThat(ShellRoundTrip.arguments(m.group(1), "runaway")).as(m.group(1)).containsExactly("guard", "--release", key);
        assertThat(ShellRoundTrip.arguments(m.group(2), "runaway")).as(m.group(2)).containsExactly("guard", "--stop", key);
    }

    /** No C0 or C1 control, DEL, bidi override or line separator: what a terminal acts on, or a log splits at. */
    private static void assertNothingRaw(String line) {
        assertThat(line.chars().filter(c -> c < 0x20 || (c >= 0x7f && c <= 0x9f) || (c >= 0x2028 && c <= 0x202e))).as(line).isEmpty();
    }

    private static String run(Object command, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(command);
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int status = cli.execute(args);
        assertThat(status).as(err + "\n" + out).isZero();
        return out.toString();
    }

    private static String cgroupOf(long pid) throws Exception {
        for (String line : Files.readAllLines(PROC.resolve(pid + "/cgroup"))) if (line.startsWith("0::")) return line.substring(3);
        throw new AssertionError("no v2 cgroup for " + pid);
    }
}
