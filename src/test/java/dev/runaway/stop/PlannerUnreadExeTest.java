// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop;

import dev.runaway.stop.plan.Disposable;
import dev.runaway.stop.plan.Lever;
import dev.runaway.stop.plan.Planner;
import dev.runaway.stop.plan.StopPlan;
import dev.runaway.stop.target.Targets;
import dev.runaway.model.ProcessSample;
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
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A scan leaves an exe unread when its read waits (a process mid-exec): the plan reads it once
 * more before it refuses revoking execute for "cannot be read", and only for the process it
 * sampled (the suite once planned a fresh orphan's stop while its exec was under way).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@Tag("process")
class PlannerUnreadExeTest {
    @TempDir
    Path temp;

    private static StopPlan plan(ProcessSample... target) {
        Targets targets = new Targets(new Selector.Command(target[0].exe()), List.of(target), Optional.empty(), "no cgroup", List.of(),
                List.of(), Targets.Following.KEY);
        return new Planner(Disposable.forThisUser(), true).plan(targets);
    }

    private static ProcessSample unread(int pid, long startTicks, Path tool) {
        return new ProcessSample(new dev.runaway.model.ProcessIdentity(pid, startTicks), 1, pid, pid, 'S', "tool", 1, 0, 0, 0,
                List.of(tool.toString(), "600"), "", "");
    }

    /** A copy of sleep in a test cache: a disposable binary whose execute bit may be revoked. */
    private Path disposableTool() throws java.io.IOException {
        Path tool = temp.resolve("cache/tool");
        Files.createDirectories(tool.getParent());
        Files.copy(Path.of("/bin/sleep"), tool);
        tool.toFile().setExecutable(true);
        return tool;
    }

    /**
     * Waits until P runs TOOL: it starts as the sandbox's launcher and execs the tool a moment
     * later (CI once planned in between and read the launcher's exe).
     */
    private static void awaitExec(Process p, Path tool) throws InterruptedException {
        dev.runaway.procfs.ProcReader proc = new dev.runaway.procfs.ProcReader(Path.of("/proc"));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!tool.toString().equals(proc.exe((int) p.pid())) && System.nanoTime() < deadline) Thread.sleep(10);
        assertThat(proc.exe((int) p.pid())).isEqualTo(tool.toString());
    }

    @Test
    void anExeTheScanLeftUnreadIsReadAgainForTheSameProcessOnly() throws Exception {
        Path tool = disposableTool();
        try (Sandbox box = Sandboxes.create(SandboxSpec.of("test-planner-unread-exe", 4))) {
            Process p = box.start(new ProcessBuilder(tool.toString(), "600"));
            awaitExec(p, tool);
            long start = ProcStat.read(Path.of("/proc"), (int) p.pid()).orElseThrow().startTicks();

            StopPlan same = plan(unread((int) p.pid(), start, tool));
            assertThat(String.valueOf(same.refused().get(Lever.REVOKE_EXEC))).doesNotContain("cannot be read");
            assertThat(same.binaries()).containsExactly(tool.toString());

            StopPlan reused = plan(unread((int) p.pid(), start + 1, tool)); // another process under that pid
            assertThat(reused.refused().get(Lever.REVOKE_EXEC)).contains("every target has exited since the scan");
            assertThat(reused.binaries()).isEmpty();
        }
    }

    /** The suite once refused revoking because a drill's middle process, sampled alive, had exited. */
    @Test
    void aTargetThatExitedSinceTheScanStartsNothingAndDoesNotRefuseRevoking() throws Exception {
        Path tool = disposableTool();
        try (Sandbox box = Sandboxes.create(SandboxSpec.of("test-planner-exited", 4))) {
            Process live = box.start(new ProcessBuilder(tool.toString(), "600"));
            Process brief = box.start(new ProcessBuilder(tool.toString(), "600"));
            awaitExec(live, tool);
            long liveStart = ProcStat.read(Path.of("/proc"), (int) live.pid()).orElseThrow().startTicks();
            long briefStart = ProcStat.read(Path.of("/proc"), (int) brief.pid()).orElseThrow().startTicks();
            brief.destroyForcibly().waitFor(); // reaped: its pid reads as gone

            StopPlan plan = plan(unread((int) live.pid(), liveStart, tool), unread((int) brief.pid(), briefStart, tool));
            assertThat(plan.refused()).doesNotContainKey(Lever.REVOKE_EXEC);
            assertThat(plan.binaries()).containsExactly(tool.toString());
        }
    }
}
