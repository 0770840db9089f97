// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop;

import dev.runaway.stop.act.Actuator;
import dev.runaway.stop.plan.Disposable;
import dev.runaway.stop.plan.Lever;
import dev.runaway.stop.run.StopEngine;
import dev.runaway.drill.Drill;
import dev.runaway.drill.Drills;
import dev.runaway.drill.Scenario;
import dev.runaway.model.ProcessIdentity;
import dev.runaway.procfs.ProcStat;
import dev.runaway.procfs.PulseReader;
import dev.runaway.sandbox.CgroupSandbox;
import dev.runaway.testing.Alive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A plan confirmed in the window or the terminal whose first lever is not its cgroup's: growth
 * is stopped through that cgroup first when it holds only the key's processes by then (a plan
 * made from a partial table during a fire could not check it in time), and nothing is left
 * frozen or capped when it does not. Real drills, caps as literals (the drill's sandbox).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("process")
class StopCoreConfirmedTest {
    private static final Path PROC = Path.of("/proc");
    private static final Duration LIFETIME = Duration.ofMinutes(3);

    @Test
    void aCgroupThatHoldsOnlyTheKeysProcessesByTheConfirmationIsFrozenFirst() throws Exception {
        try (Drill drill = Drills.start(Scenario.ORPHANS, 60, LIFETIME, false);
             Actuator actuator = new Actuator(PROC, () -> null)) {
            Process shell = drill.sandbox().start(new ProcessBuilder("sleep", "300")); // another process in the cgroup, for now
            String tool = drill.folder().resolve("cache/tool").toString();
            dev.runaway.sandbox.Caps.awaitRefusedFork(drill.sandbox(), 40);
            StopCore core = new StopCore(PROC, PulseReader.live(), actuator, Disposable.forThisUser());
            StopSession shown = core.open(new Selector.Command(tool)).prepare();
            assertThat(shown.plan().chosen()).as(String.join("\n", shown.plan().describe())).isNotEqualTo(Lever.FREEZE_CGROUP);
            assertThat(StopCore.mayStopGrowthFirst(shown)).isTrue();
            shell.destroyForcibly().waitFor(); // gone by the time the user confirms

            StopCore.Confirmed confirmed = core.confirmed(shown);

            assertThat(confirmed.frozenFirst()).as(confirmed.why()).isPresent();
            assertThat(confirmed.millisToGrowthStopped()).isNotNegative();
            assertThat(shown.state()).isEqualTo(StopSession.State.CANCELLED);
            assertThat(confirmed.session().plan().chosen()).isEqualTo(Lever.FREEZE_CGROUP);
            StopEngine.Outcome outcome = confirmed.session().run(false, step -> { });
            assertThat(outcome.zeroConfirmed()).as(outcome.steps().toString()).isTrue();
            assertThat(drill.sandbox().memberPids()).isEmpty();
            assertThat((Integer) Files.getAttribute(Path.of(tool), "unix:mode") & 0777).as("no execute bit taken").isEqualTo(0755);
        }
    }

    @Test
    void aCgroupStillSharedIsThawedAndUncappedAtOnceAndThePlanShownRuns() throws Exception {
        try (Drill drill = Drills.start(Scenario.ORPHANS, 60, LIFETIME, false);
             Actuator actuator = new Actuator(PROC, () -> null)) {
            Process shell = drill.sandbox().start(new ProcessBuilder("sleep", "300"));
            ProcessIdentity shellId = ProcStat.read(PROC, (int) shell.pid()).orElseThrow().identity();
            String tool = drill.folder().resolve("cache/tool").toString();
            dev.runaway.sandbox.Caps.awaitRefusedFork(drill.sandbox(), 40);
            Path cgroup = ((CgroupSandbox) drill.sandbox()).dirs().memberDir();
            // The cap the early lever sets: the v2 file, or here the v1 pids cgroup's.
            Path pidsMaxFile = Files.exists(cgroup.resolve("pids.max")) ? cgroup.resolve("pids.max")
                    : ((CgroupSandbox) drill.sandbox()).dirs().capDir().resolve("pids.max");
            String pidsMax = Files.readString(pidsMaxFile).strip();
            StopCore core = new StopCore(PROC, PulseReader.live(), actuator, Disposable.forThisUser());
            StopSession shown = core.open(new Selector.Command(tool)).prepare();

            StopCore.Confirmed confirmed = core.confirmed(shown);

            assertThat(confirmed.frozenFirst()).isEmpty();
            assertThat(confirmed.why()).contains("pid " + shellId.pid());
            assertThat(confirmed.session()).isSameAs(shown);
            assertThat(Files.readString(cgroup.resolve("cgroup.freeze")).strip()).isEqualTo("0");
            assertThat(Files.readString(pidsMaxFile).strip()).isEqualTo(pidsMax);
            StopEngine.Outcome outcome = shown.run(false, step -> { });
            assertThat(outcome.zeroConfirmed()).as(outcome.steps().toString()).isTrue();
            assertThat(Alive.stat(shellId))
                    .as("the other process, never a target").isPresent();
        }
    }
}
