// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.export;

import dev.runaway.timeline.Timeline;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import static dev.runaway.export.ChartImagesTest.UTC;
import static org.assertj.core.api.Assertions.assertThat;

/** Charts and exports about the incident: the stopped group, not the largest one beside it. */
class IncidentSubjectTest {
    private final Timeline busy = IncidentFixtures.busyAndStopped();

    private static Chart chart(List<Chart> charts, String name) {
        return charts.stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void theSubjectIsTheStoppedGroupNotTheLargest() {
        IncidentSummary s = IncidentSummary.of(busy);
        assertThat(s.subjects()).extracting(GroupHistory::command).containsExactly(IncidentFixtures.DEPLOY);
        assertThat(s.worstGroup().orElseThrow().command()).isEqualTo(IncidentFixtures.DEPLOY);

        Chart tasks = chart(Charts.of(busy, s, Optional.empty(), UTC, java.util.OptionalLong.empty()), "tasks");
        assertThat(tasks.lines()).extracting(Chart.Line::label).anyMatch(l -> l.startsWith("deploy.sh"))
                .noneMatch(l -> l.startsWith("sleep"));
        assertThat(tasks.marks()).extracting(Chart.Mark::label).contains("stop growth (freeze)");
    }

    @Test
    void aGroupRecordedAtItsCapIsAtCapNotSteadyInTheLegendAndSubtitle() {
        IncidentSummary s = IncidentSummary.of(busy);
        assertThat(s.worstGroup().orElseThrow().stateWords()).isEqualTo("at cap, pids.max 200");
        Chart tasks = chart(Charts.of(busy, s, Optional.empty(), UTC, java.util.OptionalLong.empty()), "tasks");
        assertThat(tasks.lines()).extracting(Chart.Line::label).contains("deploy.sh (at cap, pids.max 200)")
                .noneMatch(l -> l.contains("steady"));
        assertThat(tasks.subtitle()).startsWith("deploy.sh: at cap, pids.max 200, peak 200 tasks").doesNotContain("steady");

        // one that grew and then reached its cap: both told
        GroupHistory grew = new GroupHistory("/bin/tool", 600, 10, 0, 10, dev.runaway.analysis.GrowthShape.LINEAR, 32, 0, 1, 1, false, false, List.of(),
                600, true, Optional.empty(), java.util.Set.of());
        assertThat(grew.stateWords()).isEqualTo("linear, +32.0 tasks/s, then at cap, pids.max 600");
        GroupHistory calm = new GroupHistory("/bin/tool", 6, 10, 0, 10, dev.runaway.analysis.GrowthShape.STEADY, 0, 0, 1, 1, false, false, List.of(),
                600, false, Optional.empty(), java.util.Set.of());
        assertThat(calm.stateWords()).isEqualTo("steady");
    }

    @Test
    void groupsAskedForAreTheSubjectWhateverWasStopped() {
        IncidentSummary s = IncidentSummary.of(busy, List.of(IncidentFixtures.SLEEPERS));
        assertThat(s.subjects()).extracting(GroupHistory::command).containsExactly(IncidentFixtures.SLEEPERS);
    }

    @Test
    void noLineWhereTheGroupDidNotExistAndOneDropToZeroWhenItEnded() {
        IncidentSummary s = IncidentSummary.of(busy);
        Chart.Line deploy = chart(Charts.of(busy, s, Optional.empty(), UTC, java.util.OptionalLong.empty()), "tasks").lines().get(0);
        for (int i = 0; i < deploy.size(); i++) {
            double t = deploy.seconds()[i];
            if (t < 2) assertThat(deploy.values()[i]).as("before it existed, at %s s", t).isNaN();
        }
        long zeros = Arrays.stream(deploy.values()).filter(v -> v == 0).count();
        assertThat(zeros).as("it drops to 0 once when stopped, then the line ends").isLessThanOrEqualTo(1);
    }

    @Test
    void aGroupsMemoryIsNeverDrawnAboveTheMachinesUsed() {
        IncidentSummary s = IncidentSummary.of(busy);
        Chart memory = chart(Charts.of(busy, s, Optional.empty(), UTC, java.util.OptionalLong.empty()), "memory");
        Chart.Line group = memory.lines().stream().filter(l -> l.label().contains("RSS")).findFirst().orElseThrow();
        double machinePeak = s.peakMemoryUsed().orElseThrow().value();
        assertThat(Arrays.stream(group.values()).filter(v -> !Double.isNaN(v)).max().orElse(0)).isLessThanOrEqualTo(machinePeak);
        // The subtitle names the subject's peak, not the group with the most memory (here deploy.sh).
        IncidentSummary asked = IncidentSummary.of(busy, List.of(IncidentFixtures.SLEEPERS));
        Chart sleepers = chart(Charts.of(busy, asked, Optional.empty(), UTC, java.util.OptionalLong.empty()), "memory");
        assertThat(sleepers.subtitle()).contains("sleep peak").doesNotContain("deploy.sh peak");
    }

    @Test
    void aCapReachedFortyTwoTimesIsOneMarkAndOneFindingWithItsCount() {
        IncidentSummary s = IncidentSummary.of(busy);
        Chart tasks = chart(Charts.of(busy, s, Optional.empty(), UTC, java.util.OptionalLong.empty()), "tasks");
        assertThat(tasks.marks()).filteredOn(m -> m.label().startsWith("pids.max")).singleElement()
                .extracting(Chart.Mark::label).isEqualTo("pids.max deploy.sh (\u00d742)");
        assertThat(s.caps()).singleElement().satisfies(f -> {
            assertThat(f.title()).isEqualTo("pids.max deploy.sh (\u00d742)");
            assertThat(f.detail()).contains("42 times");
        });
        String md = IncidentReport.markdown(s, UTC, List.of());
        assertThat(md.split("pids.max deploy.sh", -1).length - 1).as("named once or twice, not 42 times").isLessThanOrEqualTo(2);
    }
}
