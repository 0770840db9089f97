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
        for (CgroupColumn c : CgroupColumn.values()) {
            TableColumn<CgroupRow, String> col = new TableColumn<>();
            Label header = new Label(c.title());
            header.setTooltip(new Tooltip(c.description()));
            col.setGraphic(header);
            col.setCellValueFactory(p -> new ReadOnlyStringWrapper(p.getValue().cells().get(c.ordinal())));
            col.setSortable(false); // most severe first, held under the pointer
            col.setPrefWidth(c == CgroupColumn.CGROUP ? 360 : Math.max(c.title().length() * 11 + 20, c.width() * 8));
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
