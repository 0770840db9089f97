// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop;

import dev.runaway.stop.act.Actuator;
import dev.runaway.stop.helper.HelperBinding;
import dev.runaway.stop.helper.HelperStarter;
import dev.runaway.stop.helper.HelperUnavailable;
import dev.runaway.stop.helper.InstalledHelper;
import dev.runaway.stop.plan.Disposable;
import dev.runaway.stop.plan.Lever;
import dev.runaway.stop.plan.LeverCheck;
import dev.runaway.stop.plan.Privilege;
import dev.runaway.stop.plan.StopPlan;
import dev.runaway.stop.target.Targets;
import dev.runaway.model.ProcessIdentity;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the polkit prompt is given: pkexec's command line ahead of need and for a confirmed stop,
 * the stop's description in what the helper accepts, and the moment the console passes the
 * stop (only once it is bound, that is confirmed).
 */
class HelperPromptTest {
    private static final String HELPER = InstalledHelper.PATH.toString();

    private static HelperBinding stop(String command, int targets) {
        return new HelperBinding(command, Optional.empty(),
                IntStream.rangeClosed(1, targets).mapToObj(i -> new ProcessIdentity(1000 + i, 5000 + i)).toList());
    }

    @Test
    void aheadOfNeedThePromptPreparesAndForAConfirmedStopItNamesTheSelectorAndTheCount() {
        assertThat(InstalledHelper.command(Optional.empty())).containsExactly("pkexec", HELPER, "--prepare");
        assertThat(InstalledHelper.command(Optional.of(stop("chain of pid 4242", 312))))
                .containsExactly("pkexec", HELPER, "--stop", "chain of pid 4242 (312 processes)");
        assertThat(InstalledHelper.description(stop("/usr/bin/python3 loop.py", 1))).isEqualTo("/usr/bin/python3 loop.py (1 process)");
    }

    @Test
    void theDescriptionHoldsOnlyWhatTheHelperAccepts() {
        String hostile = "/tmp/x\u001b[2J\nrm <b>&amp;</b> $(id) caf\u00e9 \u202e";
        String said = InstalledHelper.description(stop(hostile, 2));
        assertThat(said).isEqualTo("/tmp/x?[2J?rm ?b??amp;?/b? ?(id) caf? ? (2 processes)");
        assertThat(said.chars()).allMatch(c -> c >= 0x20 && c <= 0x7e && "<>&$".indexOf(c) < 0);

        String longKey = "/home/u/p/target/" + "very-long-directory/".repeat(20) + "tool";
        String cut = InstalledHelper.description(stop(longKey, 49_000));
        assertThat(cut).hasSize(InstalledHelper.DESCRIPTION_CHARS).startsWith("/home/u/p/target/very-long-directory/")
                .endsWith("... (49000 processes)");
        assertThat(InstalledHelper.description(stop("x".repeat(146), 3))).as("fits exactly: not cut").hasSize(160).doesNotContain("...");
    }

    @Test
    void theStopIsPassedOnlyOnceItIsBoundThatIsConfirmed() {
        List<Optional<HelperBinding>> asked = new ArrayList<>();
        try (Actuator actuator = new Actuator(Path.of("/proc"), (HelperStarter) confirmedStop -> {
            asked.add(confirmedStop);
            throw new HelperUnavailable("the password dialog was cancelled");
        })) {
            assertThat(actuator.warmUp()).isFalse(); // a plan opened, or the offer accepted: nothing confirmed yet
            HelperBinding confirmed = stop("cgroup /runaway-test", 4);
            actuator.bind(confirmed);
            actuator.retryHelper();
            assertThat(actuator.warmUp()).isFalse(); // the first lever that needs it, after the confirmation
            actuator.unbind();
            actuator.retryHelper();
            assertThat(actuator.warmUp()).isFalse();
        }
        assertThat(asked).containsExactly(Optional.empty(), Optional.of(stop("cgroup /runaway-test", 4)), Optional.empty());
    }

    @Test
    void aPlanNamesTheStopInThePromptOnlyWhenTheUserConfirmedUpFront() {
        Selector selector = new Selector.Command("/tmp/x/runaway");
        StopPlan plan = new StopPlan(new Targets(selector, List.of(), Optional.empty(), "", List.of(), List.of(), Targets.Following.KEY),
                Map.of(Lever.SIGSTOP_SWEEP, new LeverCheck(Lever.SIGSTOP_SWEEP, LeverCheck.Feasible.VIA_HELPER, "another user's")),
                List.of(Lever.SIGSTOP_SWEEP), List.of(), new Privilege(false, 1000, Privilege.Helper.INSTALLED), 1);
        assertThat(plan.needsHelper()).isTrue();
        List<Optional<HelperBinding>> asked = new ArrayList<>();
        for (boolean yes : new boolean[] {false, true}) {
            try (Actuator actuator = new Actuator(Path.of("/proc"), (HelperStarter) confirmedStop -> {
                asked.add(confirmedStop);
                throw new HelperUnavailable("the password dialog was cancelled");
            })) {
                StopCore core = new StopCore(Path.of("/proc"), null, actuator, Disposable.forThisUser());
                if (yes) core.confirmedUpFront();
                assertThat(core.warmHelperIfNeeded(plan)).contains("the password dialog was cancelled");
            }
        }
        assertThat(asked).as("a plan shown for confirmation prepares; runaway stop --yes names the stop")
                .containsExactly(Optional.empty(), Optional.of(plan.binding()));
        assertThat(InstalledHelper.description(plan.binding())).isEqualTo("/tmp/x/runaway (0 processes)");
    }
}
