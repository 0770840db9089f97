// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop;

import dev.runaway.stop.act.Actuator;
import dev.runaway.stop.helper.HelperKeeper;
import dev.runaway.analysis.Chain;
import dev.runaway.analysis.Group;
import dev.runaway.analysis.GrowthFit;
import dev.runaway.analysis.GrowthShape;
import dev.runaway.analysis.Snapshot;
import dev.runaway.model.PulseSample;
import dev.runaway.sandbox.AsNobody;
import dev.runaway.sandbox.CgroupSandbox;
import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The helper is started ahead of need: on a spike or when a plan opens. Then a console that can
 * no longer start anything (its cgroup at pids.max) and has no privilege of its own (it dropped
 * to nobody) still stops root's runaway to zero, through the helper it already has.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("process")
class HelperAheadOfNeedTest {

    static Snapshot snapshot(double forksPerSecond, Group... groups) {
        PulseSample p = new PulseSample(Instant.now(), 0, 500, 0, 1L << 34, 1L << 33, 0, 0, Optional.empty(), 32768, 100_000);
        return new Snapshot(Instant.now(), p, forksPerSecond, new GrowthFit(GrowthShape.STEADY, 0, 0), List.of(groups),
                500, 0, 0, 0, 0);
    }

    private static Group group(String command, int tasks, boolean recursive, OptionalDouble exhaustion) {
        return new Group(command, tasks, List.<Chain>of(), false, recursive, List.of(), recursive ? 3 : 1, 0,
                new GrowthFit(GrowthShape.LINEAR, 30, 0), 0, exhaustion, exhaustion.isPresent() ? "pid_max" : "",
                List.of(), "", -1);
    }

    @Test
    void aSpikeIsAGroupRunningOutSoonARecursiveCrowdOrAForkStorm() {
        assertThat(HelperKeeper.spike(snapshot(20, group("/usr/bin/make", 40, false, OptionalDouble.empty())))).isFalse();
        assertThat(HelperKeeper.spike(snapshot(20, group("/usr/bin/make", 40, false, OptionalDouble.of(3000))))).isFalse();
        assertThat(HelperKeeper.spike(snapshot(20, group("/tmp/t", 400, false, OptionalDouble.of(120))))).isTrue();
        assertThat(HelperKeeper.spike(snapshot(20, group("deploy.sh", 60, true, OptionalDouble.empty())))).isTrue();
        assertThat(HelperKeeper.spike(snapshot(20, group("deploy.sh", 6, true, OptionalDouble.empty())))).isFalse();
        assertThat(HelperKeeper.spike(snapshot(5_000))).isTrue();
    }

    @Test
    void asRootTheHelperIsNeverStarted() {
        int[] starts = {0};
        try (Actuator actuator = new Actuator(Path.of("/proc"), () -> {
            starts[0]++;
            return null;
        })) {
            HelperKeeper keeper = new HelperKeeper(actuator, true);
            keeper.onSnapshot(snapshot(5_000));
            keeper.planOpened();
            assertThat(keeper.state()).isEqualTo(HelperKeeper.State.NOT_NEEDED);
            assertThat(keeper.describe()).isEqualTo("helper not needed (running as root)");
            assertThat(starts[0]).isZero();
        }
    }

    @Test
    void aConsoleWithoutPrivilegeThatCannotForkStopsRootsRunawayThroughTheHelperItStartedEarlier(@TempDir Path dir)
            throws Exception {
        String classpath = AsNobody.readableClasspath(dir);
        Path nativeDir = dir.resolve("native");
        Path config = dir.resolve("disposable-roots.conf");
        Files.writeString(config, "# no disposable roots beyond the built-in ones\n");
        Files.setPosixFilePermissions(config, PosixFilePermissions.fromString("rw-r--r--"));
        String worker = nativeDir.resolve("runaway-drill-worker").toString();
        try (Sandbox runaway = Sandboxes.create(SandboxSpec.of("test-ahead-runaway", 40));
             Sandbox console = Sandboxes.create(SandboxSpec.of("test-ahead-console", 120))) {
            runaway.start(new ProcessBuilder(worker, "fanout", "20").redirectError(ProcessBuilder.Redirect.DISCARD));
            dev.runaway.sandbox.Caps.awaitRefusedFork(runaway, 20);

            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            Process jvm = console.start(new ProcessBuilder(java, "-Xmx128m", "-XX:+UseSerialGC", "-XX:CICompilerCount=2",
                    "-cp", classpath, "-Drunaway.native.dir=" + nativeDir, HelperAheadProbe.class.getName(), worker,
                    nativeDir.resolve("runaway-helper").toString(), config.toString())
                    .redirectError(ProcessBuilder.Redirect.DISCARD));
            BufferedReader out = new BufferedReader(new InputStreamReader(jvm.getInputStream(), StandardCharsets.UTF_8));
            StringBuilder said = new StringBuilder();
            for (String line; (line = out.readLine()) != null && !line.equals("ready"); ) said.append(line).append('\n');
            assertThat(said.toString()).contains("keeper helper running, started ahead of need on a stop plan was opened")
                    .contains("uid 65534");

            Path cap = ((CgroupSandbox) console).dirs().capDir();
            Files.writeString(cap.resolve("pids.max"), Files.readString(cap.resolve("pids.current")).trim());
            Writer in = new OutputStreamWriter(jvm.getOutputStream(), StandardCharsets.UTF_8);
            in.write("go\n");
            in.flush();
            for (String line; (line = out.readLine()) != null; ) said.append(line).append('\n');
            assertThat(jvm.waitFor(60, TimeUnit.SECONDS)).isTrue();
            Map<String, String> found = AsNobody.keyValues(said.toString());
            assertThat(found.get("fork")).as(said.toString()).isEqualTo("refused");
            assertThat(found.get("others")).as("root's processes, planned by nobody").isNotEqualTo("0");
            assertThat(found.get("zero")).as(said.toString()).isEqualTo("true");
            assertThat(Integer.parseInt(found.get("helperRequests"))).as("the stop went through the helper").isPositive();
            assertThat(runaway.memberPids()).isEmpty();
        }
    }
}
