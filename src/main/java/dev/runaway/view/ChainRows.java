// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.view;

import dev.runaway.analysis.Chain;
import dev.runaway.analysis.Group;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A group's chains as rows, the first {@code max} of them: the one tree builder behind the
 * window's chains view and {@code top}'s tree (F5), both over the analysis's chains.
 */
public final class ChainRows {
    private ChainRows() {
    }

    /**
     * @param before rows made for these chain objects at the last scan: reused while the chain and
     *               its group's words are unchanged (the analysis hands over the same Chain then)
     * @param made   filled with the rows made or reused now, by chain object
     */
    public static List<ConsoleRow> of(Group g, int max, Map<Chain, ConsoleRow> before, Map<Chain, ConsoleRow> made) {
        List<ConsoleRow> rows = new ArrayList<>(Math.min(max, g.chains().size()));
        for (Chain c : g.chains()) {
            if (rows.size() == max) break;
            ConsoleRow row = before.get(c);
            if (row == null || row.parentedToInit() != g.parentedToInit() || !row.command().equals(g.command())) {
                row = ConsoleRow.of(g, c);
            }
            made.put(c, row);
            rows.add(row);
        }
        return rows;
    }

    /** The rows, and the "and N more" row when the group has more chains than {@code max}. */
    public static List<ConsoleRow> withMore(Group g, int max) {
        List<ConsoleRow> rows = new ArrayList<>(of(g, max, Map.of(), new java.util.IdentityHashMap<>()));
        if (g.chains().size() > max) rows.add(ConsoleRow.more(g, max, g.chains().size()));
        return rows;
    }
}
