// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.cli;

import dev.runaway.sandbox.NativeBinaries;
import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxMonitor;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** {@code runaway protect}: the files it writes, the undo, and that the same cap holds a fork loop. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("process")
class ProtectCommandTest {

    private record Run(int status, String out, String err) {
    }

    private static Run run(Map<String, String> env, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        ProtectCommand command = new ProtectCommand();
        command.environment = env;
        CommandLine cli = new CommandLine(command);
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return new Run(cli.execute(args), out.toString(), err.toString());
    }

    @Test
    void writesTheGoldenDropInsShowsThemAndUndoesThem(@TempDir Path dir) throws Exception {
        Run wrote = run(Map.of(), "--dir", dir.toString(), "--tasks-max", "1024", "--memory-max", "8G", "--swap-max", "0");
        assertThat(wrote.status()).as(wrote.err()).isZero();
        String golden = Files.readString(Path.of("src/test/resources/protect/50-runaway-protect.conf"));
        for (String prefix : DropIns.PREFIXES) {
            assertThat(Files.readString(dir.resolve(prefix).resolve(DropIns.FILE))).isEqualTo(golden);
        }
        Run status = run(Map.of(), "--dir", dir.toString(), "--status");
        assertThat(status.out()).contains("app-*.scope: TasksMax=1024 MemoryMax=8589934592 MemorySwapMax=0")
                .contains("vte-spawn-*.scope: TasksMax=1024");
        Run undone = run(Map.of(), "--dir", dir.toString(), "--undo");
        assertThat(undone.status()).isZero();
        try (var left = Files.list(dir)) {
            assertThat(left.toList()).as("nothing left behind").isEmpty();
        }
        assertThat(run(Map.of(), "--dir", dir.toString(), "--status").out()).contains("No runaway protect caps");
    }

    @Test
    void withoutSystemdItSaysSoAndChangesNothing(@TempDir Path config) throws Exception {
        assumeFalse(ProtectCommand.systemdRunning(), "this machine runs systemd");
        Run r = run(Map.of("XDG_CONFIG_HOME", config.toString()));
        assertThat(r.status()).isEqualTo(3);
        assertThat(r.err()).contains("systemd is not running here").contains("nothing changed");
        try (var left = Files.list(config)) {
            assertThat(left.toList()).isEmpty();
        }
    }

    @Test
    void badSettingsAreCaughtBeforeAnythingIsWritten(@TempDir Path dir) throws Exception {
        assertThat(run(Map.of(), "--dir", dir.toString(), "--memory-max", "8X").status()).isEqualTo(2);
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/systemd-analyze")), "needs systemd-analyze");
        assertThat(ProtectCommand.verify("[Scope]\nTasksMax=abc\n")).contains("Invalid maximum tasks value");
        assertThat(ProtectCommand.verify(DropIns.content(1024, java.util.OptionalLong.empty(), java.util.OptionalLong.of(0)))).isNull();
    }

    @Test
    void theSameCapStopsAForkLoopAtExactlyTheCapWhileOutsideStillForks() throws Exception {
        String worker = NativeBinaries.find(NativeBinaries.DRILL_WORKER).toString();
        try (Sandbox window = Sandboxes.create(SandboxSpec.of("test-protect-window", 1024));
             Sandbox desktop = Sandboxes.create(SandboxSpec.of("test-protect-desktop", 8))) {
            window.start(new ProcessBuilder(worker, "sleepers", "2000").redirectError(ProcessBuilder.Redirect.DISCARD));
            SandboxMonitor monitor = new SandboxMonitor(window);
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(60)).pollInterval(java.time.Duration.ofMillis(100))
                    .until(() -> monitor.sample().failedForks() > 0 && window.taskCount() >= 1024);
            assertThat(window.taskCount()).as("the fork loop stops at exactly the cap").isEqualTo(1024);
            assertThat(window.failedForks()).isPositive();
            Process outside = desktop.start(new ProcessBuilder("/bin/sh", "-c", "sleep 0.1 & wait"));
            assertThat(outside.waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(outside.exitValue()).as("a window outside the capped one still forks").isZero();
        }
    }
}
