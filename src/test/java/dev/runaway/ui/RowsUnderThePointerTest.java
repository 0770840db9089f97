package dev.runaway.ui;

import dev.runaway.analysis.Group;
import dev.runaway.analysis.GrowthFit;
import dev.runaway.analysis.GrowthShape;
import dev.runaway.view.ConsoleRow;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
import javafx.geometry.Point2D;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.TreeTableRow;
import javafx.util.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.OptionalDouble;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A table a hand can use: while the groups re-sort several times a second (as on a busy
 * machine), a click on the drill's row selects the drill, every time.
 */
@Tag("window")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RowsUnderThePointerTest {
    private static final String DRILL = "/tmp/runaway-drill-cap/worker";
    private Timeline shuffle;

    @AfterEach
    void close() throws Exception {
        if (shuffle != null) WaitForAsyncUtils.asyncFx(shuffle::stop).get();
        FxToolkit.cleanupStages();
    }

    private static Group group(String command, int tasks) {
        return new Group(command, tasks, List.of(), false, false, List.of(), 1, tasks * 4096L,
                new GrowthFit(GrowthShape.STEADY, 0, 0), 0, OptionalDouble.empty(), "", List.of(), "", -1);
    }

    @Test
    void aClickOnTheDrillsRowSelectsItEveryTimeWhileRowsWouldReSort() throws Exception {
        List<Group> groups = new ArrayList<>();
        groups.add(group(DRILL, 599));
        for (int i = 0; i < 14; i++) groups.add(group("/usr/bin/tool-" + i, 10 + i));
        ChainTree tree = new ChainTree();
        AtomicReference<ChainTable> table = new AtomicReference<>();
        FxToolkit.registerPrimaryStage();
        FxToolkit.setupStage(stage -> {
            table.set(new ChainTable(tree));
            tree.show(groups);
            stage.setScene(new Scene(table.get().view, 900, 500));
            stage.show();
            // A new order five times a second, shown as the console shows a scan.
            Random random = new Random(7);
            shuffle = new Timeline(new KeyFrame(Duration.millis(200), e -> {
                List<Group> next = new ArrayList<>(groups);
                Collections.shuffle(next, random);
                tree.show(next);
            }));
            shuffle.setCycleCount(Timeline.INDEFINITE);
            shuffle.play();
        });
        ChainTable t = table.get();
        FxRobot robot = new FxRobot();
        Node header = robot.lookup(".column-header-background").query();
        Point2D outside = t.view.localToScreen(t.view.getWidth() + 40, t.view.getHeight() / 2);

        List<Integer> places = new ArrayList<>();
        for (int attempt = 0; attempt < 5; attempt++) {
            robot.moveTo(outside);
            int before = rowIndexOf(t, robot);
            WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> rowIndexOf(t, robot) != before); // rows move while free
            robot.moveTo(header); // the hand comes to the table: from now on rows hold still
            WaitForAsyncUtils.sleep(250, TimeUnit.MILLISECONDS); // a re-sort would have happened by now
            TreeTableRow<?> row = drillRow(robot);
            places.add(row.getIndex());
            robot.clickOn(row);
            WaitForAsyncUtils.waitForFxEvents();
            ConsoleRow selected = ChainTree.current(t.view.getSelectionModel().getSelectedItem());
            assertThat(selected).as("attempt %d", attempt).isNotNull();
            assertThat(selected.command()).as("attempt %d: the row under the pointer was selected", attempt).isEqualTo(DRILL);
        }
        assertThat(places).as("the drill was at several places across the attempts").hasSizeGreaterThan(1);
    }

    private static TreeTableRow<?> drillRow(FxRobot robot) {
        for (Node n : robot.lookup(".tree-table-row-cell").queryAll()) {
            if (n instanceof TreeTableRow<?> r && r.getTreeItem() != null && r.getTreeItem().getValue() != null
                    && ((ConsoleRow) r.getTreeItem().getValue()).command().equals(DRILL)) return r;
        }
        throw new AssertionError("the drill's row is not on screen");
    }

    private static int rowIndexOf(ChainTable t, FxRobot robot) {
        for (int i = 0; i < t.view.getExpandedItemCount(); i++) {
            var item = t.view.getTreeItem(i);
            if (item != null && item.getValue() != null && item.getValue().command().equals(DRILL)) return i;
        }
        return -1;
    }
}
