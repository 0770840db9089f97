// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.view;

import dev.runaway.analysis.Group;
import dev.runaway.analysis.GrowthFit;
import dev.runaway.analysis.GrowthShape;
import dev.runaway.timeline.GroupPoint;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

import static org.assertj.core.api.Assertions.assertThat;

/** Whether a row is live, a recording's or gone is a type the window and the opening decide on, not its words. */
class ConsoleRowStandingTest {
    private static Group live(String command) {
        return new Group(command, 9, List.of(), false, false, List.of(), 1, 9 * 4096L, new GrowthFit(GrowthShape.LINEAR, 40, 0), 0,
                OptionalDouble.of(30), "pid_max", List.of(), "", -1, -1, false, Optional.empty(), 0, false, 0, 0, 0.1);
    }

    @Test
    void liveRecordedAndGoneRowsSayWhichTheyAre() {
        ConsoleRow row = ConsoleRow.of(live("/tmp/gone"));
        assertThat(row.standing()).isEqualTo(ConsoleRow.Standing.LIVE);
        assertThat(row.critical()).as("running out at its rate").isTrue();
        ConsoleRow gone = row.gone();
        assertThat(gone.standing()).isEqualTo(ConsoleRow.Standing.GONE);
        assertThat(gone.critical()).isFalse();
        assertThat(gone.gone()).isSameAs(gone);
        GroupPoint recorded = new GroupPoint("/tmp/gone", 9, 4096, new GrowthFit(GrowthShape.LINEAR, 40, 0), 0, OptionalDouble.of(30), "pid_max", 1, 1, false, false, List.of(), -1);
        assertThat(ConsoleRow.of(recorded).standing()).isEqualTo(ConsoleRow.Standing.RECORDED);
        assertThat(ConsoleRow.of(recorded).critical()).as("running out, as recorded").isTrue();
    }

    @Test
    void theWindowNeverOpensOnAGoneRow() {
        ConsoleRow gone = ConsoleRow.of(live("/tmp/left")).gone();
        ConsoleRow next = ConsoleRow.of(live("/tmp/next"));
        assertThat(Opening.rowToOpenOn(List.of(gone, next), null)).isEqualTo(next.key());
    }
}
