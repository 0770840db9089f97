// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.view;

import dev.runaway.analysis.CgroupColumn;
import dev.runaway.analysis.CgroupLoad;
import dev.runaway.analysis.GrowthFit;
import dev.runaway.analysis.GrowthShape;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class CgroupRowTest {
    private static CgroupLoad load(String path, int tasks, int groups, boolean atCap) {
        return new CgroupLoad(path, tasks, tasks, groups, new GrowthFit(GrowthShape.STEADY, 0, 0), 300, atCap ? 0 : 300 - tasks,
                atCap, atCap ? 12 : 0, Double.NaN, false);
    }

    @Test
    void aCgroupAtItsCapIsCriticalWithItsCapRoomAndGroups() {
        CgroupRow row = CgroupRow.of(load("/sbx", 300, 300, true));
        assertThat(row.severity()).isEqualTo(Severity.CRITICAL);
        assertThat(row.cells().get(CgroupColumn.STATE.ordinal())).isEqualTo("AT CAP 12 refused");
        assertThat(row.cells().get(CgroupColumn.ROOM.ordinal())).isEqualTo("0");
        assertThat(row.cells().get(CgroupColumn.GROUPS.ordinal())).isEqualTo("300");
        assertThat(CgroupRow.of(load("/user.slice", 40, 12, false)).severity()).isEqualTo(Severity.CALM);
    }

    @Test
    void rowsHoldStillUnderThePointerAndAGoneCgroupStaysMarkedGone() {
        RowOrder order = new RowOrder();
        CgroupRow.of(List.of(load("/a", 5, 1, false), load("/b", 4, 1, false)), order, 0);
        order.pointer(true);
        List<CgroupRow> held = CgroupRow.of(List.of(load("/b", 300, 1, true)), order, 1);
        assertThat(held).extracting(CgroupRow::path).containsExactly("/a", "/b");
        assertThat(held.get(0).cells().get(CgroupColumn.CGROUP.ordinal())).isEqualTo("/a  (gone)");
    }

    @Test
    void aLongPathKeepsItsEndWithItsMiddleElided() {
        String path = "/runaway-sandbox.28503.1550744.1796069066.drill-orphans-d9c1";
        String label = CgroupRow.of(load(path, 599, 1, true)).cgroupLabel();
        assertThat(label).hasSize(CgroupRow.LABEL_CHARS).startsWith("/runaway-").endsWith(".drill-orphans-d9c1").contains("\u2026");
        assertThat(CgroupRow.of(load("/user.slice", 40, 12, false)).cgroupLabel()).isEqualTo("/user.slice");
        assertThat(CgroupRow.elide(path + "  (gone)", CgroupRow.LABEL_CHARS)).endsWith("orphans-d9c1  (gone)");
    }
}
