// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.analysis;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The one descent walk: up from a process by its parents, and down from seeds through their
 * children. /proc can show a parent cycle (a pid reused between two reads): both walks end on
 * it, and neither stops short of a chain deeper than the old fixed hop counts (64, 16).
 */
class DescentTest {

    @Test
    void theWalkUpEndsOnAParentCycle() {
        // 200 -> 300 -> 400 -> 200: none of them descends from 100.
        Map<Integer, Integer> parents = Map.of(200, 300, 300, 400, 400, 200);
        assertThat(Descent.reaches(200, p -> parents.getOrDefault(p, Descent.NONE), Set.of(100)::contains)).isFalse();
        assertThat(Descent.reaches(200, p -> parents.getOrDefault(p, Descent.NONE), Set.of(400)::contains)).isTrue();
    }

    @Test
    void theWalkUpFollowsAChainDeeperThanAnyFixedHopCount() {
        int depth = 20_000; // a linear chain at a pids cap
        assertThat(Descent.reaches(10 + depth, p -> p - 1, Set.of(10)::contains)).isTrue();
        assertThat(Descent.reaches(10 + depth, p -> p - 1, Set.of(5_000_000)::contains)).isFalse(); // ends at init
    }

    @Test
    void theWalkUpStopsAtInitAndAtAnUnknownParent() {
        assertThat(Descent.reaches(50, p -> p == 50 ? 1 : Descent.NONE, Set.of(1)::contains)).isFalse();
        assertThat(Descent.reaches(50, p -> Descent.NONE, Set.of(50)::contains)).isTrue(); // the process itself
    }

    @Test
    void theWalkDownVisitsEachOnceOnACycleAndPrunesWhatTakeRefuses() {
        // 0 -> 1 -> 2 -> 0 (a cycle), 1 -> 3, 3 -> 4; node 3 refused: 4 is not reached through it.
        int[] parentOf = {2, 0, 1, 1, 3};
        List<Integer> visited = new ArrayList<>();
        Descent.ofParents(parentOf).walk(new int[]{0}, 1, n -> {
            visited.add(n);
            return n != 3;
        });
        assertThat(visited).containsExactly(0, 1, 2, 3);
    }

    @Test
    void walksOfOneDescentAreIndependent() {
        Descent d = Descent.ofParents(new int[]{Descent.NONE, 0, 0, Descent.NONE});
        List<Integer> first = new ArrayList<>();
        d.walk(new int[]{0}, 1, n -> first.add(n));
        List<Integer> second = new ArrayList<>();
        d.walk(new int[]{1, 3}, 2, n -> second.add(n));
        assertThat(first).containsExactly(0, 1, 2);
        assertThat(second).containsExactly(1, 3);
    }
}
