// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.ui;

import dev.runaway.view.ConsoleRow;
import dev.runaway.drill.Drill;
import dev.runaway.drill.Drills;
import dev.runaway.drill.Scenario;
import dev.runaway.sandbox.CgroupSandbox;
import javafx.scene.control.MenuItem;
import javafx.scene.control.TreeItem;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the drill window did, now in the console (headless): a real fanout drill capped at 20
 * tasks shows as its own selected group that grows to the cap, drawn on the tasks chart, and the
 * Drill menu tears it down to a confirmed zero with its sandbox removed.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("process")
@org.junit.jupiter.api.Tag("window")
class ConsoleDrillTest {
    private ConsoleSession session;

    @AfterEach
    void close() throws Exception {
        FxToolkit.cleanupStages();
        if (session != null) session.close();
    }

    @Test
    void aDrillGrowsToItsCapOnScreenAndTheMenuTearsItDown() throws Exception {
        FxToolkit.registerPrimaryStage();
        Drill drill = Drills.start(Scenario.FANOUT, 20, Duration.ofMinutes(2), false);
        session = TestWindows.liveOn(drill);
        ConsoleWindow window = TestWindows.open(session, false);

        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> selected(window) != null && selected(window).tasks() == 20);
        assertThat(drill.sandbox().memberPids()).hasSize(20);
        assertThat(window.banner.getText()).contains("DRILL").contains("cap 20 tasks");
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> window.charts.groupTasks.lock().readLockGuard(() -> {
            int n = window.charts.groupTasks.getDataCount();
            return n > 0 && window.charts.groupTasks.get(1, n - 1) == 20.0;
        }));

        MenuItem tearDown = window.menuItem("Tear the drill down");
        WaitForAsyncUtils.asyncFx(tearDown::fire).get();
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> window.status.getText().startsWith("Drill torn down"));
        assertThat(session.lastTeardown()).hasValueSatisfying(r -> assertThat(r.zeroConfirmed()).isTrue());
        assertThat(((CgroupSandbox) drill.sandbox()).dirs().all()).allSatisfy(d -> assertThat(d).doesNotExist());
        assertThat(drill.folder()).doesNotExist();
        WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> !window.banner.isVisible());
    }

    private static ConsoleRow selected(ConsoleWindow window) {
        TreeItem<ConsoleRow> item = window.table.view.getSelectionModel().getSelectedItem();
        return ChainTree.current(item);
    }
}
