// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.view;

import dev.runaway.analysis.Group;
import dev.runaway.analysis.GrowthFit;
import dev.runaway.analysis.GrowthShape;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The window opens on the runaway, and a held order never hides one (issue 38), without a display. */
class OpeningTest {
    private static final long S = 1_000_000_000L;

    private static Group group(String command, int tasks, boolean atCap, boolean recursive, OptionalDouble runsOut) {
        return new Group(command, tasks, List.of(), false, recursive, List.of(), 1, tasks * 4096L,
                new GrowthFit(GrowthShape.STEADY, 0, 0), 0, runsOut, runsOut.isPresent() ? "memory" : "", List.of(), "", -1, -1,
                atCap, Optional.empty(), 0, false, 0, 0, 0.1);
    }

    private static ConsoleRow calm(String command, int tasks) {
        return ConsoleRow.of(group(command, tasks, false, false, OptionalDouble.empty()));
    }

    @Test
    void whatIsCritical() {
        assertThat(calm("/usr/bin/java", 40).critical()).isFalse();
        assertThat(ConsoleRow.of(group("/tmp/t/tool", 600, true, false, OptionalDouble.empty())).critical()).as("at a cap").isTrue();
        assertThat(ConsoleRow.of(group("deploy.sh", 9, false, true, OptionalDouble.empty())).critical()).as("recursive").isTrue();
        assertThat(ConsoleRow.of(group("/usr/bin/leak", 9, false, false, OptionalDouble.of(40))).critical()).as("running out").isTrue();
    }

    @Test
    void theWindowOpensOnTheWorstGroupAndOnNothingWhenAllIsCalm() {
        ConsoleRow tool = ConsoleRow.of(group("/tmp/t/tool", 600, true, false, OptionalDouble.empty()));
        assertThat(Opening.rowToOpenOn(List.of(tool, calm("/usr/bin/java", 40)), null)).isEqualTo("g:/tmp/t/tool");
        assertThat(Opening.rowToOpenOn(List.of(calm("/usr/bin/java", 40), calm("/usr/bin/Xvfb", 3)), null)).isNull();
        assertThat(Opening.rowToOpenOn(List.of(calm("/usr/bin/java", 40), tool), "g:/tmp/t/tool")).as("a drill's group").isEqualTo("g:/tmp/t/tool");
        assertThat(Opening.rowToOpenOn(List.of(calm("/usr/bin/java", 40)), "g:/tmp/t/tool")).as("not shown yet: wait").isNull();
    }

    /**
     * The screenshot of issue 38: 17 calm rows placed while the pointer rests on the table, then the
     * drill's tool reaches its cap. Before, it came 18th (new rows last while held); now first.
     */
    @Test
    void aGroupThatBecameCriticalUnderARestingPointerComesFirstAndIsWhatTheWindowOpensOn() {
        RowOrder order = new RowOrder();
        List<ConsoleRow> rows = new ArrayList<>();
        for (int i = 0; i < 17; i++) rows.add(calm("/usr/bin/calm" + i, 40 - i));
        order.pointer(true);
        order.order(keys(rows), critical(rows), 10 * S);
        ConsoleRow tool = ConsoleRow.of(group("/tmp/t/tool", 600, true, false, OptionalDouble.empty()));
        List<ConsoleRow> now = new ArrayList<>(rows);
        now.add(0, tool); // the severity order puts it first
        RowOrder.Shown shown = order.order(keys(now), critical(now), 11 * S);
        assertThat(shown.keys().get(0)).isEqualTo("g:/tmp/t/tool");
        assertThat(shown.keys().subList(1, 18)).as("the calm rows keep their places among themselves").isEqualTo(keys(rows));
        assertThat(shown.moved()).as("the move is cued").isTrue();
        assertThat(Opening.rowToOpenOn(inOrder(shown.keys(), now), null)).isEqualTo("g:/tmp/t/tool");

        RowOrder.Shown again = order.order(keys(now), critical(now), 12 * S);
        assertThat(again.keys()).isEqualTo(shown.keys());
        assertThat(again.moved()).as("already first: nothing moves under the pointer").isFalse();

        RowOrder plain = new RowOrder(); // the old call, no critical rows: the held order as before
        plain.pointer(true);
        plain.order(keys(rows), 10 * S);
        assertThat(plain.order(keys(now), 11 * S).keys().get(17)).isEqualTo("g:/tmp/t/tool");
    }

    @Test
    void criticalRowsComeInTheSeverityOrderAmongThemselves() {
        RowOrder order = new RowOrder();
        ConsoleRow a = ConsoleRow.of(group("/a", 5, false, true, OptionalDouble.empty()));
        ConsoleRow b = ConsoleRow.of(group("/b", 9, true, false, OptionalDouble.empty()));
        ConsoleRow c = calm("/c", 50);
        order.order(keys(List.of(c, a, b)), critical(List.of(c, a, b)), 10 * S);
        order.pointer(true);
        assertThat(order.order(keys(List.of(b, a, c)), critical(List.of(b, a, c)), 11 * S).keys())
                .containsExactly("g:/b", "g:/a", "g:/c");
    }

    private static List<String> keys(List<ConsoleRow> rows) {
        return rows.stream().map(ConsoleRow::key).toList();
    }

    private static Set<String> critical(List<ConsoleRow> rows) {
        Set<String> out = new java.util.HashSet<>();
        for (ConsoleRow r : rows) if (r.critical()) out.add(r.key());
        return out;
    }

    private static List<ConsoleRow> inOrder(List<String> keys, List<ConsoleRow> rows) {
        List<ConsoleRow> out = new ArrayList<>();
        for (String k : keys) for (ConsoleRow r : rows) if (r.key().equals(k)) out.add(r);
        return out;
    }
}
