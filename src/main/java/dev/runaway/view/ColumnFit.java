// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.view;

import java.util.List;

/**
 * Which of a table's columns are shown in the width it has: the first column (the command) and
 * then the others in their order while they fit whole, so that no column is shown cut at the
 * edge (at 1,280 px, MEMORY sat half behind the scroll bar). The rest come back as the table
 * widens (a wider window, or the divider dragged).
 */
public final class ColumnFit {
    private ColumnFit() {
    }

    /** How many columns of WIDTHS (in order, the first always shown) fit in AVAILABLE pixels. */
    public static int shown(List<Double> widths, double available) {
        if (widths.isEmpty()) return 0;
        double used = widths.get(0);
        int n = 1;
        while (n < widths.size() && used + widths.get(n) <= available) used += widths.get(n++);
        return n;
    }
}
