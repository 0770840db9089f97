// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.ui;

import dev.runaway.analysis.Group;
import dev.runaway.view.ConsoleRow;
import dev.runaway.view.ConsoleState;
import dev.runaway.view.RowOrder;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.control.TreeItem;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The left of the window: the filter and the one STOP button over the chains view (by command)
 * and the cgroup lens. Rows placed anew keep the selection on its row's identity; the window
 * opens on the runaway as its view model decides ({@link ConsoleState#openOn}).
 */
final class ChainsPane {
    final ChainTree tree = new ChainTree();
    final ChainTable table = new ChainTable(tree);
    final CgroupTable cgroupTable = new CgroupTable();
    final TabPane lenses = new TabPane();
    final TextField filter = new TextField();
    final Button stopButton = new Button("STOP…");
    final Label orderCue = new Label();
    /** Whether the cue now shows the re-sort flash's words (cleared when the flash ends), not the held order's. */
    private boolean cueShowsResort;
    final VBox node;
    private final ConsoleState state;

    /** @param chosen a row a person chose (the charts and the memory watch follow it) */
    ChainsPane(ConsoleState state, Runnable stop, Consumer<ConsoleRow> chosen) {
        this.state = state;
        filter.setPromptText("filter: command or pid (Ctrl+F)");
        filter.textProperty().addListener((o, was, is) -> {
            tree.filter(is);
            table.view.setPlaceholder(new Label(is.isBlank() ? "Waiting for the first scan..." : "No row matches \"" + is.strip() + "\""));
            table.view.sort();
            restoreSelection();
        });
        HBox.setHgrow(filter, Priority.ALWAYS);
        stopButton.getStyleClass().add("stop-button");
        stopButton.setDisable(true);
        stopButton.setOnAction(e -> stop.run());
        stopButton.setMinWidth(Region.USE_PREF_SIZE);
        stopButton.setTooltip(new Tooltip(state.live()
                ? "The guided stop of the selected group, chain or process (Ctrl+K): the plan first, then one confirmation"
                : "A recording: nothing here can be stopped"));
        HBox tools = new HBox(10, filter, stopButton);
        tools.setAlignment(Pos.CENTER_LEFT);
        tools.setPadding(new Insets(6));
        orderCue.getStyleClass().add("caption");
        orderCue.setPadding(new Insets(0, 6, 2, 6));
        table.view.getSelectionModel().selectedItemProperty().addListener((o, was, is) -> {
            ConsoleRow row = is == null ? null : is.getValue();
            if (state.selected(row)) chosen.accept(row);
            stopButton.setDisable(!state.stopOffered(row));
        });
        Tab byCommand = new Tab("By command", table.view);
        Tab byCgroup = new Tab("By cgroup", cgroupTable.view);
        byCgroup.setTooltip(new Tooltip("The machine by cgroup: a runaway of copied or renamed binaries is many small command groups but one cgroup"));
        lenses.getTabs().addAll(byCommand, byCgroup);
        lenses.setTabClosingPolicy(TabPane.TabClosingPolicy.UNAVAILABLE);
        node = new VBox(tools, orderCue, lenses);
        VBox.setVgrow(lenses, Priority.ALWAYS);
    }

    /** The rows of a live scan, made off this thread; then the window opens on the runaway if it has not yet. */
    void showLive(ChainTree.Prepared rows, List<dev.runaway.analysis.CgroupLoad> cgroups, List<Group> groups,
                  Optional<ConsoleState.DrillRun> drill) {
        boolean selectedInView = selectedInView();
        String first = state.firstRow();
        tree.first(first);
        placeRows(() -> tree.show(rows));
        cgroupTable.show(cgroups);
        afterTreeChange(drill, groups);
        if (state.firstRow() != null && !state.firstRow().equals(first)) {
            // The window just opened on the runaway: placed first now, and the table scrolled to it.
            tree.first(state.firstRow());
            placeRows(() -> tree.show(rows));
            restoreSelection();
            table.view.scrollTo(0);
        } else {
            keepInView(selectedInView);
        }
    }

    /** A recording's rows: no chains, nothing to open on. */
    void showRecorded(dev.runaway.timeline.GroupScan scan) {
        placeRows(() -> tree.showRecorded(scan.groups()));
        cgroupTable.show(scan.cgroups()); // empty for recordings made before the lens was kept
        afterTreeChange(Optional.empty(), List.of());
    }

    /** Rows placed anew move the selection by index onto another group: not a choice; restoreSelection puts it back. */
    private void placeRows(Runnable place) {
        state.placing(true);
        try {
            place.run();
        } finally {
            state.placing(false);
        }
    }

    private void afterTreeChange(Optional<ConsoleState.DrillRun> drill, List<Group> groups) {
        RowOrder.Shown placed = tree.lastShown();
        // A column sort re-sorts only when the rows may move, like the severity order.
        if (!table.view.getSortOrder().isEmpty() && !tree.order.held(System.nanoTime())) table.view.sort();
        orderCue.setText(placed.pending() ? "order held while you point or type: rows re-sort when you leave the table" : "");
        cueShowsResort = false;
        if (placed.moved()) cueMoved();
        restoreSelection();
        openOnTheRunaway(drill, groups);
    }

    /** The selected row is among those the table shows (its virtual flow's visible cells). */
    private boolean selectedInView() {
        int row = table.view.getSelectionModel().getSelectedIndex();
        if (row < 0 || !(table.view.lookup(".virtual-flow") instanceof javafx.scene.control.skin.VirtualFlow<?> flow)) return false;
        var first = flow.getFirstVisibleCell();
        var last = flow.getLastVisibleCell();
        return first != null && last != null && row >= first.getIndex() && row <= last.getIndex();
    }

    /**
     * A re-sort (only when the pointer is away) moves the selected row, the one the charts follow:
     * if it was in view before, it stays in view, near the top.
     */
    private void keepInView(boolean wasInView) {
        if (!wasInView || !tree.lastShown().moved() || selectedInView()) return;
        int row = table.view.getSelectionModel().getSelectedIndex();
        if (row >= 0) table.view.scrollTo(Math.max(0, row - 2));
    }

    /** The rows just re-sorted: the table's frame flashes once, so a move is never silent. */
    private void cueMoved() {
        table.view.getStyleClass().add("reordered");
        orderCue.setText("re-sorted: most severe first");
        cueShowsResort = true;
        javafx.animation.PauseTransition end = new javafx.animation.PauseTransition(javafx.util.Duration.millis(900));
        end.setOnFinished(e -> {
            table.view.getStyleClass().remove("reordered");
            if (cueShowsResort) orderCue.setText("");
            cueShowsResort = false;
        });
        end.play();
    }

    /** Selection follows the row's identity (command key, chain top, pid in chain) while rows churn. */
    private void restoreSelection() {
        String key = state.selectedKey();
        TreeItem<ConsoleRow> selected = table.view.getSelectionModel().getSelectedItem();
        if (key == null || (selected != null && selected.getValue() != null && selected.getValue().key().equals(key)
                && table.view.getRow(selected) >= 0)) return;
        TreeItem<ConsoleRow> item = tree.find(key);
        if (item != null) table.view.getSelectionModel().select(item);
    }

    /** The runaway selected, its chains expanded (when a person can read them), scrolled near the top. */
    private void openOnTheRunaway(Optional<ConsoleState.DrillRun> drill, List<Group> groups) {
        state.openOn(shownGroups(), drill, groups).ifPresent(open -> {
            TreeItem<ConsoleRow> item = tree.find(open.key());
            TreeItem<ConsoleRow> before = open.collapse() == null ? null : tree.find(open.collapse());
            if (before != null && before != item) before.setExpanded(false);
            if (item == null) return;
            item.setExpanded(open.expand());
            table.view.getSelectionModel().select(item);
            table.view.scrollTo(Math.max(0, table.view.getRow(item) - 2));
        });
    }

    /** The group rows in the order the table shows them. */
    List<ConsoleRow> shownGroups() {
        List<ConsoleRow> shown = new ArrayList<>();
        for (TreeItem<ConsoleRow> g : tree.root().getChildren()) shown.add(g.getValue());
        return shown;
    }

    /**
     * The row the table draws at its top, when its cell is laid out and in sight (the window
     * showing, this tab chosen, no scroll past it); else null. What a person sees, not what the
     * model holds: rows given to the tree are drawn only at a later layout.
     */
    ConsoleRow topRowInSight() {
        javafx.scene.Scene scene = table.view.getScene();
        if (scene == null || scene.getWindow() == null || !scene.getWindow().isShowing()) return null;
        for (javafx.scene.Node n : table.view.lookupAll(".tree-table-row-cell")) {
            if (n instanceof javafx.scene.control.TreeTableRow<?> row && row.getIndex() == 0 && !row.isEmpty()
                    && row.getTreeItem() != null && row.getTreeItem().getValue() instanceof ConsoleRow && inSight(row)) {
                @SuppressWarnings("unchecked") // the only table of this pane holds ConsoleRow items
                TreeItem<ConsoleRow> item = (TreeItem<ConsoleRow>) row.getTreeItem();
                return ChainTree.current(item);
            }
        }
        return null;
    }

    private static boolean inSight(javafx.scene.Node node) {
        for (javafx.scene.Node n = node; n != null; n = n.getParent()) if (!n.isVisible()) return false;
        return true;
    }

    /** The selected row as it is now, or null. */
    ConsoleRow selected() {
        TreeItem<ConsoleRow> item = table.view.getSelectionModel().getSelectedItem();
        return item == null || item.getValue() == null ? null : ChainTree.current(item);
    }
}
