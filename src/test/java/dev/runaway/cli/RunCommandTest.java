// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.cli;

import dev.runaway.sandbox.ContainedRun;
import dev.runaway.sandbox.Sandboxes;
import dev.runaway.testing.Alive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The incidents' checklist as control tests against {@code runaway run}, each run capped by its
 * own literal --tasks-max inside the suite's cap.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("process")
class RunCommandTest {
    private static final Path PROC = Path.of("/proc");

    private record Run(int status, String err) {
    }

    private static Run run(Map<String, String> env, String... args) {
        StringWriter err = new StringWriter();
        RunCommand command = new RunCommand();
        command.environment = env;
        CommandLine cli = new CommandLine(command);
        cli.setErr(new PrintWriter(err, true));
        int status = cli.execute(args);
        return new Run(status, err.toString());
    }

    @Test
    void aGrandchildLeftSleepingPastTheTimeoutIsDeadFiveSecondsLater(@TempDir Path dir) throws Exception {
        Path pidFile = dir.resolve("grandchild.pid");
        Run r = run(Map.of(), "--tasks-max", "16", "--timeout", "2s", "--", "/bin/sh", "-c",
                "/bin/sh -c 'sleep 300 & echo $! > " + pidFile + "'; sleep 300");
        assertThat(r.status()).as(r.err()).isEqualTo(ContainedRun.EXIT_TIMEOUT);
        assertThat(r.err()).contains("killed by the timeout").contains("zero confirmed");
        int grandchild = Integer.parseInt(Files.readString(pidFile).trim());
        Thread.sleep(5_000);
        assertThat(Alive.stat(grandchild).filter(s -> s.comm().equals("sleep")))
                .as("the grandchild %d, left sleeping past the timeout", grandchild).isEmpty();
    }

    @Test
    void recordsTheRunsTimeline(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("run.jsonl");
        Run r = run(Map.of(), "--tasks-max", "16", "--record", file.toString(), "--", "/bin/sh", "-c", "sleep 1; exit 4");
        assertThat(r.status()).isEqualTo(4);
        var recording = dev.runaway.timeline.RecordingReader.read(file);
        assertThat(recording.header().get("source").asText()).isEqualTo("run");
        assertThat(recording.header().get("command").get(0).asText()).isEqualTo("/bin/sh");
        var samples = recording.records().stream().filter(n -> n.get("type").asText().equals("sample")).toList();
        assertThat(samples.size()).as("about ten samples a second").isGreaterThan(5);
        assertThat(samples).extracting(n -> n.get("seconds").asDouble()).isSorted();
        assertThat(samples).anyMatch(n -> n.get("tasks").asInt() >= 2);
        var end = recording.records().get(recording.records().size() - 1);
        assertThat(end.get("type").asText()).isEqualTo("end");
        assertThat(end.get("exitStatus").asInt()).isEqualTo(4);
        assertThat(end.get("zeroConfirmed").asBoolean()).isTrue();
    }

