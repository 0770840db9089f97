// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.ui;

import dev.runaway.drill.Drill;
import dev.runaway.drill.Drills;
import dev.runaway.drill.Scenario;
import dev.runaway.guard.Guard;
import dev.runaway.guard.GuardPolicy;
import dev.runaway.guard.GuardState;
import dev.runaway.procfs.PulseReader;
import dev.runaway.stop.act.Actuator;
import dev.runaway.stop.plan.Disposable;
import dev.runaway.stop.StopCore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxToolkit;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/**
 * A group the guard holds, stopped from the console window as a person does it (headless,
 * Monocle): the guard on the console's own sampler holds a real linear drill, the window's row
 * shows it HELD, STOP on it, the plan, Enter, and the window says zero confirmed; the drill's
 * cgroup is empty and the guard ends its hold as gone.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("process")
@org.junit.jupiter.api.Tag("window")
class GuardHeldWindowStopTest {
    private static final Path PROC = Path.of("/proc");
    private ConsoleSession session;
    private Drill drill;
    private WindowSeam seam;
    private String guardDirBefore;

    @BeforeEach
    void open(@TempDir Path dir) throws Exception {
        assumeThat(new com.sun.security.auth.module.UnixSystem().getUid()).as("the guard holds as root").isZero();
        guardDirBefore = System.getProperty("runaway.guard.dir");
        System.setProperty("runaway.guard.dir", dir.resolve("guard").toString());
        FxToolkit.registerPrimaryStage();
        drill = Drills.start(Scenario.LINEAR, 400, Duration.ofMinutes(3), false);
        session = ConsoleSession.live(Optional.empty());
        session.adopt(drill);
        seam = WindowSeam.open(session);
    }

    @AfterEach
    void close() throws Exception {
        if (seam != null) seam.close();
        FxToolkit.cleanupStages();
        if (session != null) session.close(); // tears the drill down
        if (guardDirBefore == null) System.clearProperty("runaway.guard.dir");
        else System.setProperty("runaway.guard.dir", guardDirBefore);
    }

    @Test
    void aHeldGroupIsStoppedToZeroFromTheWindowsStopAndEnter() throws Exception {
        int pid = drill.sandbox().memberPids().iterator().next();
        String cgroup = Files.readAllLines(PROC.resolve(pid + "/cgroup")).stream().filter(l -> l.startsWith("0::"))
                .map(l -> l.substring(3)).findFirst().orElseThrow();
        StringWriter journal = new StringWriter();
        StopCore core = new StopCore(PROC, PulseReader.live(), new Actuator(PROC, forStop -> null), Disposable.forThisUser());
        try (Guard guard = new Guard(session.live().orElseThrow(), core, GuardPolicy.DEFAULTS.watchingOnly(List.of(cgroup)), false,
                Guard.Notices.NONE, new PrintWriter(journal, true)).start()) {
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50)).until(() -> !GuardState.read().isEmpty());
            String key = GuardState.read().keySet().iterator().next();
            assertThat(Files.readString(Path.of("/sys/fs/cgroup/unified" + cgroup, "cgroup.freeze")).trim()).as("held: frozen").isEqualTo("1");

            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> seam.pressStop(key));
            await().atMost(Duration.ofSeconds(30)).until(seam::planReady);
            assertThat(seam.plan()).contains("Stop plan for " + key);
            seam.pressEnter();
            await().atMost(Duration.ofSeconds(60)).until(seam::stopState, state -> state.startsWith("Zero")); // its last value said on failure
            assertThat(seam.stopState()).startsWith("Zero confirmed");
            assertThat(drill.sandbox().memberPids()).isEmpty();
            await().atMost(Duration.ofSeconds(10)).until(() -> !GuardState.read().containsKey(key));
            assertThat(journal.toString()).contains("hold of " + key + " ended: gone");
        }
    }
}
