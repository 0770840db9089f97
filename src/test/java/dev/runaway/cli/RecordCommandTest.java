// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.cli;

import dev.runaway.sandbox.Sandboxes;
import dev.runaway.timeline.Incident;
import dev.runaway.timeline.IncidentReader;
import dev.runaway.timeline.PulsePoint;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code runaway record} killed with SIGKILL at random moments, 20 times: the file always opens
 * and holds everything up to within a second of the kill. Each recorder is a JVM in a sandbox
 * this test owns (cap 200: a JVM's threads are tasks too).
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("process")
class RecordCommandTest {
    private static final int TRIALS = 20;

    @Test
    void aRecorderKilledAtAnyMomentLeavesAnIncidentThatReadsToWithinASecond(@TempDir Path dir) throws Exception {
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Random random = new Random(5);
        try (var box = Sandboxes.create(dev.runaway.sandbox.SandboxSpec.of("test-record-kill9", 200))) {
            for (int trial = 0; trial < TRIALS; trial++) {
                Path file = dir.resolve("kill-" + trial + ".jsonl");
                Process jvm = box.start(new ProcessBuilder(javaBin, "-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                        "-cp", classpath, "-Drunaway.native.dir=" + System.getProperty("runaway.native.dir"),
                        Main.class.getName(), "record", "--out", file.toString(), "--duration", "60s")
                        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD));
                org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(40)).pollInterval(java.time.Duration.ofMillis(20))
                        .until(() -> Files.exists(file) && hasAScan(file));
                // The random moment starts once the first scan is in the file: a cold JVM's first
                // scan comes after its first pulses, later still under the suite's load.
                long wait = random.nextInt(2000);
                Thread.sleep(wait);
                Instant killedAt = Instant.now();
                jvm.destroyForcibly().waitFor();

                Incident incident = IncidentReader.read(file); // opens, torn line or not
                var pulses = incident.timeline().pulses();
                assertThat(pulses).as("trial %d", trial).isNotEmpty();
                PulsePoint last = pulses.get(pulses.size() - 1);
                assertThat(Duration.between(last.time(), killedAt).toMillis())
                        .as("trial %d, killed %d ms after it began: the last pulse is within a second of the kill", trial, wait)
                        .isBetween(0L, 999L);
                assertThat(incident.timeline().scans()).as("trial %d: scans recorded too", trial).isNotEmpty();
            }
        }
    }

    private static boolean hasAScan(Path file) {
        try {
            return !IncidentReader.read(file).timeline().scans().isEmpty();
        } catch (Exception notYetReadable) {
            return false;
        }
    }
}
