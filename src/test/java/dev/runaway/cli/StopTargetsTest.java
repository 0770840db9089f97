// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.runaway.model.ProcessIdentity;
import dev.runaway.procfs.ProcStat;
import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import dev.runaway.testing.Alive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Target sets that hold their promise, as typed: the stop command's own shell is never a
 * target (and the plan says so), and a runaway that daemonizes (each level started through a
 * middle process that exits at once) is never a false zero when stopped by the pid of its first
 * process: it reaches a real zero, or the command names what it could not follow and exits 3.
 */
@Tag("process")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class StopTargetsTest {
    private static final Path PROC = Path.of("/proc");

    @Test
    void stopByTheShellsOwnCommandExcludesThatShellAndSaysSo() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        try (Sandbox box = Sandboxes.create(SandboxSpec.of("test-stop-own-shell", 64))) {
            // A shell reading commands from a pipe: its key is /usr/bin/bash. It runs the stop, and
            // the stop reads "no" from the same pipe: nothing is done, whatever the plan says.
            Process bystander = box.start(new ProcessBuilder("bash").redirectErrorStream(true)); // another shell: a target
            Process shell = box.start(new ProcessBuilder("bash").redirectErrorStream(true));
            ProcessIdentity bash = ProcStat.read(PROC, (int) shell.pid()).orElseThrow().identity();
            String line = String.join(" ", List.of(java, "-Xmx128m", "-XX:+UseSerialGC", "-cp", "'" + classpath + "'",
                    "-Drunaway.native.dir=" + System.getProperty("runaway.native.dir"), "dev.runaway.cli.Main",
                    "stop", "--command", "/usr/bin/bash"));
            shell.getOutputStream().write((line + "\nno\n").getBytes(StandardCharsets.UTF_8));
            shell.getOutputStream().close();
            String out = new String(shell.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(shell.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(out).contains("Stop plan for /usr/bin/bash")
                    .contains("Excluded: pid " + bash.pid() + " (bash): an ancestor of this stop (its shell or terminal)")
                    .doesNotContain("  pid " + bash.pid() + " (started")
                    .contains("not confirmed; nothing was done");
            assertThat(bystander.isAlive()).as("nothing was done").isTrue();
            bystander.getOutputStream().close();
        }
    }

    @Test
    void aDaemonizingRunawayStoppedByItsFirstPidIsNeverAFalseZero(@TempDir Path dir) throws Exception {
        // Each level starts the next through a subshell that exits at once (the next is adopted
        // before any scan sees its parent), then sleeps: what a daemonizing runaway does.
        Path script = dir.resolve("daemonize.sh");
        Files.writeString(script, "#!/bin/bash\nsleep 0.1\n( \"$0\" & )\nexec sleep 300\n");
        Files.setAttribute(script, "unix:mode", 0755);
        try (Sandbox box = Sandboxes.create(SandboxSpec.of("test-stop-daemonizing", 40))) {
            Process first = box.start(new ProcessBuilder(script.toString()).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD));
            ProcessIdentity root = ProcStat.read(PROC, (int) first.pid()).orElseThrow().identity();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (box.memberPids().size() < 10 && System.nanoTime() < deadline) Thread.sleep(50);
            assertThat(box.memberPids().size()).isGreaterThanOrEqualTo(10);

            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            StopCommand stop = new StopCommand();
            stop.input = new ByteArrayInputStream(new byte[0]);
            picocli.CommandLine cli = new picocli.CommandLine(stop);
            cli.setOut(new PrintWriter(out, true));
            cli.setErr(new PrintWriter(err, true));
            int status = cli.execute("--pid", Integer.toString(root.pid()), "--yes", "--json");
            JsonNode json = new ObjectMapper().readTree(out.toString());
            if (status == 0) {
                // Its levels are adopted and in their own sessions, but they share its cgroup and
                // run what it runs: taken by evidence, and zero means zero.
                assertThat(json.get("status").asText()).isEqualTo("ZERO_CONFIRMED");
                await().atMost(Duration.ofSeconds(10)).until(() -> box.memberPids().isEmpty());
            } else {
                assertThat(status).as(out + "\n" + err).isEqualTo(3);
                assertThat(json.get("zeroConfirmed").asBoolean()).isFalse();
                assertThat(json.get("status").asText()).isEqualTo("UNCONFIRMED");
                List<Integer> unfollowed = new ArrayList<>();
                json.get("unfollowed").forEach(n -> unfollowed.add(n.asInt()));
                assertThat(unfollowed).as("the levels it could not follow are named").isNotEmpty();
                assertThat(json.get("survivors").size()).as("exit 3 lists them").isGreaterThanOrEqualTo(unfollowed.size());
            }
            assertThat(Alive.stat(root))
                    .as("the first process itself is stopped").isEmpty();
        }
    }
}
