// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.view;

import dev.runaway.analysis.GroupColumn;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The console's first-contact marks: the runaway named only when it is the first row and selected, each mark once, read back as written. */
class FirstContactTest {
    @TempDir
    Path dir;

    private static ConsoleRow group(String command, boolean atCap) {
        List<String> cells = new ArrayList<>();
        for (GroupColumn c : GroupColumn.values()) {
            cells.add(switch (c) {
                case RATE -> "+12.0/s";
                case TASKS -> "5000";
                default -> "";
            });
        }
        return new ConsoleRow(ConsoleRow.Kind.GROUP, "g:" + command, command, List.copyOf(cells), command, null, -1, 5000, 12,
                false, false, List.of(), "every process of " + command, atCap, atCap ? "pids.max 5000" : "", 1,
                ConsoleRow.Standing.LIVE, false);
    }

    @Test
    void theRunawayIsNamedOnlyWhenTheFirstRowIsCriticalAndSelected() throws Exception {
        Path file = dir.resolve("marks.jsonl");
        FirstContact marks = FirstContact.toFile(file);
        ConsoleRow fire = group("/tmp/fire/tool", true);
        ConsoleRow calm = group("/usr/bin/make", false);

        marks.rowsShown(List.of(calm, fire), fire.key());  // the fire is not first
        marks.rowsShown(List.of(fire, calm), null);        // first, but not selected
        marks.rowsShown(List.of(calm), calm.key());        // first and selected, but calm
        assertThat(FirstContact.read(file)).isEmpty();

        assertThat(marks.awaitsNaming()).isTrue();
        marks.rowsShown(List.of(fire, calm), fire.key());
        assertThat(marks.awaitsNaming()).isFalse();
        marks.rowsShown(List.of(fire, calm), fire.key()); // once
        List<FirstContact.Mark> read = FirstContact.read(file);
        assertThat(read).hasSize(1);
        FirstContact.Mark named = read.get(0);
        assertThat(named.kind()).isEqualTo(FirstContact.Kind.RUNAWAY_NAMED);
        assertThat(named.command()).isEqualTo("/tmp/fire/tool");
        assertThat(named.badge()).isEqualTo("AT CAP pids.max 5000");
        assertThat(named.rate()).isEqualTo("+12.0/s");
        assertThat(named.tasks()).isEqualTo("5000");
    }

    @Test
    void aStopsPhasesAndEndAreMarkedOnceEachInOrderOnOneClock() throws Exception {
        Path file = dir.resolve("marks.jsonl");
        FirstContact marks = FirstContact.toFile(file);
        long before = System.nanoTime();
        marks.windowShown();
        marks.figuresShown();
        marks.figuresShown();
        marks.stopPhase(StopOffer.Phase.PLANNING, "/tmp/fire/tool");
        marks.stopPhase(StopOffer.Phase.READY, "/tmp/fire/tool");
        marks.stopPhase(StopOffer.Phase.RUNNING, "/tmp/fire/tool");
        marks.stopPhase(StopOffer.Phase.DONE, "/tmp/fire/tool");
        marks.stopEnded(true, "/tmp/fire/tool");
        List<FirstContact.Mark> read = FirstContact.read(file);
        assertThat(read).extracting(FirstContact.Mark::kind).containsExactly(FirstContact.Kind.WINDOW_SHOWN,
                FirstContact.Kind.FIGURES_SHOWN, FirstContact.Kind.PLAN_SHOWN, FirstContact.Kind.CONFIRMED,
                FirstContact.Kind.ZERO_CONFIRMED);
        assertThat(read).allSatisfy(m -> assertThat(m.nanos()).isBetween(before, System.nanoTime()));
        assertThat(read).extracting(FirstContact.Mark::nanos).isSorted();
    }

    @Test
    void aConsoleNobodyMeasuresWritesNothing() throws Exception {
        FirstContact none = FirstContact.fromEnvironment("");
        none.windowShown();
        none.stopEnded(false, "/x");
        assertThat(none).isSameAs(FirstContact.NONE);
        assertThat(none.awaitsNaming()).isFalse();
        assertThat(FirstContact.fromEnvironment(null)).isSameAs(FirstContact.NONE);
        try (var files = Files.list(dir)) {
            assertThat(files).isEmpty();
        }
    }
}
