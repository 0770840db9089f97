package dev.runaway.cli;

import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code runaway record} ended by Ctrl-C (SIGINT) says so in a closing line, and the file is whole. */
@Tag("process")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RecordCtrlCTest {

    @Test
    void ctrlCEndsTheRecordingWithAClosingLine(@TempDir Path dir) throws Exception {
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Path file = dir.resolve("incident.jsonl");
        Path log = dir.resolve("stderr.txt");
        try (Sandbox box = Sandboxes.create(SandboxSpec.of("test-record-ctrlc", 200))) {
            Process jvm = box.start(new ProcessBuilder(javaBin, "-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                    "-cp", classpath, "-Drunaway.native.dir=" + System.getProperty("runaway.native.dir"),
                    Main.class.getName(), "record", "--out", file.toString())
                    .redirectErrorStream(true).redirectOutput(log.toFile()));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while ((!Files.exists(file) || Files.size(file) < 2_000) && System.nanoTime() < deadline) Thread.sleep(50);
            new ProcessBuilder("kill", "-INT", Long.toString(jvm.pid())).start().waitFor();
            assertThat(jvm.waitFor(20, TimeUnit.SECONDS)).as("it ends on Ctrl-C").isTrue();
            String said = Files.readString(log);
            assertThat(said).as(said).contains("stopped by Ctrl-C; done: " + file);
            assertThat(dev.runaway.timeline.IncidentReader.read(file).timeline().pulses()).isNotEmpty();
        }
    }
}
