// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop;

import dev.runaway.stop.target.TargetRescan;
import dev.runaway.stop.act.Actuator;
import dev.runaway.stop.act.Pidfd;
import dev.runaway.sys.Signal;
import dev.runaway.stop.plan.Disposable;
import dev.runaway.stop.plan.Lever;
import dev.runaway.stop.plan.Planner;
import dev.runaway.stop.plan.StopPlan;
import dev.runaway.stop.run.StopEngine;
import dev.runaway.stop.target.Targets;
import dev.runaway.drill.Drill;
import dev.runaway.drill.Drills;
import dev.runaway.drill.Scenario;
import dev.runaway.model.ProcessIdentity;
import dev.runaway.procfs.ProcStat;
import dev.runaway.procfs.PulseReader;
import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import dev.runaway.testing.Alive;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The guided stop on real drills at full growth, caps as literals: each lever in turn, zero
 * confirmed, nothing outside the targets touched, and what was changed put back.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("process")
class StopEngineTest {
    private static final Path PROC = Path.of("/proc");
    private static final Duration LIFETIME = Duration.ofMinutes(3);
    private static PulseReader pulse;

    @BeforeAll
    static void pulse() {
        pulse = PulseReader.live();
    }

    @Test
    void orphansInTheirOwnCgroupAreStoppedByFreezingIt() throws Exception {
        try (Sandbox bystanders = Sandboxes.create(SandboxSpec.of("test-stop-bystander", 4));
             Drill drill = Drills.start(Scenario.ORPHANS, 60, LIFETIME, false)) {
            ProcessIdentity bystander = startSleeper(bystanders);
            String tool = drill.folder().resolve("cache/tool").toString();
            awaitCap(drill);
            StopPlan plan = plan(tool, true);
            // Said in full: it once chose QUARANTINE in a suite run (flaky under load, not yet explained).
            assertThat(plan.chosen()).as(String.join("\n", plan.describe())).isEqualTo(Lever.FREEZE_CGROUP);
            StopEngine.Outcome outcome = run(plan);
            assertThat(outcome.zeroConfirmed()).as(outcome.steps().toString()).isTrue();
            assertThat(drill.sandbox().memberPids()).isEmpty();
            assertThat(alive(bystander)).as("a process outside the targets").isTrue();
            assertThat(outcome.steps()).extracting(dev.runaway.stoporder.StopStep::step)
                    .containsSubsequence("stop growth", "kill", "confirm zero", "restore");
        }
    }

    @Test
    void orphansSharingTheirCgroupAreStoppedByRevokingExecAndTheModeComesBack() throws Exception {
        try (Drill drill = Drills.start(Scenario.ORPHANS, 60, LIFETIME, false)) {
            ProcessIdentity shell = startSleeper(drill.sandbox()); // the user's shell, in the same cgroup
            Path tool = drill.folder().resolve("cache/tool");
            awaitCap(drill);
            StopPlan plan = plan(tool.toString(), true);
            assertThat(plan.refused().get(Lever.FREEZE_CGROUP)).contains("pid " + shell.pid() + " (sleep), not a target, shares the cgroup");
            assertThat(plan.chosen()).as(String.join("\n", plan.describe())).isEqualTo(Lever.REVOKE_EXEC);
            assertThat(plan.binaries()).containsExactly(tool.toString());
            int before = mode(tool);
            StopEngine.Outcome outcome = run(plan);
            assertThat(outcome.zeroConfirmed()).as(outcome.steps().toString()).isTrue();
            assertThat(drill.sandbox().memberPids()).containsExactly(shell.pid());
            assertThat(mode(tool)).as("execute bits back as recorded").isEqualTo(before).isEqualTo(0755);
            assertThat(outcome.restoredModes()).containsEntry(tool.toString(), 0755);
        }
    }

