// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.ui;

import dev.runaway.drill.Drill;
import dev.runaway.drill.Drills;
import dev.runaway.drill.Scenario;
import dev.runaway.view.ConsoleRow;
import dev.runaway.view.FirstContact;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The bench's "named" mark is what a person sees: a drill at its cap is the table's critical,
 * selected first row while the window shows its other tab, and nothing is named; the tab that
 * draws the table names it, as the row drawn at its top. (The mark was once taken as rows reached
 * the tree, and a screenshot at that moment showed the table still empty.)
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("process")
@org.junit.jupiter.api.Tag("window")
class ConsoleNamedOnScreenTest {
    @TempDir
    Path dir;
    private ConsoleSession session;

    @AfterEach
    void close() throws Exception {
        FxToolkit.cleanupStages();
        if (session != null) session.close();
    }

    @Test
    void theRunawayIsNamedOnlyOnceItsRowIsDrawnAtTheTop() throws Exception {
        FxToolkit.registerPrimaryStage();
        Drill drill = Drills.start(Scenario.FANOUT, 20, Duration.ofMinutes(2), false);
        session = TestWindows.liveOn(drill);
        Path marks = dir.resolve("first-contact.jsonl");
        AtomicInteger layouts = new AtomicInteger();
        ConsoleWindow window = TestWindows.open(() -> new ConsoleWindow(session, FirstContact.toFile(marks)), false, w -> {
            w.lenses.getSelectionModel().select(1); // "By cgroup": the chains table is not drawn
            w.scene().addPostLayoutPulseListener(layouts::incrementAndGet);
        });

        // The model has it: the drill's group first, critical and selected, at its cap.
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> {
            ConsoleRow selected = window.chains.selected();
            List<ConsoleRow> shown = window.chains.shownGroups();
            return selected != null && selected.tasks() == 20 && selected.critical()
                    && !shown.isEmpty() && shown.get(0).key().equals(selected.key());
        });
        int at = layouts.get();
        WaitForAsyncUtils.asyncFx(() -> window.scene().getRoot().requestLayout());
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> layouts.get() >= at + 3);
        assertThat(FirstContact.read(marks)).extracting(FirstContact.Mark::kind).doesNotContain(FirstContact.Kind.RUNAWAY_NAMED);
        assertThat(WaitForAsyncUtils.asyncFx(window.chains::topRowInSight).get()).isNull();

        WaitForAsyncUtils.asyncFx(() -> window.lenses.getSelectionModel().select(0)).get();
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> FirstContact.read(marks).stream()
                .anyMatch(m -> m.kind() == FirstContact.Kind.RUNAWAY_NAMED));
        FirstContact.Mark named = FirstContact.read(marks).stream().filter(m -> m.kind() == FirstContact.Kind.RUNAWAY_NAMED).findFirst().orElseThrow();
        ConsoleRow top = WaitForAsyncUtils.asyncFx(window.chains::topRowInSight).get();
        assertThat(top).isNotNull();
        assertThat(named.command()).isEqualTo(top.command());
        assertThat(named.badge()).startsWith("AT CAP");
        assertThat(named.tasks()).isEqualTo("20");
    }
}
