// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.export;

import dev.runaway.analysis.GroupCap;
import dev.runaway.analysis.GrowthFit;
import dev.runaway.analysis.GrowthShape;
import dev.runaway.timeline.GroupPoint;
import dev.runaway.timeline.GroupScan;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

import static org.assertj.core.api.Assertions.assertThat;

/** A group's history keeps the cap it pressed on, not the pids.max 0 the guided stop writes. */
class GroupHistoryTest {
    private static GroupScan scan(double seconds, int tasks, long pidsMax) {
        GroupPoint p = new GroupPoint("/tmp/drill/tool", tasks, 1 << 20, new GrowthFit(GrowthShape.STEADY, 0, 0), 0, OptionalDouble.empty(), "", 1, tasks, true,
                false, List.of(), Math.max(0, pidsMax - tasks), pidsMax, true,
                Optional.of(new GroupCap(GroupCap.PIDS_MAX, pidsMax)), 3, "/drill", false);
        return new GroupScan(seconds, Instant.ofEpochSecond(1_700_000_000L + (long) seconds), (long) (seconds * 1e9),
                tasks, List.of(p));
    }

    @Test
    void theStopsPidsMaxZeroIsNotTheCapTheGroupPressedOn() {
        GroupHistory h = GroupHistory.of(List.of(scan(0, 199, 200), scan(1, 200, 200), scan(2, 200, 0))).get(0);
        assertThat(h.capTasks()).isEqualTo(200);
        assertThat(h.stateWords()).contains("pids.max 200").doesNotContain("pids.max 0");
    }
}
