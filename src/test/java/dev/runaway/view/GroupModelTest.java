// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.view;

import dev.runaway.analysis.Chain;
import dev.runaway.analysis.Group;
import dev.runaway.analysis.GroupCap;
import dev.runaway.analysis.GroupColumn;
import dev.runaway.analysis.GroupOrder;
import dev.runaway.analysis.GrowthFit;
import dev.runaway.analysis.GrowthShape;
import dev.runaway.analysis.MemorySource;
import dev.runaway.model.ProcessIdentity;
import dev.runaway.timeline.GroupPoint;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

import static org.assertj.core.api.Assertions.assertThat;

/** A live group and the point a recording keeps of it are one model: same figures, same cells, same rank. */
class GroupModelTest {
    private static Group live(OptionalDouble runsOut, GrowthFit growth, boolean atCap) {
        List<Chain> chains = List.of(new Chain(new ProcessIdentity(100, 5), 7, 40, List.of("/tmp/tool"), List.of(100)),
                new Chain(new ProcessIdentity(200, 6), 3, 10, List.of("/tmp/tool"), List.of(200)));
        return new Group("/tmp/tool", 50, chains, true, true, List.of("/tmp/tool", "sh", "/tmp/tool"), 2, 50 << 20, growth,
                4096, runsOut, runsOut.isPresent() ? "pid_max" : "", List.of(100, 200), "/sbx", 20, 70, atCap,
                atCap ? Optional.of(new GroupCap(GroupCap.PIDS_MAX, 70)) : Optional.empty(), atCap ? 12 : 0, false, 3, 1, 0.5,
                30 << 20, MemorySource.CGROUP_V2);
    }

    @Test
    void thePointOfALiveGroupHoldsItsFiguresInTheSameEncoding() {
        Group g = live(OptionalDouble.of(42), new GrowthFit(GrowthShape.EXPONENTIAL, 12.5, 0.3), false);
        GroupPoint p = GroupPoint.of(g);
        assertThat(p.tasksGrowth()).isEqualTo(g.tasksGrowth());
        assertThat(p.secondsToExhaustion()).isEqualTo(OptionalDouble.of(42));
        assertThat(p.chainCount()).isEqualTo(2);
        assertThat(p.deepestChain()).isEqualTo(7);
        assertThat(p.memoryBytes()).isEqualTo(g.memoryBytes());
        assertThat(p.memorySource()).isEqualTo(MemorySource.CGROUP_V2);
        assertThat(GroupPoint.of(live(OptionalDouble.empty(), GrowthFit.UNKNOWN, false)).secondsToExhaustion())
                .as("not heading to a limit: empty, live and recorded alike").isEmpty();
    }

    @Test
    void liveAndRecordedRowsShowTheSameCellsButWhatARecordingDoesNotKeep() {
        for (Group g : List.of(live(OptionalDouble.of(42), new GrowthFit(GrowthShape.LINEAR, 3, 0), false),
                live(OptionalDouble.empty(), new GrowthFit(GrowthShape.STEADY, 0, 0), true))) {
            ConsoleRow liveRow = ConsoleRow.of(g), recordedRow = ConsoleRow.of(GroupPoint.of(g));
            for (GroupColumn c : GroupColumn.values()) {
                String recorded = recordedRow.cells().get(c.ordinal());
                if (c == GroupColumn.CPU || c == GroupColumn.STATES) assertThat(recorded).as(c.name()).isEqualTo("-");
                else assertThat(recorded).as(c.name()).isEqualTo(liveRow.cells().get(c.ordinal()));
            }
            assertThat(recordedRow.critical()).isEqualTo(liveRow.critical());
            assertThat(GroupOrder.tier(GroupPoint.of(g))).isEqualTo(GroupOrder.tier(g));
        }
    }
}
