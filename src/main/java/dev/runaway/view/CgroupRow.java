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
