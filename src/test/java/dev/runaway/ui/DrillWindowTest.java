package dev.runaway.ui;

import dev.runaway.drill.Drill;
import dev.runaway.drill.Drills;
import dev.runaway.drill.Scenario;
import dev.runaway.sandbox.CgroupSandbox;
import dev.runaway.sandbox.SandboxMonitor;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The drill window, headless (Monocle), on a real fanout drill capped at 20 tasks: the figures
 * and the chart follow the sandbox, and the button tears it down to a confirmed zero.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class DrillWindowTest {
    private Drill drill;
    private SandboxMonitor monitor;
    private DrillWindow window;

    @BeforeEach
    void open() throws Exception {
        FxToolkit.registerPrimaryStage();
        drill = Drills.start(Scenario.FANOUT, 20, Duration.ofMinutes(2), false);
        monitor = new SandboxMonitor(drill.sandbox());
        window = new DrillWindow(drill, monitor);
        FxToolkit.setupSceneRoot(window::build);
        FxToolkit.showStage();
        monitor.start(Duration.ofMillis(100));
    }

    @AfterEach
    void close() throws Exception {
        monitor.close();
        drill.teardown();
        FxToolkit.cleanupStages();
    }

    @Test
    void showsTheDrillGrowingToItsCapAndTearsItDownToZero() throws Exception {
        Label tasks = window.tasksFigure;
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> tasks.getText().equals("20 / 20"));
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> !window.refusedFigure.getText().equals("0")
                && !window.refusedFigure.getText().equals("-"));
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS,
                () -> window.tasks.lock().readLockGuard(() -> window.tasks.getDataCount()) >= 5);
        double last = window.tasks.lock().readLockGuard(() -> window.tasks.get(1, window.tasks.getDataCount() - 1));
        assertThat(last).as("the chart's newest task count").isEqualTo(20.0);

        FxRobot robot = new FxRobot();
        Button button = robot.lookup(".button").queryButton();
        assertThat(button.getText()).startsWith("Tear down drill");
        robot.clickOn(button);
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> window.status.getText().startsWith("Zero confirmed"));
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(button.getText()).isEqualTo("Close");
        assertThat(((CgroupSandbox) drill.sandbox()).dirs().all()).allSatisfy(d -> assertThat(d).doesNotExist());
        assertThat(drill.folder()).doesNotExist();
    }
}
