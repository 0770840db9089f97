// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.runaway.model.ProcessIdentity;
import dev.runaway.procfs.ProcStat;
import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import dev.runaway.testing.Alive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A runaway that daemonizes (each process forks every 20 ms; the child calls setsid() and forks
 * the next, which is adopted by init at once) runs for 3 s before the user stops it by the pid
 * of its first process. Its history began before the stop's process events did: the stop must
 * reach a real zero, or name what it could not follow and exit 3, never a false zero.
 */
@Tag("process")
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class DaemonizerStopTest {
    private static final Path PROC = Path.of("/proc");
    private static final int CAP = 1000; // the runaway's own sandbox: the 999 processes
    private String lineageDirBefore;

    @BeforeEach
    void ownLineageDirectory(@TempDir Path dir) throws Exception {
        // No sampler of this machine's (a real runaway metrics service) decides these tests: only the ones they start.
        lineageDirBefore = System.getProperty("runaway.lineage.dir");
        Files.createDirectories(dir.resolve("lineage"));
        System.setProperty("runaway.lineage.dir", dir.resolve("lineage").toString());
    }

    @AfterEach
    void putBack() {
        if (lineageDirBefore == null) System.clearProperty("runaway.lineage.dir");
        else System.setProperty("runaway.lineage.dir", lineageDirBefore);
    }

    @Test
    void byItsFirstPidTheDaemonizerReachesARealZeroAndAnotherUsersCopyIsNeverTaken(@TempDir Path dir) throws Exception {
        assumeTrue(new com.sun.security.auth.module.UnixSystem().getUid() == 0, "needs root: fork events and a user to switch to");
        Path tool = worker(dir);
        try (Sandbox box = Sandboxes.create(SandboxSpec.of("test-daemonizer", CAP));
             Sandbox other = Sandboxes.create(SandboxSpec.of("test-daemonizer-bystander", 8))) {
            Process first = box.start(new ProcessBuilder(tool.toString(), "daemonizer", "20").redirectError(ProcessBuilder.Redirect.DISCARD));
            ProcessIdentity root = ProcStat.read(PROC, (int) first.pid()).orElseThrow().identity();
            // The same executable, started after the root by another user in another cgroup: never the stop's.
            Process bystander = other.start(new ProcessBuilder("/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups",
                    tool.toString(), "sleepers", "1").redirectError(ProcessBuilder.Redirect.DISCARD));
            runFor3Seconds(box);

            JsonNode json = stop(root);
            assertThat(json.get("status").asText()).as(json.toString()).isEqualTo("ZERO_CONFIRMED");
            await().atMost(Duration.ofSeconds(10)).until(() -> box.memberPids().isEmpty());
            assertThat(json.get("plan").get("lineage").get("source").asText()).isEqualTo("OWN_EVENTS");
            List<JsonNode> taken = new ArrayList<>();
            json.get("plan").get("placed").forEach(n -> {
                if (n.get("taken").asBoolean()) taken.add(n);
            });
            assertThat(taken).as("the adopted levels are taken by evidence, and the plan says why").isNotEmpty();
            assertThat(taken.get(0).get("evidence").toString()).contains("SAME_CGROUP", "SAME_COMMAND", "SAME_UID", "STARTED_AFTER_ROOT");
            Set<Integer> named = pidsOf(json.get("plan").get("targets"));
            json.get("plan").get("placed").forEach(n -> named.add(n.get("pid").asInt()));
            for (int pid : other.memberPids()) assertThat(named).as("another user's copy is neither taken nor listed").doesNotContain(pid);
            assertThat(bystander.isAlive()).isTrue();
            assertThat(other.memberPids()).hasSize(2); // setpriv exec'd the worker, which forked its sleeper
        }
    }

    @Test
    void whenNothingTiesTheAdoptedLevelsStronglyTheStopListsThemAndExits3(@TempDir Path dir) throws Exception {
        assumeTrue(new com.sun.security.auth.module.UnixSystem().getUid() == 0, "needs root: fork events");
        Path script = startingScript(dir, worker(dir));
        try (Sandbox box = Sandboxes.create(SandboxSpec.of("test-daemonizer-script", CAP))) {
            ProcessIdentity root = rootOf(box, script);
            runFor3Seconds(box);

            JsonNode json = stop(root);
            assertThat(json.get("status").asText()).as(json.toString()).isEqualTo("UNCONFIRMED");
            assertThat(json.get("zeroConfirmed").asBoolean()).isFalse();
            Set<Integer> unfollowed = pidsOf(json.get("unfollowed"));
            assertThat(unfollowed).as("the levels it could not follow are named").isNotEmpty();
            Set<Integer> alive = box.memberPids();
            Set<Integer> namedAlive = new HashSet<>(unfollowed);
            namedAlive.removeIf(pid -> !Alive.is(pid)); // a middle caught mid-exit
            assertThat(alive).as("each one named is the runaway's").containsAll(namedAlive);
            // All of it is named, but for what it forked since the last reading (it presses on its cap).
            assertThat(unfollowed.size()).as("named of %d alive", alive.size()).isGreaterThanOrEqualTo(alive.size() * 9 / 10);
            JsonNode placed = json.get("plan").get("placed").get(0);
            assertThat(placed.get("taken").asBoolean()).isFalse();
            assertThat(placed.get("takeWith").asText()).as("the plan says which selector takes them").startsWith("--cgroup '/");
            assertThat(placed.get("evidence").toString()).contains("SAME_CGROUP").doesNotContain("SAME_COMMAND");
        }
    }

    @Test
    void withRunawayMetricsWatchingFirstTheStopFollowsTheRecordedLineageToZero(@TempDir Path dir) throws Exception {
        assumeTrue(new com.sun.security.auth.module.UnixSystem().getUid() == 0, "needs root: fork events");
        Path script = startingScript(dir, worker(dir));
        Path lineage = Path.of(System.getProperty("runaway.lineage.dir"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        try (Sandbox service = Sandboxes.create(SandboxSpec.of("test-daemonizer-metrics", 200));
             Sandbox box = Sandboxes.create(SandboxSpec.of("test-daemonizer-recorded", CAP))) {
            Files.createDirectories(dir.resolve("prom"));
            Process metrics = service.start(new ProcessBuilder(java, "-Xmx256m", "-XX:+UseSerialGC", "-cp", classpath,
                    "-Drunaway.native.dir=" + System.getProperty("runaway.native.dir"), "-Drunaway.lineage.dir=" + lineage,
                    "dev.runaway.cli.Main", "metrics", "--textfile", dir.resolve("prom").toString())
                    .redirectErrorStream(true).redirectOutput(dir.resolve("metrics.log").toFile()));
            Path door = lineage.resolve(metrics.pid() + ".sock");
            // Watching first: its door open and its first figures written, as a service that ran before the fire.
            await().atMost(Duration.ofSeconds(60)).until(() -> Files.exists(door) && Files.exists(dir.resolve("prom").resolve("runaway.prom")));
            ProcessIdentity root = rootOf(box, script);
            runFor3Seconds(box);

            JsonNode json = stop(root);
            String said = json + "\nrunaway metrics said: " + Files.readString(dir.resolve("metrics.log"));
            JsonNode lineageUsed = json.get("plan").get("lineage");
            // Asked, not copied: the service answers from memory with the forks since the root began.
            assertThat(lineageUsed.get("source").asText()).as(said).isEqualTo("RECORDED");
            assertThat(lineageUsed.get("pid").asLong()).isEqualTo(metrics.pid());
            assertThat(lineageUsed.get("sinceTicks").asLong()).as("since the root's start (within the fork stamp's slack)")
                    .isBetween(root.startTicks() - dev.runaway.procfs.ForkLog.NEAR_TICKS, root.startTicks());
            assertThat(json.get("status").asText()).as(said).isEqualTo("ZERO_CONFIRMED");
            await().atMost(Duration.ofSeconds(10)).until(() -> box.memberPids().isEmpty());
            assertThat(json.get("plan").get("lineage").get("who").asText()).isEqualTo("runaway metrics");
            assertThat(json.get("plan").get("placed")).as("followed by lineage, not placed by evidence").isEmpty();
            assertThat(metrics.isAlive()).as(Files.readString(dir.resolve("metrics.log"))).isTrue();
        }
    }

    @Test
    void aChainStoppedWhereAConsoleWatchedFirstFollowsTheConsolesLineageToZero(@TempDir Path dir) throws Exception {
        assumeTrue(new com.sun.security.auth.module.UnixSystem().getUid() == 0, "needs root: fork events");
        Path script = startingScript(dir, worker(dir));
        // The console's and top's sampler, in this process: their stops join its log directly.
        try (dev.runaway.analysis.LiveAnalysis console = dev.runaway.analysis.LiveAnalysis.live().sharingLineage(dev.runaway.procfs.LineageQuestion.Keeper.CONSOLE).start();
             Sandbox box = Sandboxes.create(SandboxSpec.of("test-daemonizer-chain", CAP))) {
            console.awaitLatest();
            ProcessIdentity root = rootOf(box, script);
            runFor3Seconds(box);

            JsonNode json = stop("--chain", root);
            assertThat(json.get("status").asText()).as(json.toString()).isEqualTo("ZERO_CONFIRMED");
            await().atMost(Duration.ofSeconds(10)).until(() -> box.memberPids().isEmpty());
            assertThat(json.get("plan").get("lineage").get("who").asText()).isEqualTo("the console");
            assertThat(json.get("plan").get("placed")).isEmpty();
        }
    }

    /** A copy of the drill worker that nobody may run too. */
    private static Path worker(Path dir) throws Exception {
        Path tool = dir.resolve("tool");
        Files.copy(Path.of(System.getProperty("runaway.native.dir"), "runaway-drill-worker"), tool);
        Files.setAttribute(tool, "unix:mode", 0755);
        Files.setAttribute(dir, "unix:mode", 0755);
        return tool;
    }

    /**
     * A script that starts the daemonizer through a subshell that exits at once, and stays: the
     * root runs another program than its runaway. It forks nothing more (a loop of sleeps would:
     * bash gives up on a fork refused at the cap after about 30 s, and the root would be gone).
     */
    private static Path startingScript(Path dir, Path tool) throws Exception {
        Path script = dir.resolve("start.sh");
        Files.writeString(script, "#!/bin/bash\n( \"" + tool + "\" daemonizer 20 & )\nexec sleep 100000\n");
        Files.setAttribute(script, "unix:mode", 0755);
        return script;
    }

    private static ProcessIdentity rootOf(Sandbox box, Path script) throws Exception {
        Process first = box.start(new ProcessBuilder(script.toString()).redirectError(ProcessBuilder.Redirect.DISCARD)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD));
        return ProcStat.read(PROC, (int) first.pid()).orElseThrow().identity();
    }

    /** As the issue found it: 3 s of growth, by then hundreds of processes pressing on the cap. */
    private static void runFor3Seconds(Sandbox box) {
        await().pollDelay(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(30)).until(() -> box.memberPids().size() >= 100);
    }

    private static JsonNode stop(ProcessIdentity root) throws Exception {
        return stop("--pid", root);
    }

    private static JsonNode stop(String by, ProcessIdentity root) throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        StopCommand stop = new StopCommand();
        stop.input = new ByteArrayInputStream(new byte[0]);
        picocli.CommandLine cli = new picocli.CommandLine(stop);
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int status = cli.execute(by, Integer.toString(root.pid()), "--yes", "--json");
        assertThat(out.toString()).as("no JSON; exit %d; %s", status, err).contains("{");
        JsonNode json = new ObjectMapper().readTree(out.toString());
        assertThat(status).as(out + "\n" + err).isEqualTo(json.get("zeroConfirmed").asBoolean() ? 0 : 3);
        return json;
    }

    private static Set<Integer> pidsOf(JsonNode array) {
        Set<Integer> pids = new HashSet<>();
        array.forEach(n -> pids.add(n.isInt() ? n.asInt() : n.get("pid").asInt()));
        return pids;
    }
}
