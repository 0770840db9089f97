// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.view;

import dev.runaway.analysis.GrowthFit;
import dev.runaway.analysis.GrowthShape;
import dev.runaway.guard.GuardRule;
import dev.runaway.guard.HeldGroup;
import dev.runaway.timeline.GroupPoint;
import dev.runaway.timeline.PulsePoint;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.OptionalDouble;

import static org.assertj.core.api.Assertions.assertThat;

/** The header strip's texts and severities, without a window. */
class HeaderFiguresTest {
    private static final long GIB = 1L << 30;

    @Test
    void aCalmMachineIsCalm() {
        HeaderFigures h = HeaderFigures.of(pulse(400, 3, 8 * GIB, 6 * GIB, 0.0), null);
        assertThat(h.figures()).extracting(HeaderFigures.Figure::text)
                .containsExactly("400 / 32768", "3", "2.0 GiB of 8.0 GiB", "none", "0.0%", "-", "-", "-");
        assertThat(h.overall()).isEqualTo(Severity.CALM);
    }

    @Test
    void aRunawayNearItsLimitsIsCritical() {
        GroupPoint worst = new GroupPoint("/tmp/runaway-drill-linear/worker --level 3", 27_000, 12 * GIB, new GrowthFit(GrowthShape.LINEAR, 32.0, 0), 0, OptionalDouble.of(45),
                "pid_max", 3, 800, true, false, List.of(), -1);
        HeaderFigures h = HeaderFigures.of(pulse(27_000, 2500, 8 * GIB, 0, 35.0), worst);
        assertThat(h.figures()).extracting(HeaderFigures.Figure::severity).containsExactly(Severity.CRITICAL, Severity.CRITICAL,
                Severity.CRITICAL, Severity.CALM, Severity.CRITICAL, Severity.CRITICAL, Severity.CRITICAL, Severity.CRITICAL);
        assertThat(h.figures().get(5).text()).isEqualTo("linear");
        assertThat(h.figures().get(5).caption()).isEqualTo("worst group: worker --level 3");
        assertThat(h.figures().get(6).text()).isEqualTo("+32.0/s");
        assertThat(h.figures().get(7).text()).isEqualTo("45 s (pid_max)");
    }

    @Test
    void aDrillAtItsCapIsRedAndNamedAtCapWhateverItsGrowth() {
        GroupPoint drill = new GroupPoint("/tmp/runaway-drill-cap/worker", 599, 600L << 20, new GrowthFit(GrowthShape.STEADY, 0, 0), 0, OptionalDouble.empty(), "",
                1, 3, true, false, List.of(), 1, 600, true,
                java.util.Optional.of(new dev.runaway.analysis.GroupCap("pids.max", 600)), 1234, "/sbx", false);
        HeaderFigures h = HeaderFigures.of(pulse(2000, 3, 8 * GIB, 6 * GIB, 0.0), drill);
        assertThat(h.figures().get(5).caption()).isEqualTo("worst group: worker");
        assertThat(h.figures().get(5).text()).isEqualTo("AT CAP");
        assertThat(h.figures().get(6).text()).isEqualTo("1,234 forks refused");
        assertThat(h.figures().get(7).text()).isEqualTo("now: pids.max 600");
        assertThat(h.figures().subList(5, 8)).extracting(HeaderFigures.Figure::severity).containsOnly(Severity.CRITICAL);
        assertThat(h.overall()).isEqualTo(Severity.CRITICAL);
    }

    @Test
    void halfwayIsWatched() {
        HeaderFigures h = HeaderFigures.of(pulse(20_000, 500, 8 * GIB, (long) (1.6 * GIB), 8.0), null);
        assertThat(h.figures().subList(0, 5)).extracting(HeaderFigures.Figure::severity)
                .containsExactly(Severity.WATCH, Severity.WATCH, Severity.WATCH, Severity.CALM, Severity.WATCH);
    }

    @Test
    void noPressureInfoIsSaidNotZero() {
        HeaderFigures h = HeaderFigures.of(pulse(10, 0, GIB, GIB, Double.NaN), null);
        assertThat(h.figures().get(4).text()).isEqualTo("n/a");
    }

    @Test
    void theGuardsHoldsAreCountedFirstAndOnlyWhenThereAreAny() {
        PulsePoint calm = pulse(400, 3, 8 * GIB, 6 * GIB, 0.0);
        assertThat(HeaderFigures.of(calm, null).held()).as("no guard, or it holds nothing: no figure").isEmpty();
        assertThat(HeaderFigures.of(calm, null, List.of()).held()).isEmpty();

        HeaderFigures one = HeaderFigures.of(calm, null, List.of(held("/tmp/runaway-drill-recursive-1a2b/deploy.sh", false)));
        assertThat(one.held()).hasValueSatisfying(f -> {
            assertThat(f.text()).isEqualTo("1 HELD by the guard");
            assertThat(f.caption()).isEqualTo("guard: deploy.sh");
            assertThat(f.severity()).as("growth stopped, a person's decision awaited").isEqualTo(Severity.WATCH);
        });
        assertThat(one.overall()).isEqualTo(Severity.WATCH);
        assertThat(one.figures()).as("the other figures as they were").hasSize(HeaderFigures.CAPTIONS.size());

        HeaderFigures three = HeaderFigures.of(calm, null, List.of(held("/usr/bin/make", false), held("/tmp/a.sh", false),
                held("/tmp/b.sh", true)));
        assertThat(three.held().orElseThrow().text()).as("what is held, not what a dry run would hold").isEqualTo("2 HELD by the guard");
        assertThat(three.held().orElseThrow().caption()).isEqualTo("guard: make and 1 more");

        HeaderFigures dry = HeaderFigures.of(calm, null, List.of(held("/tmp/b.sh", true)));
        assertThat(dry.held().orElseThrow().text()).isEqualTo("1 would be held");
        assertThat(dry.held().orElseThrow().caption()).isEqualTo("guard, dry run: b.sh");
    }

    private static HeldGroup held(String key, boolean dryRun) {
        return new HeldGroup(key, "/sandbox", GuardRule.GROWING_RECURSION, "recurs 8 times", Instant.EPOCH, dryRun ? "" : "FREEZE_CGROUP",
                12, 0, dryRun);
    }

    private static PulsePoint pulse(int tasks, double forks, long total, long available, double pressure) {
        return new PulsePoint(1, Instant.EPOCH, tasks, 1000, forks, total, available, 0, 0, pressure, 0, 32768);
    }
}
