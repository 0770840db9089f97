// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop;

import dev.runaway.sandbox.AsNobody;
import dev.runaway.sandbox.CgroupLayout;
import dev.runaway.sandbox.CgroupSandbox;
import dev.runaway.sandbox.NativeBinaries;
import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The attacks of issues 13 and 32 on the real helper binary, driven by an unprivileged user (nobody)
 * playing a malicious console. Safety: everything runs in a sandbox this test owns, inside a
 * private mount namespace where the "system" files aimed at are stand-ins on a throwaway tmpfs
 * (helper-attack.sh); the only processes touched are the sandbox's. Each attack must fail and
 * leave nothing changed.
 */
@Tag("process")
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class HelperAttackTest {
    private static Map<String, String> found;
    private static String output;

    @TempDir
    static Path dir;

    @BeforeAll
    static void attack() throws Exception {
        assumeTrue(CgroupLayout.detect().unified().isPresent(), "needs a cgroup v2 tree");
        Path stage = copy("helper-attack.sh");
        Path attacker = copy("helper-attack.py");
        Path v2 = CgroupLayout.detect().unified().orElseThrow();
        try (Sandbox box = Sandboxes.create(SandboxSpec.of("test-helper-attack", 64))) {
            assumeTrue(box instanceof CgroupSandbox c && c.dirs().unified() != null, "needs cgroup v2 sandboxes");
            Path cgroup = ((CgroupSandbox) box).dirs().unified();
            Process stageRun = box.start(new ProcessBuilder("unshare", "-m", "--propagation", "private", "sh", stage.toString(),
                    NativeBinaries.find(HelperLine.BINARY).toString(), attacker.toString(), cgroup.toString(), v2.toString())
                    .redirectErrorStream(true));
            output = new String(stageRun.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(stageRun.waitFor(120, TimeUnit.SECONDS)).isTrue();
        }
        found = AsNobody.keyValues(output.lines().filter(l -> l.startsWith("RESULT ")).map(l -> l.substring(7))
                .reduce("", (a, b) -> a + b + "\n"));
        assertThat(found.get("done")).as(output).isNotNull();
        assertThat(found.get("attacker_exit")).as(output).isEqualTo("0");
    }

    private static Path copy(String resource) throws IOException {
        Path file = dir.resolve(resource);
        try (InputStream in = HelperAttackTest.class.getResourceAsStream(resource)) {
            Files.copy(in, file);
        }
        return file;
    }

    @Test
    void theRenameExchangeRaceNeverChmodsTheStandInSystemBinary() {
        assertThat(found.get("standin_mode")).as(output).isEqualTo("755");
        // The race ran: some requests met the directory and revoked the attacker's own file, others met the symlink.
        assertThat(Integer.parseInt(found.get("race_revoked"))).as(found.get("race_replies")).isPositive();
        assertThat(Integer.parseInt(found.get("race_refused"))).as(found.get("race_replies")).isPositive();
    }

    @Test
    void noArgumentConfiguresAHelperStartedForAUser() {
        assertThat(found.get("pkexec_config_exit")).as("PKEXEC_UID set, --config given").isEqualTo("2");
        assertThat(found.get("caller_config_exit")).as("started by nobody, --config given").isEqualTo("2");
        assertThat(found.get("caller_config_said")).contains("no argument configures the helper").contains("/etc/runaway/disposable-roots");
    }

    @Test
    void theInformationalArgumentIsCheckedAndConfiguresNothing() {
        Map<String, String> refusals = Map.of(
                "stop_control", "holds a control or non-ASCII character",
                "stop_newline", "holds a control or non-ASCII character",
                "stop_long", "longer than 160 characters",
                "stop_markup", "holds one of < > & $",
                "stop_empty", "is empty",
                "stop_missing", "--stop takes exactly one DESCRIPTION",
                "stop_twice", "--stop takes exactly one DESCRIPTION",
                "stop_config", "--stop takes exactly one DESCRIPTION",
                "prepare_value", "--prepare takes no value",
                "unknown", "an unknown argument");
        refusals.forEach((name, why) -> {
            assertThat(found.get("args_" + name + "_exit")).as(name).isEqualTo("2");
            assertThat(found.get("args_" + name + "_lines")).as(name + ": one line").isEqualTo("1");
            assertThat(found.get("args_" + name + "_said")).as(name).startsWith("runaway-helper: refused: ").contains(why);
        });
        for (String name : new String[] {"prepare", "stop"}) {
            assertThat(found.get("args_" + name + "_hello")).as(name).isEqualTo("OK");
            assertThat(found.get("args_" + name + "_freeze_root")).as(name + ": the description binds nothing").isEqualTo("ERR-refused");
            assertThat(found.get("args_" + name + "_signal_victim")).as(name).isEqualTo("ERR-refused");
            assertThat(found.get("args_" + name + "_exit")).as(name).isEqualTo("0");
        }
    }

    @Test
    void aForeignProcessCannotDriveTheConsolesPipe() {
        // While the console is dumpable another process of the user can write into the pipe, and the helper refuses to bind.
        assertThat(found.get("foreign_write_dumpable")).isEqualTo("written");
        assertThat(found.get("bind_dumpable")).isEqualTo("ERR-refused");
        assertThat(found.get("foreign_write_guarded")).as("PR_SET_DUMPABLE 0 makes /proc/PID/fd root's").isEqualTo("denied");
    }

    @Test
    void leversActOnlyOnTheConfirmedStop() {
        assertThat(found.get("signal_unbound")).isEqualTo("ERR-refused");
        assertThat(found.get("bind_root")).isEqualTo("ERR-refused");
        assertThat(found.get("confirm")).isEqualTo("OK");
        assertThat(found.get("rebind")).isEqualTo("ERR-refused");
        assertThat(found.get("signal_victim")).isEqualTo("ERR-refused");
        assertThat(found.get("oomadj_victim")).isEqualTo("ERR-refused");
        assertThat(found.get("oomadj_console")).as("-1000 for anyone, the console included").isEqualTo("ERR-refused");
        assertThat(found.get("freeze_root")).isEqualTo("ERR-refused");
        assertThat(found.get("freeze_delegated")).isEqualTo("ERR-refused");
        assertThat(found.get("victim")).as("root's process outside the stop: not stopped").isEqualTo("running");
        assertThat(found.get("victim_oom")).isEqualTo("0");
    }

    /** Issue 32: a stop of one's own sleep confirmed once no longer lets REVOKE reach another user's tools. */
    @Test
    void revokeReachesOnlyTheCallersOwnFilesThatTheStopRuns() {
        assertThat(found.get("revoke_other_users")).as("daemon's copy of true in /tmp, run by nothing in the stop")
                .isEqualTo("ERR-refused");
        assertThat(found.get("victim_true_mode")).isEqualTo("755");
        assertThat(found.get("rebound")).isEqualTo("OK");
        assertThat(found.get("revoke_other_users_run")).as("daemon's copy of sleep, run by a target the attacker named")
                .isEqualTo("ERR-refused");
        assertThat(found.get("victim_sleep_mode")).isEqualTo("755");
        assertThat(found.get("revoke_own_not_run")).as("the attacker's own file, run by nothing in the stop").isEqualTo("ERR-refused");
        assertThat(found.get("own_idle_mode")).isEqualTo("755");
    }

    @Test
    void moveIntoAUserMadeQuarantineIsRefused() {
        assertThat(found.get("move_user_quarantine")).isEqualTo("ERR-refused");
        assertThat(found.get("user_quarantine_procs")).isEqualTo("0");
    }

    @Test
    void restoreOfBitsTheHelperNeverTookIsRefused() {
        assertThat(found.get("restore_not_taken")).isEqualTo("ERR-refused");
        assertThat(found.get("rootfile_mode")).isEqualTo("644");
        assertThat(found.get("revoke_fifo")).as("a FIFO neither hangs the helper nor is changed").isEqualTo("ERR-refused");
    }

    @Test
    void whenTheConsoleGoesAwayMidStopTheHelperKillsWhatItQuarantinedAndRemovesTheQuarantine() {
        assertThat(found.get("quarantine")).isEqualTo("OK");
        assertThat(found.get("move_own_quarantine")).isEqualTo("OK");
        assertThat(found.get("helper_exit")).isEqualTo("0");
        assertThat(found.get("target_after_eof")).isEqualTo("killed-9");
        assertThat(found.get("quarantine_after_eof")).isEqualTo("removed");
    }
}
