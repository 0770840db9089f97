// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.guard;

import dev.runaway.analysis.LiveAnalysis;
import dev.runaway.procfs.PulseReader;
import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import dev.runaway.stop.act.Actuator;
import dev.runaway.stop.plan.Disposable;
import dev.runaway.stop.StopCore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The guard's control socket (mode 0666) flooded by an unprivileged user: {@code nobody} opens
 * 300 connections and holds them, some with an oversize line, garbage or half a request
 * (control-flood.py). The guard's threads stay bounded (no thread a connection), a request from
 * root still answers at once, the user's connections beyond its limit are refused at once, and
 * every idle one is closed after the read timeout.
 */
@Tag("process")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GuardControlFloodTest {
    private static final int CONNECTIONS = 300;
    @TempDir
    Path dir;
    private String guardDirBefore;

    @BeforeEach
    void guardDir() throws Exception {
        assumeTrue(new com.sun.security.auth.module.UnixSystem().getUid() == 0, "the door is root's");
        guardDirBefore = System.getProperty("runaway.guard.dir");
        Files.setAttribute(dir, "unix:mode", 0755); // nobody passes through to the socket, as to /run/runaway/guard
        System.setProperty("runaway.guard.dir", dir.resolve("guard").toString());
    }

    @AfterEach
    void restore() {
        if (guardDirBefore == null) System.clearProperty("runaway.guard.dir");
        else System.setProperty("runaway.guard.dir", guardDirBefore);
    }

    @Test
    void hundredsOfIdleAndGarbageConnectionsFromAUserLeaveTheGuardBoundedAndRootAnswered() throws Exception {
        Path proc = Files.createDirectories(dir.resolve("proc")); // an empty /proc: the guard here holds nothing
        LiveAnalysis live = new LiveAnalysis(proc, PulseReader.live(), dev.runaway.procfs.CgroupPids.live());
        StopCore core = new StopCore(proc, PulseReader.live(), new Actuator(proc, forStop -> null), Disposable.forThisUser());
        StringWriter journal = new StringWriter();
        Path script = dir.resolve("control-flood.py");
        try (InputStream in = GuardControlFloodTest.class.getResourceAsStream("control-flood.py")) {
            Files.copy(in, script);
        }
        Files.setAttribute(script, "unix:mode", 0644);
        try (Guard guard = new Guard(live, core, GuardPolicy.DEFAULTS, false, Guard.Notices.NONE, new PrintWriter(journal, true));
             GuardControl control = GuardControl.open(guard);
             Sandbox box = Sandboxes.create(SandboxSpec.of("test-guard-control-flood", 8))) {
            assertThat(rootAsks()).as("root before the flood").startsWith("ERR not held: /no/such/runaway");
            long threadsBefore = threads();
            Process flood = box.start(new ProcessBuilder("/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups",
                    "/usr/bin/python3", script.toString(), GuardControl.socketPath().toString(), Integer.toString(CONNECTIONS))
                    .redirectErrorStream(true));
            List<String> lines = new CopyOnWriteArrayList<>();
            Thread reader = new Thread(() -> {
                try (BufferedReader out = new BufferedReader(new InputStreamReader(flood.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String line; (line = out.readLine()) != null; ) lines.add(line);
                } catch (Exception e) {
                    // ended
                }
            });
            reader.setDaemon(true);
            reader.start();
            try {
                await().atMost(Duration.ofSeconds(30)).until(() -> lines.stream().anyMatch(l -> l.startsWith("opened ")));
            } catch (org.awaitility.core.ConditionTimeoutException e) {
                throw new AssertionError("the user's connections never all opened: " + lines + "; threads " + threads(), e);
            }
            assertThat(lines).as("every connect of the user got through to the door").contains("opened " + CONNECTIONS);
            long threadsDuring = threads();

            long asked = System.nanoTime();
            String answer = CompletableFuture.supplyAsync(GuardControlFloodTest::rootAsks).get(3, TimeUnit.SECONDS);
            double answeredMs = (System.nanoTime() - asked) / 1e6;
            assertThat(answer).as("root's request during the flood").startsWith("ERR not held: /no/such/runaway");
            assertThat(threadsDuring - threadsBefore).as("threads the guard started for " + CONNECTIONS + " connections; " + lines)
                    .isLessThanOrEqualTo(GuardControl.DECIDERS + 4);

            // Refused at once beyond the user's limit; the idle ones and the half request closed after the read timeout.
            await().atMost(GuardControl.READ_TIMEOUT.plusSeconds(10)).until(() -> lines.contains("allclosed"));
            String last = lines.get(lines.size() - 2);
            System.out.printf("control flood: %d connections of nobody, %d threads before, %d during; root answered in %.0f ms; %s%n",
                    CONNECTIONS, threadsBefore, threadsDuring, answeredMs, last);
            int busy = Integer.parseInt(word(last, "busy"));
            int timedOut = Integer.parseInt(word(last, "timeout"));
            assertThat(busy + timedOut + Integer.parseInt(word(last, "toolong")) + Integer.parseInt(word(last, "usage")))
                    .as(last).isEqualTo(CONNECTIONS);
            // Lines answered at once (too long, garbage) free their place; idle ones hold it until the read timeout.
            assertThat(busy).as("refused at once beyond the per-uid limit: " + last).isGreaterThan(CONNECTIONS - 4 * GuardControl.PER_UID);
            assertThat(timedOut).as("idle connections closed by the read timeout, never more at once than the limit: " + last)
                    .isBetween(1, GuardControl.PER_UID);
            flood.getOutputStream().close();
            assertThat(rootAsks()).as("root after the flood").startsWith("ERR not held: /no/such/runaway");
        }
    }

    private static String rootAsks() {
        try {
            return GuardControl.ask(GuardControl.release("/no/such/runaway"));
        } catch (java.io.IOException e) {
            return "no answer: " + e;
        }
    }

    private static String word(String state, String name) {
        List<String> w = List.of(state.split(" "));
        return w.get(w.indexOf(name) + 1);
    }

    private static long threads() throws Exception {
        try (var tasks = Files.list(Path.of("/proc/self/task"))) {
            return tasks.count();
        }
    }
}