    @Test
    void aRecorderKilledAtAnyMomentLeavesAFileThatReadsToWithinASecond(@TempDir Path dir) throws Exception {
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        java.util.Random random = new java.util.Random(29);
        try (var box = Sandboxes.create(dev.runaway.sandbox.SandboxSpec.of("test-record-kill", 160))) {
            for (int trial = 0; trial < 8; trial++) {
                Path file = dir.resolve("kill-" + trial + ".jsonl");
                Process jvm = box.start(new ProcessBuilder(javaBin, "-Xmx64m", "-XX:+UseSerialGC", "-cp", classpath,
                        "-Drunaway.native.dir=" + System.getProperty("runaway.native.dir"), Main.class.getName(), "run",
                        "--tasks-max", "8", "--record", file.toString(), "--", "sleep", "30")
                        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD));
                // Once it records (a JVM under load may take a while to start), kill it at a random moment.
                org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).pollInterval(java.time.Duration.ofMillis(20))
                        .until(() -> Files.exists(file) && Files.readAllLines(file).size() >= 3);
                long wait = random.nextInt(1500);
                Thread.sleep(wait);
                java.time.Instant killedAt = java.time.Instant.now();
                jvm.destroyForcibly().waitFor();
                var recording = dev.runaway.timeline.RecordingReader.read(file); // opens, torn line or not
                var last = recording.records().get(recording.records().size() - 1);
                java.time.Instant lastAt = java.time.Instant.parse(last.get("time").asText());
                assertThat(java.time.Duration.between(lastAt, killedAt).toMillis())
                        .as("trial %d, killed after %d ms: the last record is within a second of the kill", trial, wait)
                        .isLessThan(1000);
            }
        }
    }

    @Test
    void aCommandThatForksPastTheCapIsStoppedByIt() {
        Run r = run(Map.of(), "--tasks-max", "8", "--timeout", "30s", "--", "/bin/sh", "-c",
                "i=0; while [ $i -lt 30 ]; do sleep 2 & i=$((i+1)); done 2>/dev/null; wait; exit 3");
        assertThat(r.status()).as(r.err()).isEqualTo(ContainedRun.EXIT_TASK_CAP);
        assertThat(r.err()).contains("hit the task cap").contains("zero confirmed"); // dash gives up with 2 on a refused fork
    }

    @Test
    void aRunThatStartsItselfStopsAtTheNestingLimit(@TempDir Path dir) throws Exception {
        // Every level starts the next through a new JVM's runaway run; the third is refused.
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Path nest = dir.resolve("nest.sh");
        Files.writeString(nest, "exec " + java + " -Xmx64m -XX:+UseSerialGC -cp '" + classpath + "' -Drunaway.native.dir="
                + System.getProperty("runaway.native.dir") + " " + Main.class.getName()
                + " run --max-depth 2 --tasks-max 200 -- /bin/sh " + nest + "\n");
        Run r = run(Map.of(), "--max-depth", "2", "--tasks-max", "400", "--timeout", "60s", "--", "/bin/sh", nest.toString());
        assertThat(r.status()).as(r.err()).isEqualTo(ContainedRun.EXIT_NESTING);
        Run refused = run(Map.of(ContainedRun.DEPTH_VARIABLE, "8"), "--", "/bin/true");
        assertThat(refused.status()).isEqualTo(ContainedRun.EXIT_NESTING);
        assertThat(refused.err()).contains("nesting limit 8 reached");
    }

    @Test
    void aSuiteThatReentersItselfEndsAtTheCapWithNothingLeft(@TempDir Path dir) throws Exception {
        Path deploy = dir.resolve("deploy.sh");
        Files.writeString(deploy, String.join("\n", List.of("#!/bin/bash", "set -e", "here=\"${0%/*}\"",
                "python3 -m unittest discover -s \"$here/tests\" -q", "")));
        Path tests = Files.createDirectories(dir.resolve("tests"));
        Files.writeString(tests.resolve("test_deployment.py"), String.join("\n", List.of(
                "import os, subprocess, unittest", "HERE = os.path.dirname(os.path.abspath(__file__))",
                "class DeploymentTest(unittest.TestCase):", "    def test_deploy(self):",
                "        subprocess.run(['bash', os.path.join(HERE, '..', 'deploy.sh')])", "")));
        Run r = run(Map.of(), "--tasks-max", "40", "--timeout", "20s", "--", "/bin/bash", deploy.toString());
        assertThat(r.err()).contains("hit the task cap").contains("zero confirmed");
        assertThat(Sandboxes.list()).noneMatch(s -> s.name().label().startsWith("run-bash"));
        for (int pid : new dev.runaway.procfs.ProcReader(PROC).pids()) {
            String cmdline = String.join(" ", new dev.runaway.procfs.ProcReader(PROC).cmdline(pid));
            assertThat(cmdline).as("pid %d", pid).doesNotContain(dir.toString());
        }
    }
}
