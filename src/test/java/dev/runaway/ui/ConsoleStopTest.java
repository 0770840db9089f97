// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.ui;

import dev.runaway.view.ConsoleRow;
import dev.runaway.drill.Drill;
import dev.runaway.drill.Drills;
import dev.runaway.drill.Scenario;
import dev.runaway.model.ProcessIdentity;
import dev.runaway.procfs.ProcStat;
import dev.runaway.sandbox.Caps;
import dev.runaway.timeline.EventKind;
import dev.runaway.timeline.TimelineEvent;
import javafx.scene.control.TreeItem;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The console, headless (Monocle), on a real orphans drill capped at 60 tasks that shares its
 * cgroup with a bystander (as a runaway shares a terminal's cgroup with the user's shell): the
 * drill's group is selected, the stop button opens the plan (revoke exec on the disposable
 * binary, since no cgroup holds only the targets), one confirmation runs it to "zero
 * confirmed", the execute bits come back as they were, the bystander lives, and every step is
 * on the timeline and marked on the tasks chart.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("process")
@org.junit.jupiter.api.Tag("window")
class ConsoleStopTest {
    private static final Path PROC = Path.of("/proc");
    private ConsoleSession session;
    private Drill drill;
    private ConsoleWindow window;
    private Process bystander;

    @BeforeEach
    void open() throws Exception {
        FxToolkit.registerPrimaryStage();
        drill = Drills.start(Scenario.ORPHANS, 60, Duration.ofMinutes(2), false);
        bystander = drill.sandbox().start(new ProcessBuilder("sleep", "300"));
        session = ConsoleSession.live(Optional.empty());
        session.adopt(drill);
        window = TestWindows.open(session, false);
    }

    @AfterEach
    void close() throws Exception {
        FxToolkit.cleanupStages();
        session.close(); // tears the drill (and the bystander with it) down
    }

    @Test
    void selectStopConfirmZeroConfirmedAndTheExecuteBitsComeBack() throws Exception {
        Path tool = drill.folder().resolve("cache/tool");
        int modeBefore = mode(tool);
        ProcessIdentity shell = ProcStat.read(PROC, (int) bystander.pid()).orElseThrow().identity();
        Caps.awaitRefusedFork(drill.sandbox(), 40);
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> selected() != null && selected().command().equals(tool.toString()));
        assertThat(window.banner.getText()).startsWith("DRILL  " + drill.info().id());
        assertThat(window.stopButton.isDisabled()).isFalse();

        // The plan's and the stop's threads are there before STOP: one started during a fire waits its turn, and its starter with it.
        assertThat(Thread.getAllStackTraces().keySet()).filteredOn(t -> t.getName().equals("runaway-stop-worker")).hasSizeGreaterThanOrEqualTo(3);
        FxRobot robot = new FxRobot();
        robot.clickOn(window.stopButton);
        StopPanel panel = window.stopPanel;
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> !panel.confirm.isDisabled());
        assertThat(panel.plan.getText()).contains("Stop plan for " + tool).contains("1. Stop growth: ")
                .contains("not: ").contains("4. Restore: execute bits back as recorded");
        assertThat(panel.confirm.getText()).matches("Stop \\d+ processes");
        // During a fire an ordinary thread waits seconds for a CPU: while the plan waits for Enter,
        // the thread that handles it is real-time and the stop's thread is already running, raised.
        assertThat(ThreadPolicy.onFx()).as("the JavaFX thread while the plan waits").isEqualTo(ThreadPolicy.SCHED_RR);
        // ...and the toolkit's others: its renderer, which it waits for at every frame (and with GTK, runLater's dispatcher).
        assertThat(ToolkitThreads.others()).isNotEmpty().allSatisfy(tid -> assertThat(ThreadPolicy.of(tid)).isEqualTo(ThreadPolicy.SCHED_RR));
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.getName().equals("runaway-stop-run") && t.getState() == Thread.State.WAITING));

        robot.clickOn(panel.confirm);
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> panel.state.getText().startsWith("Zero confirmed")
                || panel.state.getText().startsWith("Zero NOT"));
        assertThat(panel.state.getText()).startsWith("Zero confirmed").contains("Restored " + tool + " to mode 755");
        // Lowered again, unless the machine is overloaded (a busy suite): then the window keeps them raised.
        int expected = onFx(window::raisedForOverload) ? ThreadPolicy.SCHED_RR : ThreadPolicy.SCHED_OTHER;
        assertThat(ThreadPolicy.onFx()).as("the JavaFX thread once the stop is done").isEqualTo(expected);
        assertThat(ToolkitThreads.others()).allSatisfy(tid -> assertThat(ThreadPolicy.of(tid)).isEqualTo(expected));
        assertThat(panel.steps.getItems()).anyMatch(s -> s.startsWith("stop growth"))
                .anyMatch(s -> s.startsWith("confirm zero")).anyMatch(s -> s.startsWith("restore"));
        assertThat(mode(tool)).as("execute bits back as recorded").isEqualTo(modeBefore).isEqualTo(0755);
        assertThat(drill.sandbox().memberPids()).as("only the bystander is left").containsExactly(shell.pid());
        assertThat(session.timeline().events()).filteredOn(e -> e.kind() == EventKind.STOP_STEP)
                .extracting(TimelineEvent::title).contains("stop growth", "kill", "confirm zero", "restore");
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> window.charts.markers() >= 4);

        // The finished panel keeps Close, Stop again and Open report, each with its words whole (issue 38).
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(onFx(() -> java.util.stream.Stream.of(panel.close, panel.again, panel.report)
                .allMatch(b -> b.isVisible() && b.getWidth() >= b.prefWidth(-1) - 0.5))).isTrue();
        assertThat(panel.offer().phase()).isEqualTo(dev.runaway.view.StopOffer.Phase.DONE);
        robot.clickOn(panel.close);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(panel.card.getParent().isVisible()).isFalse();
    }

    private static boolean onFx(java.util.function.BooleanSupplier read) throws Exception {
        return WaitForAsyncUtils.asyncFx(read::getAsBoolean).get(10, TimeUnit.SECONDS);
    }

    private ConsoleRow selected() {
        TreeItem<ConsoleRow> item = window.table.view.getSelectionModel().getSelectedItem();
        return ChainTree.current(item);
    }

    private static int mode(Path file) throws Exception {
        return (Integer) Files.getAttribute(file, "unix:mode") & 07777;
    }
}
