// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** The scan pace: the CPU budget, the calm period an exporter asks for, and how deep each scan reads. */
class SamplerPaceTest {
    private static final long MS = 1_000_000;
    private static final long DEFAULT_CALM = Sampler.MIN_SCAN_PERIOD.toNanos();
    private static final long ONE_SECOND = Duration.ofSeconds(1).toNanos();

    @Test
    void theDefaultCalmPeriodChangesNothing() {
        for (long work : new long[] {2 * MS, 80 * MS, 300 * MS, 1500 * MS}) {
            assertThat(Sampler.restAfter(work, false, DEFAULT_CALM)).isEqualTo(Sampler.restAfter(work, Sampler.CALM_BUDGET_CORES));
            assertThat(Sampler.restAfter(work, true, DEFAULT_CALM)).isEqualTo(Sampler.restAfter(work, Sampler.INCIDENT_BUDGET_CORES));
        }
    }

    @Test
    void aCalmPeriodOfASecondMeansAScanASecondWhileCalm() {
        assertThat(Sampler.restAfter(4 * MS, false, ONE_SECOND)).isEqualTo(996 * MS); // was 96 ms
        assertThat(Sampler.restAfter(300 * MS, false, ONE_SECOND)).isEqualTo(700 * MS);
        // a scan longer than the period: the budget's rest, as before
        assertThat(Sampler.restAfter(1500 * MS, false, ONE_SECOND)).isEqualTo(Sampler.restAfter(1500 * MS, Sampler.CALM_BUDGET_CORES));
    }

    @Test
    void anIncidentIgnoresTheCalmPeriod() {
        assertThat(Sampler.restAfter(4 * MS, true, ONE_SECOND)).isEqualTo(96 * MS);
        assertThat(Sampler.restAfter(300 * MS, true, ONE_SECOND)).isEqualTo(Sampler.restAfter(300 * MS, Sampler.INCIDENT_BUDGET_CORES));
    }

    @Test
    void theFirstScanReadsEverythingThenEveryFiftiethListsAndNoneReReadsEveryStat() {
        assertThat(Sampler.depthOf(0)).isEqualTo(ProcessTable.Depth.COMPLETE);
        assertThat(Sampler.depthOf(1)).isEqualTo(ProcessTable.Depth.INCREMENTAL);
        assertThat(Sampler.depthOf(ProcessTable.ROUND_ROBIN_SHARE)).isEqualTo(ProcessTable.Depth.LISTED);
        assertThat(Sampler.depthOf(ProcessTable.ROUND_ROBIN_SHARE * 7 + 3)).isEqualTo(ProcessTable.Depth.INCREMENTAL);
        assertThat(Sampler.depthOf(ProcessTable.ROUND_ROBIN_SHARE * 7)).isEqualTo(ProcessTable.Depth.LISTED);
    }
}
