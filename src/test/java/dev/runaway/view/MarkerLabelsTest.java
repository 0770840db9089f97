// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.view;

import dev.runaway.view.MarkerLabels.Marker;
import dev.runaway.view.MarkerLabels.Placed;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.ToDoubleFunction;

import static org.assertj.core.api.Assertions.assertThat;

class MarkerLabelsTest {
    /** About the console's 12 px bold font: 7 px a character, plus the box's padding. */
    static final ToDoubleFunction<String> WIDTH = t -> 7 * t.length() + 6;

    @Test
    void theFirstLabelIsNotClippedAtThePlotsLeftEdge() {
        // The busy screenshot: a cap reached half a second after the window's start.
        List<Placed> placed = MarkerLabels.layout(List.of(new Marker(2, "cap pids.max worker-1"),
                new Marker(330, "cap pids.max tool")), 520, 1, WIDTH);
        assertInside(placed, 520);
        assertApart(placed);
        assertThat(placed).extracting(Placed::text).containsExactly("cap pids.max worker-1", "cap pids.max tool");
    }

    @Test
    void aLabelAtTheRightEdgeGoesLeftOfItsLine() {
        List<Placed> placed = MarkerLabels.layout(List.of(new Marker(515, "zero")), 520, 1, WIDTH);
        assertInside(placed, 520);
        assertThat(placed.get(0).right()).isLessThanOrEqualTo(515);
    }

    @Test
    void labelsCloseInTimeAreJoinedWhenOneRowIsAllThereIs() {
        // The stopped screenshot: the stop and zero markers 28 px apart.
        List<Placed> placed = MarkerLabels.layout(List.of(new Marker(470, "stop"), new Marker(498, "zero")), 520, 1, WIDTH);
        assertThat(placed).extracting(Placed::text).containsExactly("stop · zero");
        assertInside(placed, 520);
    }

    @Test
    void labelsCloseInTimeAreStaggeredWhenThereAreRows() {
        List<Placed> placed = MarkerLabels.layout(List.of(new Marker(100, "stop"), new Marker(110, "zero")), 520, 2, WIDTH);
        assertThat(placed).extracting(Placed::text, Placed::row).containsExactly(
                org.assertj.core.groups.Tuple.tuple("stop", 0), org.assertj.core.groups.Tuple.tuple("zero", 1));
        assertApart(placed);
    }

    @Test
    void repeatsOfOneTextAreCounted() {
        List<Placed> placed = MarkerLabels.layout(List.of(new Marker(100, "cap pids.max tool"),
                new Marker(104, "cap pids.max tool"), new Marker(108, "stop")), 520, 1, WIDTH);
        assertThat(placed).extracting(Placed::text).containsExactly("cap pids.max tool ×2 · stop");
    }

    @Test
    void joinedTextsOfOneKindShareTheirWords() {
        // The busy screenshots: three caps of other groups before the drill's, then stop and zero.
        List<Placed> placed = MarkerLabels.layout(List.of(new Marker(4, "cap pids.max deploy.sh"),
                new Marker(5, "cap pids.max worker-1"), new Marker(4, "cap pids.max worker-1"),
                new Marker(100, "cap pids.max tool"), new Marker(420, "stop"), new Marker(440, "zero")), 510, 1, WIDTH);
        assertThat(placed).extracting(Placed::text).containsExactly("cap pids.max deploy.sh, worker-1 ×2, tool", "stop · zero");
        assertInside(placed, 510);
        assertApart(placed);
    }

    @Test
    void aJoinedLabelThatGrowsIntoItsNeighbourTakesItIn() {
        // "b" fits beside "a"; "c" joins "b", and "b · c", pushed left by the edge, now reaches "a".
        List<Placed> placed = MarkerLabels.layout(List.of(new Marker(0, "aaaa"), new Marker(45, "bbbb"),
                new Marker(85, "cccccccc")), 100, 1, WIDTH);
        assertInside(placed, 100);
        assertApart(placed);
        assertThat(String.join(" · ", placed.stream().map(Placed::text).toList())).isEqualTo("aaaa · bbbb · cccccccc");
    }

    @Test
    void markersOutsideThePlotOrWithoutTextGetNoLabel() {
        assertThat(MarkerLabels.layout(List.of(new Marker(-5, "gone"), new Marker(600, "later"), new Marker(50, "")),
                520, 2, WIDTH)).isEmpty();
    }

    @Test
    void noLayoutClipsOrOverlapsAndEveryMarkerIsNamed() {
        Random random = new Random(16);
        String[] texts = {"stop", "zero", "cap pids.max tool", "cap pids.max worker-1", "OOM kill python3", "cap threads-max x"};
        for (int run = 0; run < 2_000; run++) {
            double plot = 60 + random.nextInt(700);
            int rows = 1 + random.nextInt(3);
            List<Marker> markers = new ArrayList<>();
            for (int i = random.nextInt(12); i > 0; i--) {
                markers.add(new Marker(random.nextDouble() * plot, texts[random.nextInt(texts.length)]));
            }
            List<Placed> placed = MarkerLabels.layout(markers, plot, rows, WIDTH);
            assertInside(placed, plot);
            assertApart(placed);
            assertThat(placed).allSatisfy(p -> assertThat(p.row()).isBetween(0, rows - 1));
            assertThat(placed.stream().mapToInt(MarkerLabelsTest::named).sum()).as("markers named").isEqualTo(markers.size());
        }
    }

    /** How many markers a label names: its parts, each with its count. */
    private static int named(Placed p) {
        int n = 0;
        for (String part : p.text().split(" · |, ")) {
            int times = part.lastIndexOf(" ×");
            n += times < 0 ? 1 : Integer.parseInt(part.substring(times + 2));
        }
        return n;
    }

    private static void assertInside(List<Placed> placed, double plot) {
        assertThat(placed).allSatisfy(p -> {
            assertThat(p.left()).as("clipped at the left: " + p).isGreaterThanOrEqualTo(0);
            assertThat(p.right()).as("clipped at the right: " + p).isLessThanOrEqualTo(plot);
        });
    }

    private static void assertApart(List<Placed> placed) {
        for (Placed a : placed) {
            for (Placed b : placed) {
                if (a == b || a.row() != b.row()) continue;
                assertThat(a.right() <= b.left() || b.right() <= a.left()).as(a + " overlaps " + b).isTrue();
            }
        }
    }
}
