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

/** The console's first-contact marks: the runaway named only when drawn as the top row and selected, each mark once, read back as written. */
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
    void theRunawayIsNamedOnlyWhenDrawnFirstCriticalAndSelectedInTwoLayoutsInARow() throws Exception {
        Path file = dir.resolve("marks.jsonl");
        FirstContact marks = FirstContact.toFile(file);
        ConsoleRow fire = group("/tmp/fire/tool", true);
        ConsoleRow calm = group("/usr/bin/make", false);

        assertThat(marks.laidOut(null, fire.key())).isFalse();        // nothing drawn at the top yet
        assertThat(marks.laidOut(calm, calm.key())).isFalse();        // drawn first and selected, but calm
        assertThat(marks.laidOut(fire, null)).isFalse();              // drawn first, not selected
        assertThat(marks.laidOut(fire, calm.key())).isFalse();        // another row selected
        assertThat(marks.laidOut(fire, fire.key())).isTrue();         // laid out: one more layout wanted
        assertThat(marks.laidOut(calm, fire.key())).isFalse();        // the next layout has another top row
        assertThat(marks.laidOut(fire, fire.key())).isTrue();         // laid out again, first time in a row
        assertThat(FirstContact.read(file)).isEmpty();

        assertThat(marks.awaitsNaming()).isTrue();
        assertThat(marks.laidOut(fire, fire.key())).isFalse();        // the second layout in a row: named
        assertThat(marks.awaitsNaming()).isFalse();
        assertThat(marks.laidOut(fire, fire.key())).isFalse();        // once
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
    void aConsoleNobodyMeasuresNamesNothing() {
        ConsoleRow fire = group("/tmp/fire/tool", true);
        assertThat(FirstContact.NONE.awaitsNaming()).isFalse();
        assertThat(FirstContact.NONE.laidOut(fire, fire.key())).isFalse();
    }

    @Test
    void aStopsPhasesAndEndAreMarkedOnceEachInOrderOnOneClock() throws Exception {
        Path file = dir.resolve("marks.jsonl");
        FirstContact marks = FirstContact.toFile(file);
        long before = System.nanoTime();
        marks.windowShown(0);
        marks.figuresShown();
        marks.figuresShown();
        marks.stopPhase(StopOffer.Phase.PLANNING, "/tmp/fire/tool");
        marks.stopPhase(StopOffer.Phase.READY, "/tmp/fire/tool");
        marks.stopPhase(StopOffer.Phase.RUNNING, "/tmp/fire/tool");
        marks.stopPhase(StopOffer.Phase.DONE, "/tmp/fire/tool");
        marks.stopEnded(true, "/tmp/fire/tool");
        List<FirstContact.Mark> read = FirstContact.read(file).stream().filter(m -> !STARTUP.contains(m.kind())).toList();
        assertThat(read).extracting(FirstContact.Mark::kind).containsExactly(FirstContact.Kind.WINDOW_SHOWN,
                FirstContact.Kind.FIGURES_SHOWN, FirstContact.Kind.PLAN_SHOWN, FirstContact.Kind.CONFIRMED,
                FirstContact.Kind.ZERO_CONFIRMED);
        assertThat(read).allSatisfy(m -> assertThat(m.nanos()).isBetween(before, System.nanoTime()));
        assertThat(read).extracting(FirstContact.Mark::nanos).isSorted();
    }

    private static final java.util.Set<FirstContact.Kind> STARTUP = java.util.EnumSet.of(FirstContact.Kind.JVM_STARTED,
            FirstContact.Kind.SESSION_STARTED, FirstContact.Kind.TOOLKIT_STARTED);

    @Test
    void startUpMomentsAreWrittenWithTheWindowShownTheJvmsStartTakenBackFromItsUptime() throws Exception {
        Path file = dir.resolve("marks.jsonl");
        FirstContact.startup(FirstContact.Kind.TOOLKIT_STARTED);
        FirstContact.startup(FirstContact.Kind.SESSION_STARTED);
        long before = System.nanoTime();
        FirstContact.toFile(file).windowShown(1500);
        long after = System.nanoTime();
        java.util.Map<FirstContact.Kind, Long> at = new java.util.EnumMap<>(FirstContact.Kind.class);
        for (FirstContact.Mark m : FirstContact.read(file)) at.put(m.kind(), m.nanos());
        assertThat(at.keySet()).containsExactly(FirstContact.Kind.JVM_STARTED, FirstContact.Kind.SESSION_STARTED,
                FirstContact.Kind.TOOLKIT_STARTED, FirstContact.Kind.WINDOW_SHOWN);
        assertThat(at.get(FirstContact.Kind.WINDOW_SHOWN)).isBetween(before, after);
        assertThat(at.get(FirstContact.Kind.WINDOW_SHOWN) - at.get(FirstContact.Kind.JVM_STARTED)).isEqualTo(1_500_000_000L);
        assertThat(at.get(FirstContact.Kind.TOOLKIT_STARTED)).isLessThan(before);
    }

    @Test
    void aConsoleNobodyMeasuresWritesNothing() throws Exception {
        FirstContact none = FirstContact.fromEnvironment("");
        none.windowShown(0);
        none.stopEnded(false, "/x");
        assertThat(none).isSameAs(FirstContact.NONE);
        assertThat(none.awaitsNaming()).isFalse();
        assertThat(FirstContact.fromEnvironment(null)).isSameAs(FirstContact.NONE);
        try (var files = Files.list(dir)) {
            assertThat(files).isEmpty();
        }
    }
}
