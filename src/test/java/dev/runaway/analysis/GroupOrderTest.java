// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.analysis;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class GroupOrderTest {
    record G(String command, int tasks, boolean atCap, boolean recursive, boolean self, double secondsLeft, double rate,
             String shape) implements RankedGroup {
        @Override
        public GrowthFit tasksGrowth() {
            return new GrowthFit(GrowthShape.ofJson(shape), rate, 0);
        }
    }

    private static G steady(String c, int tasks) {
        return new G(c, tasks, false, false, false, Double.NaN, 0, "steady");
    }

    private static G growing(String c, double rate) {
        return new G(c, 2, false, false, false, Double.NaN, rate, "linear");
    }

    private static List<G> sorted(G... groups) {
        List<G> list = new ArrayList<>(List.of(groups));
        list.sort(GroupOrder.severity());
        return list;
    }

    @Test
    void atCapOutranksExhaustionWhichOutranksGrowthWhichOutranksSize() {
        G capped = new G("/drill", 599, true, false, false, Double.NaN, 0, "steady");
        G exhausting = new G("/hog", 3, false, false, false, 51, 0, "steady");
        G grows = growing("/apt-get", 4);
        G big = steady("/sleep", 10_000);
        G console = new G("this console", 40, false, false, true, Double.NaN, 30, "linear");

        assertThat(sorted(console, big, grows, exhausting, capped)).containsExactly(capped, exhausting, grows, big, console);
    }

    @Test
    void atTheCapTheBiggestGroupComesBeforeOneTaskGroupsAtTheirCap() {
        // The busy screenshot: a 599-task drill at its cap beside 150 one-task copies at theirs,
        // whose path sorts first: the drill is the incident.
        G drill = new G("/tmp/runaway-drill-orphans-d9c1/cache/tool", 599, true, false, false, Double.NaN, 0, "steady");
        List<G> groups = new ArrayList<>();
        for (int i = 0; i < 150; i++) groups.add(new G("/tmp/runaway-copies.kV7/worker-" + i, 1, true, false, false, Double.NaN, 0, "steady"));
        groups.add(drill);
        groups.sort(GroupOrder.severity());
        assertThat(groups.get(0)).isEqualTo(drill);
    }

    @Test
    void growthBelowHalfATaskPerSecondIsSteady() {
        assertThat(GroupOrder.tier(growing("/x", 0.3))).isEqualTo(GroupOrder.Tier.STEADY);
        assertThat(GroupOrder.tier(growing("/x", 2))).isEqualTo(GroupOrder.Tier.GROWING);
    }

    @Test
    void theWorstGroupHoldsAgainstAChallengerOfItsTierForAFewSeconds() {
        GroupOrder.Worst worst = new GroupOrder.Worst();
        G a = growing("/dev/fd/3", 5);
        G b = growing("/usr/bin/apt-get", 6);

        assertThat(worst.order(sorted(a), 0).get(0)).isEqualTo(a);
        assertThat(worst.order(sorted(a, b), 1).get(0)).as("b leads by rate, a holds").isEqualTo(a);
        assertThat(worst.order(sorted(a, b), 2).get(0)).isEqualTo(a);
        assertThat(worst.order(sorted(a, b), 1 + GroupOrder.Worst.HOLD_SECONDS).get(0)).as("b led long enough").isEqualTo(b);
    }

    @Test
    void aGroupReachingAHigherTierTakesTheHeaderAtOnce() {
        GroupOrder.Worst worst = new GroupOrder.Worst();
        G big = steady("/sleep", 10_000);
        G capped = new G("/drill", 599, true, false, false, Double.NaN, 0, "steady");
        worst.order(sorted(big), 0);
        assertThat(worst.order(sorted(big, capped), 0.1).get(0)).isEqualTo(capped);
    }
}
