// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.ui;

import dev.runaway.drill.Drill;
import dev.runaway.drill.Drills;
import dev.runaway.drill.Scenario;
import dev.runaway.sandbox.Caps;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.testfx.api.FxToolkit;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What {@code bench ui}'s probe does through the window's seam, headless (Monocle), on a real
 * orphans drill capped at 60 tasks: work posted runs on the JavaFX thread, refreshes are told,
 * the drill's group is found and STOP pressed on it, the plan comes, Enter confirms it, and the
 * state line says zero was confirmed.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("process")
@org.junit.jupiter.api.Tag("window")
class WindowSeamTest {
    private ConsoleSession session;
    private Drill drill;
    private WindowSeam seam;

    @BeforeEach
    void open() throws Exception {
        FxToolkit.registerPrimaryStage();
        drill = Drills.start(Scenario.ORPHANS, 60, Duration.ofMinutes(2), false);
        session = ConsoleSession.live(Optional.empty());
        session.adopt(drill);
        seam = WindowSeam.open(session);
    }

    @AfterEach
    void close() throws Exception {
        if (seam != null) seam.close();
        FxToolkit.cleanupStages();
        session.close(); // tears the drill down
    }

    @Test
    void postsToTheJavaFxThreadTellsRefreshesAndStopsAGroupFromStopAndEnter() throws Exception {
        CompletableFuture<String> ranOn = new CompletableFuture<>();
        seam.runLater(() -> ranOn.complete(Thread.currentThread().getName()));
        assertThat(ranOn.get(10, TimeUnit.SECONDS)).isEqualTo("JavaFX Application Thread");
        AtomicInteger refreshes = new AtomicInteger();
        seam.onRender(arrival -> refreshes.incrementAndGet());
        await().atMost(Duration.ofSeconds(10)).until(() -> refreshes.get() > 0);

        Path tool = drill.folder().resolve("cache/tool");
        Caps.awaitRefusedFork(drill.sandbox(), 40);
        assertThat(seam.pressStop("/no/such/key")).isFalse();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> seam.pressStop(tool.toString()));
        await().atMost(Duration.ofSeconds(30)).until(seam::planReady);
        assertThat(seam.plan()).contains("Stop plan for " + tool);
        seam.pressEnter();
        await().atMost(Duration.ofSeconds(60)).until(seam::stopState, state -> state.startsWith("Zero")); // its last value said on failure
        assertThat(seam.stopState()).startsWith("Zero confirmed");
        assertThat(seam.rowsMade()).isPositive();
        assertThat(seam.sceneNodes()).matches("[\\d,]+ nodes; most children: .*");
    }
}
