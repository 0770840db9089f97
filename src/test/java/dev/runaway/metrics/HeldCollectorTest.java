// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.metrics;

import dev.runaway.guard.GuardRule;
import dev.runaway.guard.HeldGroup;
import dev.runaway.guard.HoldEnd;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The guard's series: a held group with why, and how holds ended (a kill-after stop outlives its group only here). */
class HeldCollectorTest {

    @Test
    void aHeldGroupAndTheHoldsEndedByHow() throws Exception {
        HeldGroup held = new HeldGroup("/tmp/deploy.sh", "/ci/job-1", GuardRule.GROWING_RECURSION, "recurs 8 times",
                Instant.ofEpochSecond(1_700_000_000), "FREEZE_CGROUP", 16, 1000, false);
        Map<HoldEnd, Long> ends = new EnumMap<>(HoldEnd.class);
        for (HoldEnd e : HoldEnd.values()) ends.put(e, 0L);
        ends.put(HoldEnd.KILL_AFTER, 2L);
        ends.put(HoldEnd.RELEASED, 1L);
        String text = RunawayCollectorTest.write(new HeldCollector(() -> List.of(held), () -> ends), false);
        String labels = "{cgroup=\"/ci/job-1\",command=\"/tmp/deploy.sh\",dry_run=\"false\",lever=\"FREEZE_CGROUP\",rule=\"GROWING_RECURSION\"}";
        assertThat(text).contains("runaway_guard_held" + labels + " 1.0")
                .contains("runaway_guard_held_since_seconds" + labels + " 1.7E9")
                .contains("runaway_guard_held_processes" + labels + " 16.0")
                .contains("# TYPE runaway_guard_holds_ended_total counter")
                .contains("runaway_guard_holds_ended_total{how=\"kill_after\"} 2.0")
                .contains("runaway_guard_holds_ended_total{how=\"released\"} 1.0")
                .contains("runaway_guard_holds_ended_total{how=\"stopped\"} 0.0")
                .contains("runaway_guard_holds_ended_total{how=\"gone\"} 0.0");
    }

    @Test
    void aHostileKeyAndCgroupAreOneSafeLabelEach() throws Exception {
        String key = "/tmp/x\u001b[2J\u0007\ny\"z\\} 1\nrunaway_guard_held{command=\"forged\"} 1\n" + "a".repeat(4000);
        HeldGroup held = new HeldGroup(key, "/ci/\u001b\"", GuardRule.GROWING_RECURSION, "recurs", Instant.ofEpochSecond(1_700_000_000),
                "FREEZE_CGROUP", 16, 1000, false);
        Map<HoldEnd, Long> none = new EnumMap<>(HoldEnd.class);
        for (HoldEnd e : HoldEnd.values()) none.put(e, 0L);
        String text = RunawayCollectorTest.write(new HeldCollector(() -> List.of(held), () -> none), false);
        List<String> series = text.lines().filter(l -> l.startsWith("runaway_guard_held{")).toList();
        assertThat(series).as(text).hasSize(1);
        assertThat(text).doesNotContain("command=\"forged\"").doesNotContain("\u001b").doesNotContain("\u0007");
        assertThat(series.get(0).length()).isLessThan(600);
        // The exposition writer escapes what LabelValues leaves: the quote and the backslash.
        assertThat(series.get(0)).contains("y\\\"z\\\\}");
    }

    @Test
    void nothingHeldWritesNoHeldSeriesButStillTheCounts() throws Exception {
        Map<HoldEnd, Long> none = new EnumMap<>(HoldEnd.class);
        for (HoldEnd e : HoldEnd.values()) none.put(e, 0L);
        String text = RunawayCollectorTest.write(new HeldCollector(List::of, () -> none), false);
        assertThat(text).doesNotContain("runaway_guard_held{").contains("runaway_guard_holds_ended_total{how=\"kill_after\"} 0.0");
    }
}
