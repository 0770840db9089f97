// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.ui;

import dev.runaway.analysis.Group;
import dev.runaway.analysis.GrowthFit;
import dev.runaway.analysis.GrowthShape;
import dev.runaway.timeline.GroupPoint;
import dev.runaway.view.ConsoleRow;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.OptionalDouble;

import static org.assertj.core.api.Assertions.assertThat;

/** A recording's row is refused by its standing, whatever its stop label says. */
class GuidedStopRefusalTest {
    @Test
    void aRecordedRowIsRefusedAndALiveOneIsNot() {
        GroupPoint point = new GroupPoint("/tmp/x", 9, 4096, new GrowthFit(GrowthShape.STEADY, 0, 0), 0, OptionalDouble.empty(), "", 1, 1, false, false, List.of(), -1);
        ConsoleRow recorded = ConsoleRow.of(point);
        ConsoleRow relabelled = new ConsoleRow(recorded.kind(), recorded.key(), recorded.name(), recorded.cells(), recorded.command(),
                null, -1, 9, 0, false, false, List.of(), "every process of /tmp/x", false, "", 1, ConsoleRow.Standing.RECORDED, false);
        assertThat(GuidedStop.refusal(recorded)).contains("recording");
        assertThat(GuidedStop.refusal(relabelled)).as("the label's words do not decide").contains("recording");
        Group live = new Group("/tmp/x", 9, List.of(), false, false, List.of(), 1, 4096, GrowthFit.UNKNOWN, 0, OptionalDouble.empty(),
                "", List.of(), "", -1);
        assertThat(GuidedStop.refusal(ConsoleRow.of(live))).isNull();
    }
}
