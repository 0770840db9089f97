// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.view;

import java.util.List;

/**
 * The row the window opens on: the runaway, selected, its chains expanded and its chart
 * followed, so a person who opens Runaway on a spiking machine meets the culprit without
 * scrolling. On a drill that is the drill's group; otherwise the first row when it is critical
 * ({@link ConsoleRow#critical()}); a calm machine opens with nothing selected.
 */
public final class Opening {
    private Opening() {
    }

    /**
     * @param shown        the group rows in the order shown (critical rows first: {@link RowOrder})
     * @param drillGroup   the key of the drill's group ("g:" + command) when the console runs a drill, else null
     * @return the key of the row to select, or null for none yet (the drill's group has not shown)
     */
    public static String rowToOpenOn(List<ConsoleRow> shown, String drillGroup) {
        if (drillGroup != null) {
            for (ConsoleRow r : shown) if (r.key().equals(drillGroup)) return drillGroup;
            return null;
        }
        for (ConsoleRow r : shown) {
            if (r.kind() != ConsoleRow.Kind.GROUP || r.standing() == ConsoleRow.Standing.GONE) continue;
            return r.critical() ? r.key() : null; // the first live group: the worst, when anything is
        }
        return null;
    }
}
