// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.ui;

import dev.runaway.analysis.CgroupColumn;
import dev.runaway.analysis.CgroupLoad;
import dev.runaway.view.CgroupRow;
import dev.runaway.view.RowOrder;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.Tooltip;

import java.util.List;

/**
 * The second lens in the window: the machine by cgroup (tasks, growth, cap, headroom, state),
 * the rows from {@link CgroupRow}, holding still under the pointer like the chains view.
 */
final class CgroupTable {
    final TableView<CgroupRow> view = new TableView<>();
    final RowOrder order = new RowOrder();

    CgroupTable() {
        view.setPlaceholder(new Label("No cgroups read yet"));
        view.setColumnResizePolicy(TableView.UNCONSTRAINED_RESIZE_POLICY);
        // CGROUP names the row: first, so it is seen at the window's width (the terminal has it last).
        List<CgroupColumn> columns = new java.util.ArrayList<>(List.of(CgroupColumn.values()));
        columns.remove(CgroupColumn.CGROUP);
        columns.add(0, CgroupColumn.CGROUP);
        for (CgroupColumn c : columns) {
            TableColumn<CgroupRow, String> col = new TableColumn<>();
            Label header = new Label(c.title());
            header.setTooltip(new Tooltip(c.description()));
            col.setGraphic(header);
            col.setCellValueFactory(p -> new ReadOnlyStringWrapper(p.getValue().cells().get(c.ordinal())));
            col.setSortable(false); // most severe first, held under the pointer
            col.setPrefWidth(c == CgroupColumn.CGROUP ? CgroupRow.LABEL_CHARS * 7.5 + 16 : Math.max(c.title().length() * 11 + 20, c.width() * 8));
            if (c == CgroupColumn.CGROUP) {
                col.setCellFactory(x -> new TableCell<>() {
                    private final Tooltip full = new Tooltip();

                    @Override
                    protected void updateItem(String text, boolean empty) {
                        super.updateItem(text, empty);
                        setText(empty || text == null ? null : CgroupRow.elide(text, CgroupRow.LABEL_CHARS));
                        full.setText(text);
                        setTooltip(empty || text == null ? null : full);
                    }
                });
            }
            if (c == CgroupColumn.STATE) {
                col.setCellFactory(x -> new TableCell<>() {
                    @Override
                    protected void updateItem(String text, boolean empty) {
                        super.updateItem(text, empty);
                        setText(empty ? null : text);
                        getStyleClass().removeAll("severity-critical", "severity-watch");
                        CgroupRow row = empty || getTableRow() == null ? null : getTableRow().getItem();
                        if (row != null && row.severity() != dev.runaway.view.Severity.CALM) getStyleClass().add(row.severity().styleClass());
                    }
                });
            }
            view.getColumns().add(col);
        }
        view.addEventFilter(javafx.scene.input.MouseEvent.MOUSE_ENTERED_TARGET, e -> order.pointer(true));
        view.addEventFilter(javafx.scene.input.MouseEvent.MOUSE_MOVED, e -> order.pointer(true));
        view.addEventFilter(javafx.scene.input.MouseEvent.MOUSE_EXITED, e -> order.pointer(false));
        view.addEventFilter(javafx.scene.input.MouseEvent.MOUSE_PRESSED, e -> order.touched(System.nanoTime()));
        view.addEventFilter(javafx.scene.input.KeyEvent.KEY_PRESSED, e -> order.touched(System.nanoTime()));
    }

    /** On the JavaFX thread: a scan's cgroups. */
    void show(List<CgroupLoad> loads) {
        List<CgroupRow> rows = CgroupRow.of(loads, order, System.nanoTime());
        if (!rows.equals(view.getItems())) view.getItems().setAll(rows);
    }
}
