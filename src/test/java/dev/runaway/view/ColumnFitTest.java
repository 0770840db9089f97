// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.view;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ColumnFitTest {
    @Test
    void columnsAreShownInOrderWhileTheyFitWholeAndTheFirstAlways() {
        List<Double> widths = List.of(300.0, 80.0, 130.0, 90.0);
        assertThat(ColumnFit.shown(widths, 1000)).isEqualTo(4);
        assertThat(ColumnFit.shown(widths, 600)).isEqualTo(4);
        assertThat(ColumnFit.shown(widths, 599)).as("the last one would be cut").isEqualTo(3);
        assertThat(ColumnFit.shown(widths, 509)).as("a later narrow column does not jump a wide one").isEqualTo(2);
        assertThat(ColumnFit.shown(widths, 100)).as("the command even when nothing fits").isEqualTo(1);
        assertThat(ColumnFit.shown(List.of(), 100)).isZero();
    }
}
