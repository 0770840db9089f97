// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.export;

import dev.runaway.timeline.EventKind;
import dev.runaway.timeline.PulsePoint;
import dev.runaway.timeline.Timeline;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The summary computed from a timeline: the figures match what the timeline holds. */
class IncidentSummaryTest {

    @Test
    void aLinearRunawayCappedAndStopped() {
        Timeline t = IncidentFixtures.pidsCappedAndStopped();
        IncidentSummary s = IncidentSummary.of(t);

        int machinePeak = t.pulses().stream().mapToInt(PulsePoint::tasks).max().orElseThrow();
        assertThat(s.peakTasks()).hasValueSatisfying(p -> {
            assertThat(p.value()).isEqualTo(machinePeak).isEqualTo(IncidentFixtures.BASELINE_TASKS + 200);
            assertThat(p.seconds()).isCloseTo(199 / 32.0, within(0.1));
        });
        assertThat(s.peakMemoryUsed()).hasValueSatisfying(p -> assertThat(p.value())
                .isEqualTo(IncidentFixtures.BASELINE_USED + IncidentFixtures.deployRss(199 / 32.0)));
        assertThat(s.peakSwapUsed()).hasValueSatisfying(p -> assertThat(p.value()).isEqualTo(300 * IncidentFixtures.MIB));
        assertThat(s.memoryTotalBytes()).isEqualTo(24 * IncidentFixtures.GIB);

        GroupHistory worst = s.worstGroup().orElseThrow();
        assertThat(worst.command()).isEqualTo(IncidentFixtures.DEPLOY);
        assertThat(worst.growth()).as("linear while it grew, though steady at its cap").isEqualTo(dev.runaway.analysis.GrowthShape.LINEAR);
        assertThat(worst.tasksPerSecond()).isCloseTo(32, within(1e-9));
        assertThat(worst.bytesPerSecond()).isCloseTo(250.0 * IncidentFixtures.MIB, within(1.0));
        assertThat(worst.peakTasks()).isEqualTo(200);
        assertThat(worst.capTasks()).isEqualTo(200);
        assertThat(worst.cycle()).isEqualTo(IncidentFixtures.CYCLE);
        assertThat(s.recursions()).singleElement().satisfies(f -> assertThat(f.detail())
                .startsWith(String.join(" -> ", IncidentFixtures.CYCLE)));
        assertThat(s.caps()).singleElement().satisfies(f -> assertThat(f.seconds()).isEqualTo(6.5));

        assertThat(s.stopSteps()).extracting(IncidentSummary.Finding::title)
                .containsExactly("stop growth", "kill", "confirm zero", "restore");
        assertThat(s.stopStartedSeconds().getAsDouble()).isCloseTo(9.0, within(1e-9));
        assertThat(s.zeroConfirmed()).isTrue();
        // confirmed at 11.102 after a 2 s stable window: zero was reached 0.102 s after the stop began
        assertThat(s.secondsToZero().getAsDouble()).isCloseTo(0.102, within(1e-9));
        assertThat(s.restored()).containsExactly("thaw: thawed /runaway-sandbox.drill-linear (1)");
        assertThat(s.oom().events()).isZero();
        assertThat(s.fromSeconds()).isEqualTo(0);
        assertThat(s.toSeconds()).isEqualTo(12);
    }

    @Test
    void theMemoryCappedReproductionEndsInOneKernelKill() {
        IncidentSummary s = IncidentSummary.of(IncidentFixtures.memoryCapped());
        GroupHistory worst = s.worstGroup().orElseThrow();
        assertThat(worst.peakTasks()).isEqualTo(IncidentFixtures.deployTasks(5.5));
        assertThat(worst.peakMemoryBytes()).isEqualTo(IncidentFixtures.deployRss(5.5));
        assertThat(worst.growth()).isEqualTo(dev.runaway.analysis.GrowthShape.LINEAR);
        assertThat(worst.capTasks()).as("no pids.max known").isEqualTo(-1);
        assertThat(s.oom().kernelKills()).isEqualTo(1);
        assertThat(s.oom().episodes()).singleElement().satisfies(e -> {
            assertThat(e.fromSeconds()).isEqualTo(6.0);
            assertThat(e.commands()).containsEntry("deploy.sh", 1L);
        });
        assertThat(s.stopSteps()).isEmpty();
        assertThat(s.secondsToZero()).isEmpty();
        assertThat(s.zeroConfirmed()).isFalse();
    }

    @Test
    void fiveOomEventsOverTwoDays() {
        IncidentSummary s = IncidentSummary.of(IncidentFixtures.oomHistory());
        IncidentSummary.Oom o = s.oom();
        assertThat(o.episodes()).hasSize(5);
        assertThat(o.oomdKills()).isEqualTo(4);
        assertThat(o.kernelKills()).isEqualTo(IncidentFixtures.KERNEL_KILLS);
        assertThat(o.events()).isEqualTo(4 + IncidentFixtures.KERNEL_KILLS);
        long oomd = java.util.Arrays.stream(IncidentFixtures.OOMD_COUNTS).sum();
        assertThat(o.processesKilled()).isEqualTo(oomd + IncidentFixtures.KERNEL_KILLS);
        assertThat(o.episodes()).filteredOn(e -> e.kind() == EventKind.OOMD_KILL).extracting(OomEpisode::processes)
                .containsExactly(18_705L, 22_416L, 29_082L, 24_930L);
        OomEpisode ssh = o.episodes().stream().filter(e -> e.kind() == EventKind.OOM_KILL).findFirst().orElseThrow();
        assertThat(ssh.kills()).isEqualTo(1_392);
        assertThat(ssh.commands()).containsEntry("tailscaled", (long) IncidentFixtures.TAILSCALED_KILLS);
        assertThat(ssh.seconds() / 3600).as("almost four hours").isBetween(3.5, 4.0);
        assertThat(s.peakTasks()).isEmpty();
        assertThat(s.worstGroup()).isEmpty();
        assertThat(s.toSeconds() - s.fromSeconds()).as("two days").isBetween(24 * 3600.0, 48 * 3600.0);
    }

    @Test
    void kernelKillsAnHourApartAreTwoEpisodes() {
        Timeline t = new Timeline(IncidentFixtures.STARTED, 0, "test");
        for (double at : new double[]{0, 30, 90, 90 + OomEpisode.GAP_SECONDS, 4000}) {
            t.add(new dev.runaway.timeline.TimelineEvent(at, t.timeAt(at), EventKind.OOM_KILL, "oom-kill x", "", 1, 7, "x", -1));
        }
        assertThat(OomEpisode.of(t.events())).extracting(OomEpisode::kills).containsExactly(3, 1, 1);
    }
}
