// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sandbox;

import dev.runaway.model.ProcessIdentity;
import dev.runaway.procfs.ProcStat;
import dev.runaway.sys.LibC;
import dev.runaway.sys.Signal;
import dev.runaway.testing.Alive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Control test (c): the JVM that made a sandbox is killed with SIGKILL. Its watchdog tears
 * the sandbox down; and if the watchdog died too, the next start does. Both child JVMs run
 * inside a sandbox this test owns, so whatever happens they are torn down at the end.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("process")
class SandboxCrashTest {
    private static final Path PROC = Path.of("/proc");

    @Test
    void watchdogTearsDownAfterTheOwnerIsKilled() throws Exception {
        try (Sandbox outer = Sandboxes.create(SandboxSpec.of("test-crash-outer", 96))) {
            Held held = hold(outer);
            held.jvm.destroyForcibly().waitFor();
            awaitGone(held, 5);
        }
    }

    @Test
    void nextStartTearsDownWhenOwnerAndWatchdogAreKilled() throws Exception {
        try (Sandbox outer = Sandboxes.create(SandboxSpec.of("test-crash-outer", 96))) {
            Held held = hold(outer);
            assertThat(LibC.INSTANCE.kill(held.watchdogPid, Signal.SIGKILL)).isZero();
            held.jvm.destroyForcibly().waitFor();
            Thread.sleep(1_500);
            assertThat(held.sandbox.dirs().memberDir()).as("nothing else took it down").exists();
            assertThat(Alive.of(held.sleepers)).hasSize(3);

            Process next = outer.start(javaChild("next"));
            assertThat(next.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(next.exitValue()).isZero();
            awaitGone(held, 5);
        }
    }

    private record Held(Process jvm, CgroupSandbox sandbox, int watchdogPid, List<ProcessIdentity> sleepers) {
    }

    private static Held hold(Sandbox outer) throws Exception {
        Process jvm = outer.start(javaChild("hold"));
        BufferedReader out = new BufferedReader(new InputStreamReader(jvm.getInputStream(), StandardCharsets.UTF_8));
        String id = out.readLine();
        int watchdog = Integer.parseInt(out.readLine());
        CgroupSandbox inner = Sandboxes.find(id).orElseThrow(() -> new AssertionError("no sandbox " + id));
        assertThat(inner.dirs().memberDir().toString()).as("nested in the test's sandbox").contains(outer.id());
        List<ProcessIdentity> sleepers = new ArrayList<>();
        for (int pid : inner.memberPids()) ProcStat.read(PROC, pid).ifPresent(s -> sleepers.add(s.identity()));
        assertThat(sleepers).hasSize(3);
        return new Held(jvm, inner, watchdog, sleepers);
    }

    private static void awaitGone(Held held, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline && (!Alive.of(held.sleepers).isEmpty()
                || held.sandbox.dirs().all().stream().anyMatch(d -> d.toFile().exists()))) {
            Thread.sleep(50);
        }
        assertThat(Alive.of(held.sleepers)).as("sleepers of the crashed JVM's sandbox").isEmpty();
        assertThat(held.sandbox.dirs().all()).allSatisfy(dir -> assertThat(dir).doesNotExist());
    }

    static ProcessBuilder javaChild(String mode) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        return new ProcessBuilder(java, "-Xmx64m", "-cp", classpath,
                "-Drunaway.native.dir=" + System.getProperty("runaway.native.dir", ""),
                CrashChild.class.getName(), mode).redirectError(ProcessBuilder.Redirect.INHERIT);
    }
}
