// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.runaway.drill.Drill;
import dev.runaway.drill.Drills;
import dev.runaway.drill.Scenario;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code runaway stop} as typed, on a real orphans drill capped at 45 tasks. */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("process")
class StopCommandTest {

    private record Run(int status, String out, String err) {
    }

    private static Run run(String stdin, String... args) {
        return run(stdin, System.getenv(), args);
    }

    private static Run run(String stdin, java.util.Map<String, String> environment, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        StopCommand stop = new StopCommand();
        stop.environment = environment;
        stop.input = new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8));
        CommandLine cli = new CommandLine(stop);
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int status = cli.execute(java.util.Arrays.copyOfRange(args, 1, args.length)); // args[0] is "stop"
        return new Run(status, out.toString(), err.toString());
    }

    @Test
    void declinedDoesNothingThenYesReachesZeroAsJson() throws Exception {
        try (Drill drill = Drills.start(Scenario.ORPHANS, 45, Duration.ofMinutes(2), false)) {
            dev.runaway.sandbox.Caps.awaitRefusedFork(drill.sandbox(), 30);
            String tool = drill.folder().resolve("cache/tool").toString();

            Run declined = run("no\n", "stop", "--command", tool);
            assertThat(declined.status()).isEqualTo(1);
            assertThat(declined.out()).contains("Stop plan for " + tool).contains("1. Stop growth: freeze the cgroup");
            assertThat(drill.sandbox().memberPids()).as("nothing was done").isNotEmpty();

            Run stopped = run("", "stop", "--command", tool, "--yes", "--json");
            assertThat(stopped.status()).as(stopped.err()).isZero();
            JsonNode json = new ObjectMapper().readTree(stopped.out());
            assertThat(json.get("zeroConfirmed").asBoolean()).isTrue();
            assertThat(json.get("plan").get("lever").asText()).isEqualTo("FREEZE_CGROUP");
            assertThat(json.get("plan").get("targets").size()).isGreaterThan(30);
            assertThat(json.get("steps").findValuesAsText("step")).contains("stop growth", "kill", "confirm zero", "restore");
            assertThat(drill.sandbox().memberPids()).isEmpty();
        }
    }

    /** The launcher's static first lever froze the drill before this JVM: the stop adopts it, reaches zero, puts pids.max back. */
    @Test
    void aFreezeByTheLaunchersFirstLeverIsAdoptedAndUndoneWithTheStop(@org.junit.jupiter.api.io.TempDir java.nio.file.Path temp)
            throws Exception {
        try (Drill drill = Drills.start(Scenario.ORPHANS, 45, Duration.ofMinutes(2), false);
             dev.runaway.sandbox.Sandbox launcher = dev.runaway.sandbox.Sandboxes.create(dev.runaway.sandbox.SandboxSpec.of("test-stop-launcher", 8))) {
            dev.runaway.sandbox.Caps.awaitRefusedFork(drill.sandbox(), 30);
            String tool = drill.folder().resolve("cache/tool").toString();
            java.nio.file.Path pidsMax = ((dev.runaway.sandbox.CgroupSandbox) drill.sandbox()).dirs().pids().resolve("pids.max");
            String before = java.nio.file.Files.readString(pidsMax).trim();

            java.util.Map<String, String> env = new java.util.HashMap<>(
                    dev.runaway.stop.FirstLeverLaunchTest.run(launcher, temp, "stop", "--command", tool, "--yes", "--json"));
            assertThat(env).as(env.get("output")).containsKey("RUNAWAY_FIRST_LEVER_CGROUP");
            assertThat(java.nio.file.Files.readString(pidsMax).trim()).isEqualTo("0");
            env.put("RUNAWAY_FIRST_LEVER_PID", Long.toString(ProcessHandle.current().pid())); // this JVM stands in for the launcher's

            Run stopped = run("", env, "stop", "--command", tool, "--yes", "--json");
            assertThat(stopped.status()).as(stopped.err()).isZero();
            JsonNode kill = new ObjectMapper().readTree(stopped.out()).get("kill");
            assertThat(kill.get("by").asText()).isEqualTo("JVM");
            assertThat(kill.get("rtKill").asText()).as("runaway-rt's own kill was off here").isEqualTo("DISABLED");
            JsonNode plan = new ObjectMapper().readTree(stopped.out()).get("plan");
            assertThat(plan.get("firstLever").get("frozen").asBoolean()).isTrue();
            assertThat(plan.get("earlyFreeze").get("kept").asBoolean()).as(plan.get("earlyFreeze").toString()).isTrue();
            assertThat(plan.get("earlyFreeze").get("result").asText()).contains("runaway-rt, before this JVM started");
            assertThat(drill.sandbox().memberPids()).isEmpty();
            assertThat(java.nio.file.Files.readString(pidsMax).trim()).isEqualTo(before);
        }
    }

    /**
     * The first lever for the other selectors: a chain's root and its descendants (--pid,
     * --chain), a cgroup (--cgroup). runaway-rt freezes before the JVM; the stop adopts it (its
     * own check of every member), reaches zero and puts pids.max back.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"--pid", "--chain", "--cgroup"})
    void theLaunchersFirstLeverServesPidChainAndCgroupStops(String option, @org.junit.jupiter.api.io.TempDir java.nio.file.Path temp)
            throws Exception {
        try (Drill drill = Drills.start(Scenario.LINEAR, 45, Duration.ofMinutes(2), false);
             dev.runaway.sandbox.Sandbox launcher = dev.runaway.sandbox.Sandboxes.create(dev.runaway.sandbox.SandboxSpec.of("test-stop-launcher", 8))) {
            dev.runaway.sandbox.Caps.awaitRefusedFork(drill.sandbox(), 30);
            var dirs = ((dev.runaway.sandbox.CgroupSandbox) drill.sandbox()).dirs();
            java.nio.file.Path pidsMax = dirs.pids().resolve("pids.max");
            String before = java.nio.file.Files.readString(pidsMax).trim();
            String value = selectorValue(option, drill);

            java.util.Map<String, String> env = new java.util.HashMap<>(
                    dev.runaway.stop.FirstLeverLaunchTest.run(launcher, temp, "stop", option, value, "--yes", "--json"));
            assertThat(env).as(env.get("output")).containsKey("RUNAWAY_FIRST_LEVER_CGROUP");
            assertThat(env.get("RUNAWAY_FIRST_LEVER_SELECTOR")).startsWith(option.substring(2) + ":");
            assertThat(java.nio.file.Files.readString(pidsMax).trim()).isEqualTo("0");
            env.put("RUNAWAY_FIRST_LEVER_PID", Long.toString(ProcessHandle.current().pid())); // this JVM stands in for the launcher's

            Run stopped = run("", env, "stop", option, value, "--yes", "--json");
            assertThat(stopped.status()).as(stopped.err() + stopped.out()).isZero();
            JsonNode plan = new ObjectMapper().readTree(stopped.out()).get("plan");
            assertThat(plan.get("firstLever").get("frozen").asBoolean()).isTrue();
            assertThat(plan.get("earlyFreeze").get("kept").asBoolean()).as(plan.get("earlyFreeze").toString()).isTrue();
            assertThat(plan.get("lever").asText()).isEqualTo("FREEZE_CGROUP");
            assertThat(drill.sandbox().memberPids()).isEmpty();
            assertThat(java.nio.file.Files.readString(pidsMax).trim()).isEqualTo(before);
        }
    }

    /**
     * runaway-rt's own kill (issue 37): the drill alone in its cgroup, every member the selector's
     * by its own rule, so runaway-rt kills it before the JVM; the stop then confirms zero, puts
     * pids.max back and says which path killed.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"--command", "--pid", "--chain", "--cgroup"})
    void theLaunchersOwnKillIsConfirmedAndReportedByTheStop(String option, @org.junit.jupiter.api.io.TempDir java.nio.file.Path temp)
            throws Exception {
        // A key's drill runs its copied tool (orphans: every one is the key's whoever its parent); a chain's is linear.
        try (Drill drill = Drills.start(option.equals("--command") ? Scenario.ORPHANS : Scenario.LINEAR, 45, Duration.ofMinutes(2), false);
             dev.runaway.sandbox.Sandbox launcher = dev.runaway.sandbox.Sandboxes.create(dev.runaway.sandbox.SandboxSpec.of("test-stop-launcher", 8))) {
            dev.runaway.sandbox.Caps.awaitRefusedFork(drill.sandbox(), 30);
            var dirs = ((dev.runaway.sandbox.CgroupSandbox) drill.sandbox()).dirs();
            java.nio.file.Path pidsMax = dirs.pids().resolve("pids.max");
            String before = java.nio.file.Files.readString(pidsMax).trim();
            String value = selectorValue(option, drill);

            java.util.Map<String, String> env = new java.util.HashMap<>(
                    dev.runaway.stop.FirstLeverLaunchTest.run(launcher, temp, true, "stop", option, value, "--yes", "--json"));
            assertThat(env).as(env.get("output")).containsKey("RUNAWAY_FIRST_LEVER_KILLED_AT");
            env.put("RUNAWAY_FIRST_LEVER_PID", Long.toString(ProcessHandle.current().pid())); // this JVM stands in for the launcher's

            Run stopped = run("", env, "stop", option, value, "--yes", "--json");
            assertThat(stopped.status()).as(stopped.err() + stopped.out()).isZero();
            JsonNode json = new ObjectMapper().readTree(stopped.out());
            assertThat(json.get("kill").get("by").asText()).isEqualTo("RUNAWAY_RT");
            assertThat(json.get("kill").get("rtKill").asText()).isEqualTo("KILLED");
            assertThat(json.get("status").asText()).isEqualTo("ZERO_CONFIRMED");
            assertThat(json.get("plan").get("firstLever").get("killed").asBoolean()).isTrue();
            assertThat(json.get("timings").get("launcherToZero").asLong()).isNotNegative();
            assertThat(drill.sandbox().memberPids()).isEmpty();
            assertThat(java.nio.file.Files.readString(pidsMax).trim()).isEqualTo(before);
            assertThat(java.nio.file.Files.readString(dirs.unified().resolve("cgroup.freeze")).trim()).isEqualTo("0");
        }
    }

    /** What OPTION names of the drill: its cgroup, its copied tool, or its chain's top. */
    private static String selectorValue(String option, Drill drill) {
        var dirs = ((dev.runaway.sandbox.CgroupSandbox) drill.sandbox()).dirs();
        return switch (option) {
            case "--cgroup" -> "/" + java.nio.file.Path.of("/sys/fs/cgroup/unified").relativize(dirs.unified());
            case "--command" -> drill.folder().resolve("cache/tool").toString();
            default -> Integer.toString(topOf(drill.sandbox().memberPids()));
        };
    }

    /** The chain's top: the member whose parent is no member. */
    private static int topOf(java.util.Set<Integer> members) {
        var proc = java.nio.file.Path.of("/proc");
        return members.stream().filter(pid -> dev.runaway.procfs.ProcStat.read(proc, pid).map(st -> !members.contains(st.ppid())).orElse(false))
                .findFirst().orElseThrow();
    }

    @Test
    void refusalsAreInWordsWithTheirOwnStatus() {
        Run init = run("", "stop", "--pid", "1", "--yes");
        assertThat(init.status()).isEqualTo(4);
        assertThat(init.err()).contains("refused: pid 1 is init");
        Run self = run("", "stop", "--pid", Long.toString(ProcessHandle.current().pid()), "--yes");
        assertThat(self.status()).as(self.out() + self.err()).isEqualTo(4);
        assertThat(self.err()).contains("is this console");
        Run root = run("", "stop", "--cgroup", "/", "--yes");
        assertThat(root.status()).isEqualTo(4);
        Run nothing = run("", "stop", "--command", "/no/such/binary", "--yes");
        assertThat(nothing.status()).isEqualTo(4);
        assertThat(nothing.err()).contains("nothing matches");
        Run none = run("", "stop");
        assertThat(none.status()).isEqualTo(2);
    }

    @Test
    void aLaunchTimeSetForAnotherProcessIsNotTaken() {
        StopCommand stop = new StopCommand();
        long jvmStart = ProcessHandle.current().info().startInstant().orElseThrow().toEpochMilli() * 1000;
        String self = Long.toString(ProcessHandle.current().pid());
        stop.environment = java.util.Map.of(StopCommand.LAUNCHED_AT, "1000.000001", StopCommand.LAUNCHED_PID, self);
        assertThat(stop.launchedAtMicros()).as("the launcher that exec'd this JVM").isEqualTo(1_000_000_001L);
        // A console's shell passes its own launch time on to a stop typed in it: minutes stale.
        stop.environment = java.util.Map.of(StopCommand.LAUNCHED_AT, "1000.000001", StopCommand.LAUNCHED_PID, "1");
        assertThat(stop.launchedAtMicros()).as("inherited: this JVM's own start instead").isBetween(jvmStart, jvmStart + 1000);
        stop.environment = java.util.Map.of(StopCommand.LAUNCHED_AT, "1000.000001");
        assertThat(stop.launchedAtMicros()).isBetween(jvmStart, jvmStart + 1000);
    }
}
