// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop;

import dev.runaway.stop.act.Actuator;
import dev.runaway.stop.helper.HelperBinding;
import dev.runaway.stop.helper.HelperStarter;
import dev.runaway.stop.plan.Disposable;
import dev.runaway.model.ProcessIdentity;
import dev.runaway.procfs.ProcStat;
import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The swap between the plan's check and the revoke, made deterministic: the plan saw a
 * disposable binary; before the lever is pulled the owner of the directory renames a symlink to
 * a root binary over it. The code before read the mode and chmodded by path through the link
 * (the stand-in root binary lost its execute bits); the actuator now opens beneath the root with
 * no symlink and refuses. The stand-in is a 0755 file this test makes in its own folder; the
 * runner is a copy of sleep in a sandbox this test owns (cap 8), torn down at the end.
 */
@Tag("process")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ActuatorRevokeSwapTest {
    @TempDir
    Path dir;

    @Test
    void aSymlinkRenamedOverTheBinaryAfterThePlanIsNotFollowed() throws Exception {
        Path tool = dir.resolve("tool");
        Files.copy(Path.of("/bin/sleep"), tool, StandardCopyOption.COPY_ATTRIBUTES);
        Files.setAttribute(tool, "unix:mode", 0755);
        Path standIn = Files.createDirectory(dir.resolve("system")).resolve("rootbin");
        Files.copy(Path.of("/bin/true"), standIn);
        Files.setAttribute(standIn, "unix:mode", 0755);
        try (Sandbox box = Sandboxes.create(SandboxSpec.of("test-actuator-revoke-swap", 8));
             Actuator actuator = new Actuator(Path.of("/proc"), HelperStarter.NONE)) {
            Process p = box.start(new ProcessBuilder(tool.toString(), "300"));
            await().atMost(10, TimeUnit.SECONDS).until(() -> tool.equals(exeOf(p.pid())));
            ProcessIdentity runner = new ProcessIdentity((int) p.pid(), ProcStat.read(Path.of("/proc"), (int) p.pid()).orElseThrow().startTicks());
            assertThat(Disposable.forThisUser().check(tool.toString()).disposable()).as("the plan's check passes").isTrue();
            actuator.bind(new HelperBinding(tool.toString(), Optional.empty(), List.of(runner)));

            Path link = dir.resolve("tool.new");
            Files.createSymbolicLink(link, standIn);
            Files.move(link, tool, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);

            assertThatThrownBy(() -> actuator.revoke(tool.toString())).isInstanceOf(StopException.class).hasMessageContaining("symlink");
            assertThat((Integer) Files.getAttribute(standIn, "unix:mode") & 07777).as("the stand-in root binary").isEqualTo(0755);
        }
    }

    private static Path exeOf(long pid) {
        try {
            return Files.readSymbolicLink(Path.of("/proc", Long.toString(pid), "exe"));
        } catch (Exception e) {
            return null;
        }
    }
}
