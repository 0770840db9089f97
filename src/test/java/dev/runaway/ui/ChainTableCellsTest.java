// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.ui;

import dev.runaway.view.ConsoleRow;
import javafx.scene.control.TreeTableColumn;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A cell whose row is gone: JavaFX asks a column for the value of a cell with no tree item when
 * a new scan has replaced the rows while it lays the table out (a NullPointerException on the
 * JavaFX thread at 20,000 pressing tasks). Every column answers with an empty value.
 */
@Tag("window")
class ChainTableCellsTest {
    @Test
    void everyColumnAnswersACellWithoutARowWithNothing() throws Exception {
        FxToolkit.registerPrimaryStage();
        List<Object> values = WaitForAsyncUtils.asyncFx(() -> {
            ChainTable table = new ChainTable(new ChainTree());
            List<Object> out = new ArrayList<>();
            for (var c : table.view.getColumns()) {
                @SuppressWarnings("unchecked")
                var col = (TreeTableColumn<ConsoleRow, ConsoleRow>) c;
                out.add(col.getCellValueFactory().call(new TreeTableColumn.CellDataFeatures<>(table.view, col, null)).getValue());
            }
            return out;
        }).get(10, TimeUnit.SECONDS);
        assertThat(values).isNotEmpty().containsOnlyNulls();
    }
}
