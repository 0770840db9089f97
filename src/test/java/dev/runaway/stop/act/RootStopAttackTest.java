// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop.act;

import dev.runaway.sandbox.NativeBinaries;
import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Issue 40's first attack, reproduced on the code before it: nobody's linear exec chain of their
 * own binary, beside an idle process of theirs, and a watcher that swaps the binary for a
 * symlink to a root file; root stops it with {@code runaway stop --command KEY --yes}. Before,
 * the restore step chmodded the root file to the binary's old mode (0600 became 0755). Now the
 * restore is refused and said, and the root file keeps its mode. The swap between the plan and
 * the revoke is ActuatorRevokeSwapTest.
 *
 * <p>Safety: the stage runs in a sandbox this test owns (cap 300 tasks: the chain grows two
 * levels a second, the stop's JVM needs about 40 threads) inside a private mount namespace where
 * the root file is a stand-in on a throwaway tmpfs (root-stop-attack.sh); the sandbox is torn
 * down whole at the end.
 */
@Tag("process")
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class RootStopAttackTest {
    @TempDir
    Path dir;

    private record Stage(Map<String, String> results, String output) {
    }

    private Stage stage() throws Exception {
        assumeTrue(new com.sun.security.auth.module.UnixSystem().getUid() == 0, "needs root: it plays root's stop");
        Path script = dir.resolve("root-stop-attack.sh");
        try (InputStream in = RootStopAttackTest.class.getResourceAsStream("root-stop-attack.sh")) {
            Files.copy(in, script);
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        try (Sandbox box = Sandboxes.create(SandboxSpec.of("test-root-stop-attack", 300))) {
            Process run = box.start(new ProcessBuilder("unshare", "-m", "--propagation", "private", "sh", script.toString(),
                    NativeBinaries.find(NativeBinaries.DRILL_WORKER).toString(), java, classpath,
                    System.getProperty("runaway.native.dir")).redirectErrorStream(true));
            String output = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(run.waitFor(150, TimeUnit.SECONDS)).as(output).isTrue();
            Map<String, String> results = new HashMap<>();
            output.lines().filter(l -> l.startsWith("RESULT ")).forEach(l -> {
                String[] kv = l.substring(7).split(" ", 2);
                results.putIfAbsent(kv[0], kv.length > 1 ? kv[1] : "");
            });
            assertThat(results.get("done")).as(output).isEqualTo("yes");
            return new Stage(results, output);
        }
    }

    @Test
    void aSymlinkSwappedInAfterTheRevokeLeavesTheRootFileAsItWas() throws Exception {
        Stage s = stage();
        assertThat(s.results().get("watcher")).as("the attack ran: the bits went and the symlink came\n" + s.output()).isEqualTo("swapped");
        assertThat(s.results().get("tool_is_link")).as(s.output()).isEqualTo("yes");
        assertThat(s.results().get("secret_mode")).as("the stand-in root file\n" + s.output()).isEqualTo("600");
        assertThat(s.results().get("stop_exit")).as("the runaway still reached zero\n" + s.output()).isEqualTo("0");
        assertThat(s.output()).as("the refused restore is said").contains("a symlink on its path");
        assertThat(s.results().get("idle")).as(s.output()).isEqualTo("sleeping");
    }
}
