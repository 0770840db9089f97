// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.ui;

import dev.runaway.view.ConsoleRow;
import dev.runaway.analysis.GroupColumn;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.scene.control.Label;
import javafx.scene.control.TreeTableCell;
import javafx.scene.control.TreeTableColumn;
import javafx.scene.control.TreeTableView;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;

import java.util.Comparator;
import java.util.List;

/**
 * The chains view: a tree table over {@link ChainTree}, with the group columns of
 * {@link GroupColumn} (the same titles as {@code runaway top} and {@code scan}), the command
 * as the tree column with a badge for recursion (its cycle) or orphans, and numeric sorting by
 * tasks and by growth. Virtualized by TreeTableView: only visible rows have cells.
 */
final class ChainTable {
    final TreeTableView<ConsoleRow> view;

    ChainTable(ChainTree tree) {
        view = new TreeTableView<>(tree.root());
        // Rows hold still under the hand: while the pointer is over the table, and a few seconds
        // after a click or a key (see RowOrder). Filters, so cells and the sort header see them too.
        view.addEventFilter(javafx.scene.input.MouseEvent.MOUSE_ENTERED_TARGET, e -> tree.order.pointer(true));
        view.addEventFilter(javafx.scene.input.MouseEvent.MOUSE_MOVED, e -> tree.order.pointer(true));
        view.addEventFilter(javafx.scene.input.MouseEvent.MOUSE_EXITED, e -> {
            if (e.getTarget() == view) tree.order.pointer(false);
        });
        view.addEventFilter(javafx.scene.input.MouseEvent.MOUSE_PRESSED, e -> tree.order.touched(System.nanoTime()));
        view.addEventFilter(javafx.scene.input.KeyEvent.KEY_PRESSED, e -> tree.order.touched(System.nanoTime()));
        view.setShowRoot(false);
        view.setColumnResizePolicy(TreeTableView.UNCONSTRAINED_RESIZE_POLICY);
        view.setPlaceholder(new Label("Waiting for the first scan..."));
        view.getStyleClass().add("chains");
        TreeTableColumn<ConsoleRow, ConsoleRow> command = column(GroupColumn.COMMAND, Comparator.comparing(ConsoleRow::name));
        command.setCellFactory(c -> new CommandCell());
        command.setPrefWidth(290);
        command.setMinWidth(180);
        view.getColumns().add(command);
        view.setTreeColumn(command);
        for (GroupColumn c : TABLE_ORDER) {
            Comparator<ConsoleRow> order = switch (c) {
                case TASKS, CHAINS -> Comparator.comparingDouble(ConsoleRow::tasks);
                case GROWTH, RATE -> Comparator.comparingDouble(ConsoleRow::growth);
                default -> Comparator.comparing((ConsoleRow r) -> r.cells().get(c.ordinal()));
            };
            TreeTableColumn<ConsoleRow, ConsoleRow> col = column(c, order);
            col.setCellFactory(x -> new TextCell(c));
            col.setPrefWidth(Math.max(c.title().length() * 11 + 20, c.width() * 8));
            col.setMinWidth(c.title().length() * 9 + 22);
            view.getColumns().add(col);
        }
        // Only whole columns: those that do not fit the pane's width wait until it widens.
        view.widthProperty().addListener((o, was, now) -> fitColumns(now.doubleValue()));
    }

    private void fitColumns(double width) {
        var columns = view.getColumns();
        int shown = dev.runaway.view.ColumnFit.shown(columns.stream().map(TreeTableColumn::getPrefWidth).toList(),
                width - SCROLL_BAR);
        for (int i = 0; i < columns.size(); i++) columns.get(i).setVisible(i < shown);
    }

    /** Room kept for the vertical scroll bar and the table's border. */
    private static final double SCROLL_BAR = 20;

    /**
     * The columns after the command, in the table's order: what says a group is the runaway
     * (tasks, when it runs out, how fast it grows) first, so that RUNS OUT is in sight at 1,280 px
     * (it was off-screen at 1,400 in {@link GroupColumn}'s order, which top and the CSV keep).
     */
    static final List<GroupColumn> TABLE_ORDER = List.of(GroupColumn.TASKS, GroupColumn.EXHAUSTS, GroupColumn.RATE,
            GroupColumn.GROWTH, GroupColumn.MEMORY, GroupColumn.CPU, GroupColumn.CHAINS, GroupColumn.FLAGS, GroupColumn.STATES);

