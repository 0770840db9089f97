// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sandbox;

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
 * The unprivileged fallback, for real: a JVM running as {@code nobody} (through setpriv, inside
 * a cgroup sandbox this test owns, capped at 160 tasks) cannot write cgroups, so its sandbox is a
 * session with RLIMIT_NPROC; a fork loop in it hits the limit, and teardown reaches zero.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("process")
class SessionSandboxTest {

    @Test
    void anUnprivilegedUserGetsASessionSandboxThatCapsAndTearsDown(@TempDir Path dir) throws Exception {
        assumeTrue(new com.sun.security.auth.module.UnixSystem().getUid() == 0, "needs root to switch to nobody");
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")), "needs setpriv (util-linux)");
        String classpath = AsNobody.readableClasspath(dir);
        try (Sandbox outer = Sandboxes.create(SandboxSpec.of("test-session-outer", 160))) {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            Process jvm = outer.start(new ProcessBuilder("/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup",
                    "--clear-groups", java, "-Xmx48m", "-XX:+UseSerialGC", "-XX:-UsePerfData",
                    "-Djava.io.tmpdir=" + dir, "-cp", classpath, "-Drunaway.native.dir=" + dir.resolve("native"),
                    CrashChild.class.getName(), "session").redirectErrorStream(true));
            assertThat(jvm.waitFor(90, TimeUnit.SECONDS)).isTrue();
            String output = new String(jvm.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            Map<String, String> found = AsNobody.keyValues(output);
            assertThat(jvm.exitValue()).as(output).isZero();
            assertThat(found.get("kind")).as(output).isEqualTo("SessionSandbox");
            assertThat(found.get("containment")).contains("RLIMIT_NPROC").contains("weaker");
            assertThat(found.get("forkfailed")).as("the rlimit refused a fork: " + output).isEqualTo("true");
            assertThat(found.get("zero")).as(output).isEqualTo("true");
            assertThat(found.get("after")).isEqualTo("0");
        }
    }
}
