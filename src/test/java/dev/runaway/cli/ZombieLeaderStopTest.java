// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.runaway.sandbox.AsNobody;
import dev.runaway.sandbox.Caps;
import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import dev.runaway.testing.Alive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A runaway whose processes end their main thread (the drill worker's zombie-leader mode: the
 * leader starts a worker thread and calls pthread_exit, the worker forks and execs the binary
 * again): /proc/PID/stat says Z and exe and cmdline read empty, while the processes run and
 * fork. Started as nobody in a sandbox with a literal cap; scanned and stopped as nobody by key,
 * pid and chain, and by root by cgroup (freeze, then cgroup.kill, which reaches only the exited
 * leaders) and by key and pid after runaway-rt's first lever: scan shows the group under the
 * binary's key, and every stop reaches a confirmed zero with nothing left in the sandbox.
 */
@Tag("process")
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class ZombieLeaderStopTest {
    /** Tasks the sandbox allows: each process is two (the exited leader still counts), so about 30 processes. */
    private static final int TASKS_MAX = 60;
    private static final int PERIOD_MS = 100;

    @Test
    void scannedAndStoppedByKeyAsNobody(@TempDir Path dir) throws Exception {
        try (Nobody nobody = Nobody.in(dir); Sandbox box = Sandboxes.create(SandboxSpec.of("test-zombie-leader-key", TASKS_MAX))) {
            long first = startRunaway(box, nobody);
            Run scan = nobody.run("scan", "--json", "--all", "--window", "1s");
            assertThat(scan.status).as(scan.toString()).isZero();
            JsonNode group = groupOf(new ObjectMapper().readTree(scan.out), nobody.worker.toString());
            assertThat(group).as("scan shows the runaway under its binary's key: %s", scan.out).isNotNull();
            assertThat(group.get("tasks").asInt()).as("with its tasks").isGreaterThanOrEqualTo(TASKS_MAX / 2);

            assertConfirmedZero(nobody.run("stop", "--command", nobody.worker.toString(), "--yes", "--json"), box, first);
        }
    }

    @Test
    void stoppedByPidAsNobody(@TempDir Path dir) throws Exception {
        try (Nobody nobody = Nobody.in(dir); Sandbox box = Sandboxes.create(SandboxSpec.of("test-zombie-leader-pid", TASKS_MAX))) {
            long first = startRunaway(box, nobody);
            assertConfirmedZero(nobody.run("stop", "--pid", Long.toString(first), "--yes", "--json"), box, first);
        }
    }

    @Test
    void stoppedByChainAsNobody(@TempDir Path dir) throws Exception {
        try (Nobody nobody = Nobody.in(dir); Sandbox box = Sandboxes.create(SandboxSpec.of("test-zombie-leader-chain", TASKS_MAX))) {
            long first = startRunaway(box, nobody);
            assertConfirmedZero(nobody.run("stop", "--chain", Long.toString(first), "--yes", "--json"), box, first);
        }
    }

    @Test
    void stoppedByCgroupAsRootWhereCgroupKillDoesNotReachThem(@TempDir Path dir) throws Exception {
        try (Nobody nobody = Nobody.in(dir); Sandbox box = Sandboxes.create(SandboxSpec.of("test-zombie-leader-cgroup", TASKS_MAX))) {
            long first = startRunaway(box, nobody);
            String cgroup = cgroupOf(first);
            assumeTrue(!cgroup.equals("/"), "no v2 cgroup of the sandbox's own");
            assertConfirmedZero(stopAsRoot(Map.of(), "--cgroup", cgroup, "--yes", "--json"), box, first);
        }
    }

    @Test
    void theFirstLeverFreezesThemByKeyBeforeTheJvmAndTheStopAdoptsIt(@TempDir Path dir) throws Exception {
        try (Nobody nobody = Nobody.in(dir); Sandbox box = Sandboxes.create(SandboxSpec.of("test-zombie-leader-rt-key", TASKS_MAX))) {
            long first = startRunaway(box, nobody);
            stopAfterTheFirstLever(nobody, box, first, "--command", nobody.worker.toString());
        }
    }

    @Test
    void theFirstLeverFreezesThemByPidBeforeTheJvmAndTheStopAdoptsIt(@TempDir Path dir) throws Exception {
        try (Nobody nobody = Nobody.in(dir); Sandbox box = Sandboxes.create(SandboxSpec.of("test-zombie-leader-rt-pid", TASKS_MAX))) {
            long first = startRunaway(box, nobody);
            stopAfterTheFirstLever(nobody, box, first, "--pid", Long.toString(first));
        }
    }

    /**
     * runaway-rt's first lever as root (run as the launcher runs it, from another sandbox) freezes
     * the runaway's cgroup instead of refusing it; the stop in this JVM adopts the freeze and
     * reaches zero.
     */
    private static void stopAfterTheFirstLever(Nobody nobody, Sandbox box, long first, String... selector) throws Exception {
        List<String> args = new ArrayList<>(List.of("stop"));
        args.addAll(List.of(selector));
        args.addAll(List.of("--yes", "--json"));
        Map<String, String> env = dev.runaway.stop.FirstLeverLaunchTest.run(nobody.tools, nobody.dir, args.toArray(String[]::new));
        assertThat(env).as(env.get("output")).doesNotContainKey("RUNAWAY_FIRST_LEVER_REFUSED");
        assertThat(env.get("RUNAWAY_FIRST_LEVER_CGROUP")).as(env.get("output")).isEqualTo(cgroupOf(first));
        Map<String, String> forThisJvm = new HashMap<>(env);
        forThisJvm.put("RUNAWAY_FIRST_LEVER_PID", Long.toString(ProcessHandle.current().pid()));
        assertConfirmedZero(stopAsRoot(forThisJvm, args.subList(1, args.size()).toArray(String[]::new)), box, first);
    }

    private static String cgroupOf(long pid) throws Exception {
        return Files.readAllLines(Path.of("/proc", Long.toString(pid), "cgroup")).stream()
                .filter(l -> l.startsWith("0::")).map(l -> l.substring(3)).findFirst().orElseThrow();
    }

    /** runaway stop in this JVM (root), with {@code environment} as the launcher left it. */
    private static Run stopAsRoot(Map<String, String> environment, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        StopCommand stop = new StopCommand();
        stop.input = new ByteArrayInputStream(new byte[0]);
        stop.environment = environment;
        picocli.CommandLine cli = new picocli.CommandLine(stop);
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int status = cli.execute(args);
        return new Run(status, out.toString(), err.toString());
    }

    /** Starts the runaway as nobody and waits until it presses on the cap; its first process's pid. */
    private static long startRunaway(Sandbox box, Nobody nobody) throws Exception {
        Process first = box.start(new ProcessBuilder("/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups",
                nobody.worker.toString(), "zombie-leader", Integer.toString(PERIOD_MS)).redirectError(ProcessBuilder.Redirect.DISCARD));
        Caps.awaitRefusedFork(box, 60);
        // What the kernel says of them, read raw: the leader a zombie, the process alive through its worker thread.
        String stat = Files.readString(Path.of("/proc", Long.toString(first.pid()), "stat"));
        assertThat(stat.substring(stat.lastIndexOf(')') + 2)).as("the first process's leader exited: %s", stat).startsWith("Z ");
        assertThat(Files.readAllBytes(Path.of("/proc", Long.toString(first.pid()), "cmdline"))).as("its own cmdline reads empty").isEmpty();
        assertThat(box.memberPids().size()).as("the runaway grew").isGreaterThan(TASKS_MAX / 4);
        return first.pid();
    }

    private static void assertConfirmedZero(Run stop, Sandbox box, long first) throws Exception {
        assertThat(stop.status).as("the stop says zero: %s", stop).isZero();
        assertThat(new ObjectMapper().readTree(stop.out).get("status").asText()).as(stop.toString()).isEqualTo("ZERO_CONFIRMED");
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100)).untilAsserted(() ->
                assertThat(box.memberPids()).as("nothing of the runaway is left").isEmpty());
        assertThat(Alive.stat((int) first)).as("the first process is gone").isEmpty();
    }

    private static JsonNode groupOf(JsonNode scan, String key) {
        for (JsonNode g : scan.get("groups")) if (key.equals(g.get("command").asText())) return g;
        return null;
    }

    private record Run(int status, String out, String err) {
    }

    /**
     * The runaway's binary (nobody's own copy of the drill worker) and Runaway's command line as
     * nobody, in a sandbox of its own (not the runaway's: that one is at its cap).
     */
    private record Nobody(Path dir, String classpath, Path worker, Sandbox tools) implements AutoCloseable {
        static Nobody in(Path dir) throws Exception {
            assumeTrue(new com.sun.security.auth.module.UnixSystem().getUid() == 0, "needs root to switch to nobody");
            String classpath = AsNobody.readableClasspath(dir);
            Path worker = dir.resolve("zl");
            Files.copy(Path.of(System.getProperty("runaway.native.dir"), "runaway-drill-worker"), worker);
            Files.setAttribute(worker, "unix:mode", 0755);
            Files.setAttribute(worker, "unix:uid", 65534);
            return new Nobody(dir, classpath, worker, Sandboxes.create(SandboxSpec.of("test-zombie-leader-tools", 400)));
        }

        @Override
        public void close() {
            tools.close();
        }

        /** Runaway's command line as nobody; its exit status and what it printed (stdout, then stderr). */
        Run run(String... args) throws Exception {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            List<String> command = new ArrayList<>(List.of("/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups",
                    java, "-Xmx128m", "-XX:+UseSerialGC", "-XX:-UsePerfData", "-Djava.io.tmpdir=" + dir, "-Duser.home=" + dir,
                    "-cp", classpath, "-Drunaway.native.dir=" + dir.resolve("native"), Main.class.getName()));
            command.addAll(List.of(args));
            Path err = dir.resolve("stderr-" + System.nanoTime());
            Process p = tools.start(new ProcessBuilder(command).redirectError(err.toFile()));
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("runaway %s ended: %s", String.join(" ", args), out).isTrue();
            return new Run(p.exitValue(), out, Files.readString(err));
        }
    }
}
