// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where no session is known: a process whose session leader its PID namespace does not see
 * reads session 0 (everything a CI runner starts from an init that never called setsid, a
 * container's processes), and in a cgroup namespace every cgroup reads "/". Keys and target
 * definitions that scoped by session lost their scope there: inline code got a machine-wide key
 * and a daemonizing runaway stopped by pid was reported as zero. Run here in a PID, mount and
 * cgroup namespace (inside the test's sandbox), where both hold.
 */
@Tag("process")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SessionUnknownTest {

    @Test
    void inlineCodeIsKeyedByItsChainAndADaemonizingRunawayIsNotReportedAsZero(@TempDir Path dir) throws Exception {
        Path daemonize = dir.resolve("daemonize.sh");
        // 40 levels at most: the runaway must not take the slots the scan's and the stop's JVMs need
        // under the sandbox's cap (at 64 unbounded it did, on a loaded machine, before they started).
        Files.writeString(daemonize, "#!/bin/bash\nsleep 0.1\nlevel=${LEVEL:-0}\n"
                + "[ \"$level\" -lt 40 ] && ( LEVEL=$((level + 1)) \"$0\" & )\nexec sleep 300\n");
        Files.setAttribute(daemonize, "unix:mode", 0755);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        String main = String.join(" ", List.of("'" + java + "'", "-Xmx128m", "-XX:+UseSerialGC", "-cp", "'" + classpath + "'",
                "-Drunaway.native.dir=" + System.getProperty("runaway.native.dir"), "dev.runaway.cli.Main"));
        // Inside the namespaces this script is pid 1: what a parent leaves is adopted by it.
        Path script = dir.resolve("inside.sh");
        Files.writeString(script, String.join("\n",
                "set -u",
                "cd '" + dir + "'",
                "awk '{print $6}' /proc/self/stat > session",
                "bash -c 'sleep 300; true' &",       // inline code, before the runaway: not one of its levels
                "sleep 0.2",
                "'" + daemonize + "' &",
                "echo $! > root",
                "for i in $(seq 300); do [ $(ls -d /proc/[0-9]* | wc -l) -ge 14 ] && break; sleep 0.1; done",
                main + " scan --json > scan.json 2> scan.err",
                main + " stop --pid $(cat root) --yes --json > stop.json 2> stop.err",
                "echo $? > stop.status",
                ""));
        try (Sandbox box = Sandboxes.create(SandboxSpec.of("test-session-unknown", 160))) {
            Process inside = box.start(new ProcessBuilder("unshare", "--pid", "--fork", "--mount-proc", "--cgroup",
                    "bash", script.toString()).redirectErrorStream(true).redirectOutput(dir.resolve("inside.log").toFile()));
            assertThat(inside.waitFor(90, TimeUnit.SECONDS)).as(read(dir.resolve("inside.log"))).isTrue();
            assertThat(inside.exitValue()).as("unshare and the script: " + read(dir.resolve("inside.log"))).isZero();
            assertThat(read(dir.resolve("session")).strip()).as("the premise: the session is unknown there").isEqualTo("0");

            JsonNode scan = new ObjectMapper().readTree(dir.resolve("scan.json").toFile());
            List<String> commands = new ArrayList<>();
            scan.get("groups").forEach(g -> commands.add(g.get("command").asText()));
            assertThat(commands).as(read(dir.resolve("scan.err"))).isNotEmpty()
                    .noneMatch(c -> c.equals("bash -c") || c.equals("sh -c"))
                    .anyMatch(c -> c.matches("bash -c in chain \\d+"));

            String stop = read(dir.resolve("stop.json"));
            assertThat(read(dir.resolve("stop.status")).strip()).as(stop + read(dir.resolve("stop.err"))).isEqualTo("3");
            JsonNode json = new ObjectMapper().readTree(stop);
            assertThat(json.get("zeroConfirmed").asBoolean()).isFalse();
            assertThat(json.get("status").asText()).isEqualTo("UNCONFIRMED");
            assertThat(json.get("unfollowed").size()).as("the levels it could not follow are named").isGreaterThan(0);
        }
    }

    private static String read(Path file) throws java.io.IOException {
        return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "(no " + file.getFileName() + ")";
    }
}
