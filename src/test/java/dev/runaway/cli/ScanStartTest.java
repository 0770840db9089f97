// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A fresh JVM's {@code runaway scan}: the analysis started before the command line is parsed
 * (EarlyScan) prints one whole snapshot, a usage answer does not wait on it, and JNA's native part
 * is loaded from the build's copy, so nothing is written to a temporary directory (here one that
 * cannot be written, as on a full disk).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("process")
class ScanStartTest {
    private static final Path UNWRITABLE = Path.of("/proc/runaway-no-such-dir");

    private record Ran(int exit, String out) {
    }

    private static Ran run(String nativeDir, String... args) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> command = new ArrayList<>(List.of(java, "-Xmx128m", "-XX:+UseSerialGC", "-cp", classpath,
                "-Drunaway.native.dir=" + nativeDir, "-Djna.tmpdir=" + UNWRITABLE, "dev.runaway.cli.Main"));
        command.addAll(List.of(args));
        try (Sandbox sandbox = Sandboxes.create(SandboxSpec.of("test-scan-start", 256))) {
            Process p = sandbox.start(new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD));
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(45, TimeUnit.SECONDS)).isTrue();
            return new Ran(p.exitValue(), out);
        }
    }

    @Test
    void anEarlyScanPrintsOneWholeSnapshotWithoutWritingJnasLibrary() throws Exception {
        Ran ran = run(System.getProperty("runaway.native.dir"), "scan", "--json", "--window", "0s");

        assertThat(ran.exit()).as(ran.out()).isZero();
        JsonNode root = new ObjectMapper().readTree(ran.out());
        assertThat(root.path("processes").asInt()).isGreaterThan(1);
        assertThat(root.path("groups").size()).isGreaterThan(0);
        assertThat(root.has("cmdlinesUnread")).isTrue();
    }

    /** The control: without the build's copy, JNA must write its library first, and cannot. */
    @Test
    void withoutTheBuildsCopyJnaCannotLoadFromAnUnwritableTemporaryDirectory(@TempDir Path empty) throws Exception {
        Ran ran = run(empty.toString(), "scan", "--json", "--window", "0s");

        assertThat(ran.exit()).isNotZero();
    }

    @Test
    void aUsageAnswerDoesNotWaitForTheEarlyScan() throws Exception {
        Ran ran = run(System.getProperty("runaway.native.dir"), "scan", "--help");

        assertThat(ran.exit()).isZero();
        assertThat(ran.out()).contains("Usage: runaway scan");
    }
}
