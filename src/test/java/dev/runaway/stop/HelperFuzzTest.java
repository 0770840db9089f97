// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop;

import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The short fuzz run of the helper's whole request handling against a fake tree (parser,
 * binding, path walk, cgroup and pid checks, the end of a session; src/test/sh/fuzz-helper
 * runs the long one): 15 s of libFuzzer with ASan and UBSan from the seed corpus, in a sandbox
 * of its own. It fails on a crash and on harm (a lever on what the helper must never touch).
 */
@Tag("process")
@Timeout(value = 240, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("process")
class HelperFuzzTest {

    @Test
    void theRequestHandlingSurvivesFifteenSecondsOfFuzzing() throws Exception {
        Path script = Path.of(System.getProperty("runaway.native.dir")).getParent().getParent().resolve("src/test/sh/fuzz-helper");
        assertThat(script).isExecutable();
        try (Sandbox box = Sandboxes.create(SandboxSpec.of("test-fuzz-helper", 64))) {
            Process fuzz = box.start(new ProcessBuilder("sh", script.toString(), "15").redirectErrorStream(true));
            String output = new String(fuzz.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(fuzz.waitFor(200, TimeUnit.SECONDS)).isTrue();
            assertThat(fuzz.exitValue()).as(output).isZero();
            assertThat(output).containsPattern("fuzz-helper: [0-9]+ executions in 15 s, no crash");
            System.out.println(output.lines().filter(l -> l.startsWith("fuzz-helper:")).findFirst().orElse(""));
        }
    }
}