    @Test
    void aScriptRunByAnInterpreterIsNotRevokedAndGoesToQuarantine() throws Exception {
        try (Drill drill = Drills.start(Scenario.RECURSIVE, 40, LIFETIME, false)) {
            ProcessIdentity shell = startSleeper(drill.sandbox());
            awaitCap(drill);
            String deploy = drill.folder().resolve("deploy.sh").toString();
            StopPlan plan = plan(deploy, true);
            assertThat(plan.refused().get(Lever.REVOKE_EXEC)).contains("a script started through an interpreter");
            assertThat(plan.chosen()).isEqualTo(Lever.QUARANTINE);
            StopEngine.Outcome outcome = run(plan);
            assertThat(outcome.zeroConfirmed()).as(outcome.steps().toString()).isTrue();
            assertThat(drill.sandbox().memberPids()).containsExactly(shell.pid());
            assertThat(Files.list(Path.of("/sys/fs/cgroup/unified")).map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith("runaway-quarantine.")).toList()).as("quarantine removed").isEmpty();
        }
    }

    @Test
    void withoutQuarantineASigstopSweepStopsAGrowingFanout() throws Exception {
        try (Drill drill = Drills.start(Scenario.FANOUT, 80, LIFETIME, false)) {
            ProcessIdentity shell = startSleeper(drill.sandbox());
            awaitCap(drill);
            String worker = ProcStat.read(PROC, (int) drill.info().rootPid()).map(s -> exe((int) drill.info().rootPid())).orElseThrow();
            // No disposable roots, whatever folder the checkout is in: revoke is out, and so is quarantine.
            StopPlan plan = new Planner(new Disposable(List.of(), Path.of("/nonexistent-home")), false)
                    .plan(TargetRescan.ofCommand(PROC, worker, pulse).get());
            assertThat(plan.chosen()).isEqualTo(Lever.SIGSTOP_SWEEP);
            StopEngine.Outcome outcome = run(plan);
            assertThat(outcome.zeroConfirmed()).as(outcome.steps().toString()).isTrue();
            assertThat(drill.sandbox().memberPids()).containsExactly(shell.pid());
        }
    }

    @Test
    void aLinearChainInItsOwnCgroupGoesToZero() throws Exception {
        try (Drill drill = Drills.start(Scenario.LINEAR, 60, LIFETIME, false)) {
            awaitCap(drill);
            String worker = exe((int) drill.info().rootPid());
            StopPlan plan = plan(worker, true);
            assertThat(plan.chosen()).isEqualTo(Lever.FREEZE_CGROUP);
            StopEngine.Outcome outcome = run(plan);
            assertThat(outcome.zeroConfirmed()).as(outcome.steps().toString()).isTrue();
            assertThat(drill.sandbox().memberPids()).isEmpty();
        }
    }

    @Test
    void aSwarmOutrunsAKillLoopByPidButNotTheGuidedStop() throws Exception {
        // Every process forks again and again and reaps its killed children at once: each pid a
        // kill round frees is taken again before the round ends. The loop is what a person types
        // first: every 100 ms, SIGKILL each pid it sees running the binary (in this sandbox only).
        String sandboxBin = dev.runaway.sandbox.NativeBinaries.find(dev.runaway.sandbox.NativeBinaries.SANDBOX).toString();
        String worker = dev.runaway.sandbox.NativeBinaries.find(dev.runaway.sandbox.NativeBinaries.DRILL_WORKER).toString();
        try (Sandbox swarm = Sandboxes.create(SandboxSpec.of("test-stop-swarm", 300));
             Sandbox loop = Sandboxes.create(SandboxSpec.of("test-stop-killloop", 16))) {
            swarm.start(new ProcessBuilder(sandboxBin, "reap", "--", worker, "swarm", "5").redirectError(ProcessBuilder.Redirect.DISCARD));
            dev.runaway.sandbox.Caps.awaitRefusedFork(swarm, 20);
            Path procs = ((dev.runaway.sandbox.CgroupSandbox) swarm).dirs().memberDir().resolve("cgroup.procs");
            Process killer = loop.start(new ProcessBuilder("/bin/bash", "-c", "while :; do for p in $(cat " + procs + "); do"
                    + " [ \"$(readlink /proc/$p/exe)\" = " + worker + " ] && kill -9 $p 2>/dev/null; done; sleep 0.1; done")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD));
            Thread.sleep(3000);
            loop.teardown();
            // Killed with its sandbox; the JVM learns it once its reaper thread has waited for it (slow under load).
            assertThat(killer.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).as("the kill loop ended with its sandbox").isTrue();
            assertThat(swarm.memberPids().size()).as("after 3 s of kill rounds by pid, the swarm is still at its cap").isGreaterThan(200);

            // No disposable roots, wherever the checkout is: a cgroup lever stops the swarm growing.
            StopPlan plan = new Planner(new Disposable(List.of(), Path.of("/nonexistent-home")), true)
                    .plan(TargetRescan.ofCommand(PROC, worker, pulse).get());
            assertThat(plan.chosen()).isIn(Lever.FREEZE_CGROUP, Lever.QUARANTINE);
            long started = System.nanoTime();
            StopEngine.Outcome outcome = run(plan);
            System.out.printf("swarm of %d: %s, zero after %d ms (whole stop %d ms)%n", plan.members().size(), plan.chosen(),
                    outcome.millisToZero(), (System.nanoTime() - started) / 1_000_000);
            assertThat(outcome.zeroConfirmed()).as(outcome.steps().toString()).isTrue();
            assertThat(swarm.memberPids()).as("nothing but the reaper, if it is still there").hasSizeLessThanOrEqualTo(1);
        }
    }

    @Test
    void aReusedPidGetsNoSignal() throws Exception {
        try (Sandbox box = Sandboxes.create(SandboxSpec.of("test-stop-reuse", 4))) {
            ProcessIdentity sleeper = startSleeper(box);
            ProcessIdentity stale = new ProcessIdentity(sleeper.pid(), sleeper.startTicks() - 1); // "the same pid, earlier"
            assertThat(Pidfd.signal(PROC, stale, Signal.SIGKILL)).isEqualTo(Pidfd.Result.GONE);
            Thread.sleep(200);
            assertThat(alive(sleeper)).as("the process now holding the pid").isTrue();
            assertThat(Pidfd.signal(PROC, sleeper, Signal.SIGKILL)).isEqualTo(Pidfd.Result.SENT);
        }
    }

    private static StopPlan plan(String command, boolean root) {
        Targets targets = TargetRescan.ofCommand(PROC, command, pulse).get();
        assertThat(targets.samples()).as("targets for " + command).isNotEmpty();
        return new Planner(Disposable.forThisUser(), root).plan(targets);
    }

    private static StopEngine.Outcome run(StopPlan plan) {
        List<dev.runaway.stoporder.StopStep> seen = new ArrayList<>();
        try (Actuator actuator = new Actuator(PROC, () -> null)) {
            StopEngine.Outcome outcome = new StopEngine(actuator, TargetRescan.ofCommand(PROC, plan.command(), pulse), seen::add)
                    .run(plan, false);
            assertThat(seen).as("live steps").isEqualTo(outcome.steps());
            return outcome;
        }
    }

    private static void awaitCap(Drill drill) throws InterruptedException {
        dev.runaway.sandbox.Caps.awaitRefusedFork(drill.sandbox(), 40);
    }

    private static ProcessIdentity startSleeper(Sandbox box) throws Exception {
        Process p = box.start(new ProcessBuilder("sleep", "300"));
        return ProcStat.read(PROC, (int) p.pid()).orElseThrow().identity();
    }

    private static boolean alive(ProcessIdentity id) {
        return Alive.is(id);
    }

    private static int mode(Path file) throws Exception {
        return (Integer) Files.getAttribute(file, "unix:mode") & 07777;
    }

    private static String exe(int pid) {
        try {
            return Files.readSymbolicLink(PROC.resolve(pid + "/exe")).toString();
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }
}
