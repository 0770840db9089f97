// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop;

import dev.runaway.sandbox.CgroupSandbox;
import dev.runaway.sandbox.NativeBinaries;
import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When pids run out nothing new can start, so the stop path must need no new process: a
 * console whose own cgroup is capped at its current task count still takes a runaway to zero.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("process")
class StopWithoutForkTest {

    @Test
    void aConsoleThatCannotForkStillStopsARunawayToZero() throws Exception {
        String worker = NativeBinaries.find(NativeBinaries.DRILL_WORKER).toString();
        try (Sandbox runaway = Sandboxes.create(SandboxSpec.of("test-nofork-runaway", 40));
             Sandbox console = Sandboxes.create(SandboxSpec.of("test-nofork-console", 120))) {
            runaway.start(new ProcessBuilder(worker, "fanout", "20").redirectError(ProcessBuilder.Redirect.DISCARD));
            dev.runaway.sandbox.Caps.awaitRefusedFork(runaway, 20);

            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
            Process jvm = console.start(new ProcessBuilder(java, "-Xmx128m", "-XX:+UseSerialGC", "-XX:CICompilerCount=2",
                    "-cp", classpath, "-Drunaway.native.dir=" + System.getProperty("runaway.native.dir"),
                    NoForkProbe.class.getName(), worker).redirectError(ProcessBuilder.Redirect.DISCARD));
            BufferedReader out = new BufferedReader(new InputStreamReader(jvm.getInputStream(), StandardCharsets.UTF_8));
            assertThat(out.readLine()).isEqualTo("ready");

            Path cap = ((CgroupSandbox) console).dirs().capDir();
            String current = Files.readString(cap.resolve("pids.current")).trim();
            Files.writeString(cap.resolve("pids.max"), current); // not one more task: no fork, no new thread
            Writer in = new OutputStreamWriter(jvm.getOutputStream(), StandardCharsets.UTF_8);
            in.write("go\n");
            in.flush();

            StringBuilder said = new StringBuilder();
            for (String line; (line = out.readLine()) != null; ) said.append(line).append('\n');
            assertThat(jvm.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(said.toString()).as("the console could not start a process").contains("fork refused");
            assertThat(said.toString()).contains("lever FREEZE_CGROUP").contains("zero true");
            assertThat(runaway.memberPids()).isEmpty();
        }
    }
}
