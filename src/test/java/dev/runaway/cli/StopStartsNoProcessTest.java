// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.cli;

import dev.runaway.drill.Drill;
import dev.runaway.drill.Drills;
import dev.runaway.drill.Scenario;
import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code runaway stop --yes} starts no process from its JVM's start to zero: during a fire a
 * child waits behind the runaway (JNA's {@code ldconfig -p} and OSHI's {@code uname -o} held a
 * stop at 20,000 pressing tasks for over a minute), and at a task cap none can start.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("process")
class StopStartsNoProcessTest {

    @Test
    void fromAFreshJvmToZeroNoProcessIsStarted() throws Exception {
        try (Drill drill = Drills.start(Scenario.ORPHANS, 45, Duration.ofMinutes(2), false);
             Sandbox console = Sandboxes.create(SandboxSpec.of("test-stop-no-exec", 120))) {
            dev.runaway.sandbox.Caps.awaitRefusedFork(drill.sandbox(), 30);
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
            Process jvm = console.start(new ProcessBuilder(java, "-Xmx128m", "-XX:+UseSerialGC", "-Djava.security.manager=allow",
                    "-cp", classpath, "-Drunaway.native.dir=" + System.getProperty("runaway.native.dir"),
                    NoExecProbe.class.getName(), "--command", drill.folder().resolve("cache/tool").toString(), "--yes", "--json")
                    .redirectError(ProcessBuilder.Redirect.DISCARD));
            String out = new String(jvm.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(jvm.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(out).as("the stop reached zero").contains("\"zeroConfirmed\" : true").contains("status 0");
            assertThat(out.lines().filter(l -> l.startsWith("exec: "))).as("processes the stop started").isEmpty();
            assertThat(drill.sandbox().memberPids()).isEmpty();
        }
    }
}