    private static TreeTableColumn<ConsoleRow, ConsoleRow> column(GroupColumn c, Comparator<ConsoleRow> order) {
        TreeTableColumn<ConsoleRow, ConsoleRow> col = new TreeTableColumn<>(c.title());
        // The live row, not the item's value: see ChainTree.RowItem for why values are not set.
        // No item: a cell whose row went with a new scan while JavaFX still lays it out (seen at
        // 20,000 pressing tasks, bench ui); it shows nothing until its next update.
        col.setCellValueFactory(p -> p.getValue() instanceof ChainTree.RowItem r ? r.rowProperty()
                : new ReadOnlyObjectWrapper<>(p.getValue() == null ? null : p.getValue().getValue()));
        col.setComparator(Comparator.nullsLast(order));
        Label header = new Label(c.title());
        header.setTooltip(new Tooltip(c.description()));
        col.setGraphic(header);
        col.setText("");
        col.setUserData(c);
        return col;
    }

    /** Sorts by a column (most first), as the "sort by tasks / growth" buttons do. */
    void sortBy(GroupColumn c) {
        for (TreeTableColumn<ConsoleRow, ?> col : view.getColumns()) {
            if (col.getUserData() == c) {
                col.setSortType(TreeTableColumn.SortType.DESCENDING);
                view.getSortOrder().setAll(col);
                view.sort();
            }
        }
    }

    private static final class TextCell extends TreeTableCell<ConsoleRow, ConsoleRow> {
        private final GroupColumn column;

        TextCell(GroupColumn column) {
            this.column = column;
        }

        @Override
        protected void updateItem(ConsoleRow row, boolean empty) {
            super.updateItem(row, empty);
            setText(empty || row == null ? null : row.cells().get(column.ordinal()));
        }
    }

    /** The command, and a badge: the recursion's cycle, or that the group's chains are parented to init. */
    private static final class CommandCell extends TreeTableCell<ConsoleRow, ConsoleRow> {
        private final Label name = new Label();
        private final Label badge = new Label();
        private final HBox box = new HBox(6, name, badge);
        // One tooltip each per cell, its text set on update: cells are reused as rows scroll by.
        private final javafx.scene.control.Tooltip nameTip = new javafx.scene.control.Tooltip();
        private final javafx.scene.control.Tooltip badgeTip = new javafx.scene.control.Tooltip();

        CommandCell() {
            badge.getStyleClass().add("badge");
            name.setMinWidth(90); // the command is cut before it is gone ("…" alone said nothing)
            name.setTooltip(nameTip);
        }

        @Override
        protected void updateItem(ConsoleRow row, boolean empty) {
            super.updateItem(row, empty);
            if (empty || row == null) {
                setGraphic(null);
                return;
            }
            name.setText(row.kind() == ConsoleRow.Kind.CHAIN ? row.name() + "   " + row.cells().get(GroupColumn.COMMAND.ordinal())
                    : row.name());
            nameTip.setText(name.getText());
            // A group's command cut in the middle keeps a path's start and its program's name
            // ("/tmp/ru…/deploy.sh"); a chain's line is cut at its end, after its pid.
            name.setTextOverrun(row.kind() == ConsoleRow.Kind.CHAIN ? javafx.scene.control.OverrunStyle.ELLIPSIS
                    : javafx.scene.control.OverrunStyle.CENTER_ELLIPSIS);
            String b = row.badge();
            badge.setText(b);
            String why = row.badgeWhy();
            badgeTip.setText(why);
            badge.setTooltip(why.isEmpty() ? null : badgeTip);
            badge.setVisible(!b.isEmpty());
            badge.setManaged(!b.isEmpty());
            badge.getStyleClass().removeAll("badge-recursive", "badge-orphans", "badge-atcap", "badge-held");
            badge.getStyleClass().add(row.badgeStyle());
            // A short badge (AT CAP pids.max 300, orphans, HELD) is read whole; a long cycle may be cut.
            badge.setMinWidth(row.recursive() && !row.atCap() ? 0 : javafx.scene.layout.Region.USE_PREF_SIZE);
            setGraphic(box);
        }
    }
}
