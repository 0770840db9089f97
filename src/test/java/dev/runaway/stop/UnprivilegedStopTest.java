package dev.runaway.stop;

import dev.runaway.model.ProcessIdentity;
import dev.runaway.procfs.ProcStat;
import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
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
 * The stop as an ordinary user (nobody, through setpriv, inside a sandbox this test owns): its
 * own runaway stops with no helper at all; root's processes are planned with "the helper is
 * needed", and without one nothing of root's is touched.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class UnprivilegedStopTest {

    @Test
    void ownRunawayStopsWithoutTheHelperAndRootsNeedIt(@TempDir Path dir) throws Exception {
        assumeTrue(new com.sun.security.auth.module.UnixSystem().getUid() == 0, "needs root to switch to nobody");
        String classpath = dev.runaway.sandbox.AsNobody.readableClasspath(dir);
        // A binary of root's that nobody else runs: a copy of sleep under a name of its own.
        Path sleeper = dir.resolve("roots-sleeper");
        Files.copy(Path.of("/usr/bin/sleep"), sleeper);
        Files.setAttribute(sleeper, "unix:mode", 0755);
        try (Sandbox box = Sandboxes.create(SandboxSpec.of("test-unprivileged-outer", 200))) {
            Process roots = box.start(new ProcessBuilder(sleeper.toString(), "300"));
            ProcessIdentity rootSleeper = ProcStat.read(Path.of("/proc"), (int) roots.pid()).orElseThrow().identity();
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            Process jvm = box.start(new ProcessBuilder("/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups",
                    java, "-Xmx128m", "-XX:+UseSerialGC", "-XX:-UsePerfData", "-Djava.io.tmpdir=" + dir, "-Duser.home=" + dir,
                    "-cp", classpath, "-Drunaway.native.dir=" + dir.resolve("native"),
                    UnprivilegedProbe.class.getName(), sleeper.toString()).redirectErrorStream(true));
            String output = new String(jvm.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(jvm.waitFor(120, TimeUnit.SECONDS)).isTrue();
            Map<String, String> found = dev.runaway.sandbox.AsNobody.keyValues(output);
            assertThat(jvm.exitValue()).as(output).isZero();
            assertThat(found.get("own.zero")).as(output).isEqualTo("true");
            assertThat(found.get("own.helperRequests")).isEqualTo("0");
            assertThat(found.get("own.privilege")).isEqualTo("your own processes: no helper needed");
            assertThat(found.get("own.lever")).as("root's binary cannot be revoked by nobody; no quarantine without root")
                    .isEqualTo("SIGSTOP_SWEEP");
            assertThat(found.get("root.privilege")).as(output).startsWith("the helper is needed (root, through pkexec): 1 of the targets");
            assertThat(found.get("root.zero")).isEqualTo("false");
            assertThat(found.get("root.error")).contains("needs privilege and the helper is not available: none is installed");
            assertThat(ProcStat.read(Path.of("/proc"), rootSleeper.pid()).filter(s -> s.startTicks() == rootSleeper.startTicks()
                    && !s.isZombie())).as("root's process untouched").isPresent();
        }
    }
}
