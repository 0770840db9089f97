// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop;

import dev.runaway.stop.plan.Disposable;
import dev.runaway.stop.plan.Lever;
import dev.runaway.stop.plan.Planner;
import dev.runaway.stop.plan.Privilege;
import dev.runaway.stop.plan.StopPlan;
import dev.runaway.stop.target.Targets;
import dev.runaway.model.ProcessIdentity;
import dev.runaway.model.ProcessSample;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Revoking execute on a binary is planned only for your own binaries: for a user the helper
 * changes only that user's files (issue 32), so another user's binary is never its lever, even
 * with a helper running. No process is started: the targets are samples of a file made here.
 */
class PlannerRevokeOwnerTest {
    @TempDir
    Path temp;

    private static StopPlan plan(Path binary, Privilege privilege) {
        ProcessSample target = new ProcessSample(new ProcessIdentity(4242, 100), 1, 4242, 4242, 'S', "tool", 1, 0, 0,
                privilege.uid(), List.of(binary.toString(), "600"), binary.toString(), "");
        Targets targets = new Targets(new Selector.Command(binary.toString()), List.of(target), Optional.empty(), "no cgroup",
                List.of(), List.of(), Targets.Following.KEY);
        return new Planner(new Disposable(List.of(Path.of("/tmp")), Path.of("/nonexistent-home")), privilege).plan(targets);
    }

    @Test
    void anotherUsersBinaryIsNotRevokedThroughTheHelper() throws Exception {
        Path tool = Files.createFile(temp.resolve("tool"));
        Files.setAttribute(tool, "unix:mode", 0755);
        int owner = (Integer) Files.getAttribute(tool, "unix:uid");

        StopPlan others = plan(tool, new Privilege(false, owner + 1, Privilege.Helper.RUNNING));
        assertThat(others.refused().get(Lever.REVOKE_EXEC)).contains("not all are yours")
                .contains("the helper takes execute bits only off your own files");
        assertThat(others.order()).doesNotContain(Lever.REVOKE_EXEC);
        assertThat(others.binaries()).isEmpty();

        StopPlan own = plan(tool, new Privilege(false, owner, Privilege.Helper.RUNNING));
        assertThat(own.refused()).doesNotContainKey(Lever.REVOKE_EXEC);
        assertThat(own.binaries()).containsExactly(tool.toString());
    }
}
