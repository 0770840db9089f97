// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop;

import dev.runaway.model.ProcessIdentity;
import dev.runaway.procfs.ProcStat;
import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import dev.runaway.testing.Alive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The stop as an ordinary user (nobody, through setpriv, inside a sandbox this test owns), with
 * no helper: its own runaway stops; its own runaway alone in a cgroup root made (which nobody
 * cannot freeze) stops to zero by SIGSTOP sweeps; root's processes cannot be stopped, the
 * command says so and lists them, and nothing of root's is touched.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("process")
class UnprivilegedStopTest {

    @Test
    void ownRunawayStopsWithoutTheHelperAndRootsNeedIt(@TempDir Path dir) throws Exception {
        assumeTrue(new com.sun.security.auth.module.UnixSystem().getUid() == 0, "needs root to switch to nobody");
        String classpath = dev.runaway.sandbox.AsNobody.readableClasspath(dir);
        // A binary of root's that nobody else runs: a copy of sleep under a name of its own.
        Path sleeper = dir.resolve("roots-sleeper");
        Files.copy(Path.of("/usr/bin/sleep"), sleeper);
        Files.setAttribute(sleeper, "unix:mode", 0755);
        try (Sandbox box = Sandboxes.create(SandboxSpec.of("test-unprivileged-outer", 200));
             Sandbox alone = Sandboxes.create(SandboxSpec.of("test-unprivileged-alone", 40))) {
            // nobody's runaway, alone in a cgroup root made: a fanout of its own copy of the worker
            Path aloneWorker = dir.resolve("nobodys-worker");
            Files.copy(Path.of(System.getProperty("runaway.native.dir"), "runaway-drill-worker"), aloneWorker);
            Files.setAttribute(aloneWorker, "unix:mode", 0755);
            alone.start(new ProcessBuilder("/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups",
                    aloneWorker.toString(), "fanout", "20").redirectError(ProcessBuilder.Redirect.DISCARD));
            dev.runaway.sandbox.Caps.awaitRefusedFork(alone, 30);
            Process roots = box.start(new ProcessBuilder(sleeper.toString(), "300"));
            ProcessIdentity rootSleeper = ProcStat.read(Path.of("/proc"), (int) roots.pid()).orElseThrow().identity();
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            Process jvm = box.start(new ProcessBuilder("/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups",
                    java, "-Xmx128m", "-XX:+UseSerialGC", "-XX:-UsePerfData", "-Djava.io.tmpdir=" + dir, "-Duser.home=" + dir,
                    "-cp", classpath, "-Drunaway.native.dir=" + dir.resolve("native"),
                    UnprivilegedProbe.class.getName(), sleeper.toString(), aloneWorker.toString()).redirectErrorStream(true));
            String output = new String(jvm.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(jvm.waitFor(120, TimeUnit.SECONDS)).isTrue();
            Map<String, String> found = dev.runaway.sandbox.AsNobody.keyValues(output);
            assertThat(jvm.exitValue()).as(output).isZero();
            assertThat(found.get("own.zero")).as(output).isEqualTo("true");
            assertThat(found.get("own.helperRequests")).isEqualTo("0");
            assertThat(found.get("own.others")).isEqualTo("0");
            assertThat(found.get("own.lever")).as("root's binary cannot be revoked by nobody; no quarantine without root")
                    .isEqualTo("SIGSTOP_SWEEP");
            assertThat(found.get("alone.freeze")).as("nobody cannot write a cgroup root made, and there is no helper")
                    .isEqualTo("NO");
            assertThat(found.get("alone.lever")).as(output).isEqualTo("SIGSTOP_SWEEP");
            assertThat(found.get("alone.zero")).as(output).isEqualTo("true");
            assertThat(found.get("alone.helperRequests")).isEqualTo("0");
            assertThat(alone.memberPids()).as("nobody's runaway is gone").isEmpty();
            assertThat(found.get("root.others")).as(output).isEqualTo("1");
            assertThat(found.get("root.zero")).isEqualTo("false");
            assertThat(found.get("root.survivors")).as("exit 3 lists the survivors").isEqualTo("1");
            assertThat(found.get("root.failed")).contains("needs privilege and the helper is not available: none is installed");
            assertThat(Alive.stat(rootSleeper)).as("root's process untouched").isPresent();
        }
    }
}
