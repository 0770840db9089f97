// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.guard;

import dev.runaway.analysis.LiveAnalysis;
import dev.runaway.drill.Drill;
import dev.runaway.drill.Drills;
import dev.runaway.drill.Scenario;
import dev.runaway.procfs.PulseReader;
import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import dev.runaway.stop.Actuator;
import dev.runaway.stop.Disposable;
import dev.runaway.stop.StopCore;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * No false holds: with the default policy watching, a real parallel build ({@code make -j8} of
 * this repository's C programs, compiled again and again), a burst of 2,000 short-lived {@code
 * /bin/true} processes and a run of this repository's unit tests (Maven and its forked JVM) are
 * never held; then a guard of the same policy holds the recursive drill (the control: the policy does see a runaway).
 */
@Tag("process")
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class GuardOrdinaryWorkTest {
    private static final Path PROC = Path.of("/proc");

    @Test
    void aBuildABurstAndATestSuiteAreNeverHeldAndARunawayBesideThemIs(@TempDir Path dir) throws Exception {
        assumeTrue(new com.sun.security.auth.module.UnixSystem().getUid() == 0, "the guard holds as root");
        String before = System.getProperty("runaway.guard.dir");
        System.setProperty("runaway.guard.dir", dir.resolve("guard").toString());
        StringWriter journal = new StringWriter();
        List<String> everHeld = new CopyOnWriteArrayList<>();
        try (LiveAnalysis live = LiveAnalysis.live().start();
             Sandbox work = Sandboxes.create(SandboxSpec.of("test-guard-ordinary", 1024))) {
            live.awaitLatest();
            String cgroup = cgroupOf(work.start(new ProcessBuilder("sleep", "600")).pid());
            StopCore core = new StopCore(PROC, PulseReader.live(), new Actuator(PROC, forStop -> null), Disposable.forThisUser());
            Guard.Notices record = new Guard.Notices() {
                @Override
                public void held(HeldGroup held, Guard guard) {
                    everHeld.add(held.key() + ": " + held.why());
                }

                @Override
                public void ended(HeldGroup held, String how) {
                }
            };
            Path project = cProject(dir.resolve("project"));
            try (Guard guard = new Guard(live, core, GuardPolicy.DEFAULTS.watchingOnly(List.of(cgroup)), false, record,
                    new PrintWriter(journal, true)).start()) {
                // A parallel build and a burst of short-lived processes, side by side.
                Process make = work.start(new ProcessBuilder("make", "-j8", "-C", project.toString()).redirectErrorStream(true)
                        .redirectOutput(dir.resolve("make.log").toFile()));
                Process burst = work.start(new ProcessBuilder("bash", "-c", "for i in $(seq 2000); do /bin/true & done; wait")
                        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD));
                assertThat(burst.waitFor(120, TimeUnit.SECONDS)).isTrue();
                assertThat(make.waitFor(240, TimeUnit.SECONDS)).isTrue();
                assertThat(make.exitValue()).as(Files.readString(dir.resolve("make.log"))).isZero();
                // This repository's unit tests: Maven, its forked test JVM and their threads.
                Process suite = work.start(new ProcessBuilder(mvn(), "-o", "-q", "-B", "surefire:test", "-Pfast",
                        "-Dtest=WatchTest,GuardPolicyTest,ForkLogTest,ForkLineageTest", "-DreportsDirectory=" + dir.resolve("reports"),
                        "-Dsurefire.failIfNoSpecifiedTests=false").directory(Path.of("").toAbsolutePath().toFile())
                        .redirectErrorStream(true).redirectOutput(dir.resolve("suite.log").toFile()));
                assertThat(suite.waitFor(240, TimeUnit.SECONDS)).isTrue();
                assertThat(suite.exitValue()).as(Files.readString(dir.resolve("suite.log"))).isZero();
                assertThat(everHeld).as("no false hold: " + journal).isEmpty();

                // The control: the same policy on a runaway.
                try (Drill drill = Drills.start(Scenario.RECURSIVE, 200, Duration.ofMinutes(2), false)) {
                    String drillCgroup = cgroupOf(drill.sandbox().memberPids().iterator().next());
                    try (Guard control = new Guard(live, core, GuardPolicy.DEFAULTS.watchingOnly(List.of(drillCgroup)), false, record,
                            new PrintWriter(journal, true)).start()) {
                        await().atMost(Duration.ofSeconds(60)).until(() -> !everHeld.isEmpty());
                        assertThat(everHeld.get(0)).contains("deploy.sh");
                    }
                }
            }
        } finally {
            if (before == null) System.clearProperty("runaway.guard.dir");
            else System.setProperty("runaway.guard.dir", before);
        }
    }

    /** This repository's C programs, each compiled six times (40 compilations, a real cc1 each), as make -j8 runs them. */
    private static Path cProject(Path at) throws Exception {
        Files.createDirectories(at);
        Path sources = Path.of("src/main/c").toAbsolutePath();
        List<String> objects = new ArrayList<>();
        StringBuilder rules = new StringBuilder();
        int n = 0;
        for (String c : List.of("runaway-helper.c", "runaway-rt.c", "runaway-sandbox.c", "runaway-drill-worker.c", "runaway-stat-reader.c")) {
            for (int variant = 0; variant < 8; variant++) {
                String o = "o" + n++ + ".o";
                objects.add(o);
                rules.append(o).append(": ").append(sources.resolve(c)).append("\n\tcc -O2 -DVARIANT=").append(variant)
                        .append(" -c $< -o $@\n");
            }
        }
        Files.writeString(at.resolve("Makefile"), "all: " + String.join(" ", objects) + "\n" + rules);
        return at;
    }

    private static String mvn() {
        for (String dir : System.getenv("PATH").split(":")) if (Files.isExecutable(Path.of(dir, "mvn"))) return Path.of(dir, "mvn").toString();
        return "mvn";
    }

    private static String cgroupOf(long pid) throws Exception {
        for (String line : Files.readAllLines(PROC.resolve(pid + "/cgroup"))) if (line.startsWith("0::")) return line.substring(3);
        throw new AssertionError("no v2 cgroup for " + pid);
    }
}
