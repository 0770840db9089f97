// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.runaway.sandbox.Caps;
import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import dev.runaway.testing.Alive;
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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keys that name one thing, tried as a user would: {@code runaway scan --json}, then
 * {@code runaway stop --command KEY} with the key it printed. Real processes, in sandboxes.
 */
@Tag("process")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CommandKeyStopTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static String run(Object command, int expectedStatus, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(command);
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int status = cli.execute(args);
        assertThat(status).as(err.toString() + out).isEqualTo(expectedStatus);
        return out.toString();
    }

    private static JsonNode scan() throws Exception {
        return JSON.readTree(run(new ScanCommand(), 0, "--json", "--window", "1s"));
    }

    private static List<String> commands(JsonNode scan) {
        List<String> keys = new ArrayList<>();
        scan.path("groups").forEach(g -> keys.add(g.path("command").asText()));
        return keys;
    }

    private static JsonNode stop(String key) throws Exception {
        StopCommand stop = new StopCommand();
        stop.input = new ByteArrayInputStream(new byte[0]);
        return JSON.readTree(run(stop, 0, "--command", key, "--yes", "--json"));
    }

    private static void awaitAlive(Process p, int members, Sandbox sandbox) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (sandbox.memberPids().size() < members && System.nanoTime() < deadline) Thread.sleep(20);
        assertThat(p.isAlive()).isTrue();
    }

    @Test
    void aScriptStartedFromItsFolderIsKeyedByItsAbsolutePathAndAStopTakesOnlyThatFolders(@TempDir Path dir) throws Exception {
        Path a = Files.createDirectories(dir.resolve("a"));
        Path b = Files.createDirectories(dir.resolve("b"));
        for (Path d : List.of(a, b)) Files.writeString(d.resolve("loop.sh"), "while :; do sleep 0.2; done\n");
        try (Sandbox sandbox = Sandboxes.create(SandboxSpec.of("test-keys", 20))) {
            Process inA = sandbox.start(new ProcessBuilder("bash", "loop.sh").directory(a.toFile()));
            Process inB = sandbox.start(new ProcessBuilder("bash", "loop.sh").directory(b.toFile()));
            awaitAlive(inB, 2, sandbox);

            String keyA = a.toRealPath().resolve("loop.sh").toString();
            String keyB = b.toRealPath().resolve("loop.sh").toString();
            JsonNode scan = scan();
            assertThat(commands(scan)).contains(keyA, keyB).doesNotContain("loop.sh");

            JsonNode stopped = stop(keyA);
            assertThat(stopped.path("zeroConfirmed").asBoolean()).as(stopped.toString()).isTrue();
            assertThat(inA.waitFor(10, TimeUnit.SECONDS)).as("the copy in a/ was stopped").isTrue();
            assertThat(inB.isAlive()).as("the copy in b/ was not touched").isTrue();
            List<Integer> targets = new ArrayList<>();
            stopped.path("plan").path("targets").forEach(t -> targets.add(t.path("pid").asInt(t.asInt())));
            assertThat(targets).doesNotContain((int) inB.pid());
        }
    }

    @Test
    void anInlineForkBombIsStoppedByItsCgroupsKeyWithoutTouchingAnotherInlineShell() throws Exception {
        try (Sandbox bystander = Sandboxes.create(SandboxSpec.of("test-keys-other", 5));
             Sandbox bomb = Sandboxes.create(SandboxSpec.of("test-keys-bomb", 40))) {
            Process other = bystander.start(new ProcessBuilder("bash", "-c", "while :; do sleep 0.3; done"));
            awaitAlive(other, 1, bystander);
            // "; exit 0" keeps the first shell a shell: bash execs its last command, and a first shell
            // turned into sleep would be the bomb's parent, not a member or below one.
            bomb.start(new ProcessBuilder("bash", "-c", "f() { f | f & }; f; sleep 60; exit 0"));
            Caps.awaitRefusedFork(bomb, 30);

            JsonNode scan = scan();
            String key = commands(scan).stream()
                    .filter(k -> k.startsWith("bash -c in cgroup ") && k.endsWith(bomb.id())).findFirst()
                    .orElseThrow(() -> new AssertionError("no inline-shell key for the bomb's cgroup in " + commands(scan)));
            assertThat(commands(scan)).doesNotContain("bash -c");

            JsonNode stopped = stop(key);
            assertThat(stopped.path("zeroConfirmed").asBoolean()).as(stopped.toString()).isTrue();
            // Killed shells stay in cgroup.procs as zombies until init reaps them (slowly here): the
            // bomb is gone when no member is alive, and it must be within a few seconds.
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10))
                    .untilAsserted(() -> assertThat(living(bomb.memberPids())).as("the bomb is gone").isEmpty());
            assertThat(other.isAlive()).as("the other inline shell lives on").isTrue();
            assertThat(bystander.memberPids()).contains((int) other.pid());
        }
    }

    private static List<String> living(java.util.Collection<Integer> pids) {
        List<String> alive = new ArrayList<>();
        for (int pid : pids) {
            Alive.stat(pid).ifPresent(st -> alive.add(pid + " " + st.state() + " " + st.comm()));
        }
        return alive;
    }
}
