// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop;

import dev.runaway.stop.act.Actuator;
import dev.runaway.stop.helper.HelperStarter;
import dev.runaway.stop.helper.HelperUnavailable;
import dev.runaway.stop.plan.Disposable;
import dev.runaway.stop.plan.Lever;
import dev.runaway.stop.plan.LeverCheck;
import dev.runaway.stop.plan.Privilege;
import dev.runaway.stop.plan.StopPlan;
import dev.runaway.stop.target.Targets;
import dev.runaway.analysis.CommandKeys;
import dev.runaway.model.ProcessIdentity;
import dev.runaway.model.ProcessSample;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A process whose command line is not read yet (its read waited on a forking process's memory
 * map): a stop never takes a group keyed by an unread command line, and a script's plan says
 * that zero is not claimed while such a process lives.
 */
class UnreadCommandLineStopTest {
    @Test
    void aGroupOfUnreadCommandLinesIsRefusedBeforeAnythingIsRead() {
        try (Actuator actuator = new Actuator(Path.of("/proc"), (HelperStarter) confirmedStop -> {
            throw new HelperUnavailable("not needed here");
        })) {
            StopCore core = new StopCore(Path.of("/proc"), null, actuator, Disposable.forThisUser());
            StopSession s = core.open(new Selector.Command("/usr/bin/bash" + CommandKeys.CMDLINE_UNREAD)).prepare();

            assertThat(s.state()).isEqualTo(StopSession.State.REFUSED);
            assertThat(s.refusal().orElseThrow().reason()).isEqualTo(StopSession.Reason.NOT_A_TARGET);
            assertThat(s.refusal().orElseThrow().words()).contains("command lines are not read yet").contains("--cgroup");
        }
    }

    @Test
    void aScriptsPlanSaysWhyZeroWillNotBeClaimed() {
        Selector selector = new Selector.Command("/opt/loop.sh");
        ProcessSample unread = new ProcessSample(new ProcessIdentity(4242, 99), 1, 4242, 4242, 'S', "bash", 1, 0, 0, 0,
                List.of(), "/usr/bin/bash", "/user.slice", true);
        Targets targets = new Targets(selector, List.of(), Optional.empty(), "", List.of(), List.of(unread), Targets.Following.KEY);
        StopPlan plan = new StopPlan(targets, Map.of(Lever.SIGSTOP_SWEEP, new LeverCheck(Lever.SIGSTOP_SWEEP, LeverCheck.Feasible.AS_YOU, "own")),
                List.of(Lever.SIGSTOP_SWEEP), List.of(), new Privilege(true, 0, Privilege.Helper.INSTALLED), 1);

        assertThat(String.join("\n", plan.describe())).contains("Cannot tell: 1 processes of an interpreter whose command line could not be read yet")
                .contains("zero will not be claimed while they live").contains("pid 4242 /usr/bin/bash").doesNotContain("adopted by init");
    }
}
