// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.view;

import dev.runaway.analysis.CgroupColumn;
import dev.runaway.analysis.CgroupLoad;
import dev.runaway.analysis.GroupOrder;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One row of the cgroup lens: a cgroup's cells in {@link CgroupColumn}'s order, and how
 * alarming it is (at its cap: critical; heading to it or growing: watch).
 */
public record CgroupRow(String path, List<String> cells, Severity severity) {
    /** The window's CGROUP column shows this many characters; the full path is its tooltip. */
    public static final int LABEL_CHARS = 34;
    /** Characters kept from a path's start when its middle is elided: the rest is its end. */
    static final int HEAD_CHARS = 9;

    /** The CGROUP cell as the window's first column shows it: the middle elided, the end kept. */
    public String cgroupLabel() {
        return elide(cells.get(CgroupColumn.CGROUP.ordinal()), LABEL_CHARS);
    }

    /**
     * {@code text} in at most {@code max} characters: its start and its end with "…" between
     * (the end of a cgroup path names the sandbox or unit; the start is shared by its siblings).
     */
    public static String elide(String text, int max) {
        if (text.length() <= max) return text;
        int head = Math.min(HEAD_CHARS, max / 3);
        return text.substring(0, head) + "\u2026" + text.substring(text.length() - (max - head - 1));
    }

    public static CgroupRow of(CgroupLoad c) {
        List<String> cells = new ArrayList<>();
        for (CgroupColumn col : CgroupColumn.values()) cells.add(col.value(c));
        Severity s = switch (GroupOrder.tier(c)) {
            case AT_CAP -> Severity.CRITICAL;
            case EXHAUSTING, GROWING -> Severity.WATCH;
            default -> Severity.CALM;
        };
        return new CgroupRow(c.path(), List.copyOf(cells), s);
    }

    /** The rows of a scan's cgroups in the order {@code order} allows (still under the pointer). */
    public static List<CgroupRow> of(List<CgroupLoad> loads, RowOrder order, long nowNanos) {
        Map<String, CgroupRow> byPath = new HashMap<>();
        List<String> wanted = new ArrayList<>();
        for (CgroupLoad c : loads) {
            CgroupRow r = of(c);
            byPath.put(r.path(), r);
            wanted.add(r.path());
        }
        RowOrder.Shown shown = order.order(wanted, nowNanos);
        List<CgroupRow> rows = new ArrayList<>();
        for (String path : shown.keys()) {
            CgroupRow r = byPath.get(path);
            if (r == null) {
                List<String> cells = new ArrayList<>();
                for (CgroupColumn col : CgroupColumn.values()) cells.add(col == CgroupColumn.CGROUP ? path + "  (gone)" : "");
                r = new CgroupRow(path, List.copyOf(cells), Severity.CALM);
            }
            rows.add(r);
        }
        return rows;
    }
}
