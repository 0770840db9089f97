// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.cli;

import dev.runaway.sandbox.NativeBinaries;
import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * runaway-rt, the launchers' switch to SCHED_RR for scan and stop: the program it runs is a
 * round-robin real-time task with the switch's time in its environment; refused (an ordinary
 * user), the program still runs, at ordinary priority, and is told why.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("process")
class RealtimeLaunchTest {
    /** Prints the shell's scheduling policy and real-time priority (stat fields 41 and 40), then the two variables. */
    private static final String REPORT = "set -- $(cat /proc/$$/stat); shift 38; echo \"policy $3 priority $2\";"
            + " echo \"at=${RUNAWAY_REALTIME_AT:-} refused=${RUNAWAY_REALTIME_REFUSED:-}\"";

    private static String run(List<String> prefix) throws Exception {
        try (Sandbox sandbox = Sandboxes.create(SandboxSpec.of("test-realtime-launch", 8))) {
            List<String> command = new ArrayList<>(prefix);
            command.addAll(List.of(NativeBinaries.find("runaway-rt").toString(), "/bin/sh", "-c", REPORT));
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
            builder.environment().put("RUNAWAY_REALTIME_REFUSED", "stale, from a parent");
            Process p = sandbox.start(builder);
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as(out).isZero();
            return out;
        }
    }

    @Test
    void asRootTheProgramRunsRoundRobinWithTheSwitchTime() throws Exception {
        String out = run(List.of());
        assertThat(out).contains("policy 2 priority 1"); // SCHED_RR is 2
        assertThat(out).containsPattern("at=\\d{10}\\.\\d{6} refused=\n");
    }

    @Test
    void refusedTheProgramStillRunsAndIsToldWhy() throws Exception {
        String out = run(List.of("setpriv", "--reuid", "nobody", "--regid", "nogroup", "--clear-groups", "--inh-caps=-all"));
        assertThat(out).contains("policy 0 priority 0"); // SCHED_OTHER
        assertThat(out).contains("at= refused=Operation not permitted");
    }
}
