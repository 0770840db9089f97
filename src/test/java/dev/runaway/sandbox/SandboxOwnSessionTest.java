// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sandbox;

import dev.runaway.procfs.ProcStat;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A runaway started in a session of its own, as from another terminal or a CI job (bench ui's
 * default): the process leads a new session, while a plain start stays in the caller's; both
 * are members of the sandbox.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@Tag("process")
class SandboxOwnSessionTest {
    private static final Path PROC = Path.of("/proc");

    @Test
    void aStartInItsOwnSessionLeadsANewSessionAndAPlainStartDoesNot() throws Exception {
        int ourSession = ProcStat.read(PROC, (int) ProcessHandle.current().pid()).orElseThrow().session();
        try (Sandbox sandbox = Sandboxes.create(SandboxSpec.of("test-own-session", 8))) {
            Process own = sandbox.startInOwnSession(new ProcessBuilder("sleep", "300"));
            Process plain = sandbox.start(new ProcessBuilder("sleep", "300"));
            ProcStat ownStat = ProcStat.read(PROC, (int) own.pid()).orElseThrow();
            ProcStat plainStat = ProcStat.read(PROC, (int) plain.pid()).orElseThrow();
            assertThat(ownStat.session()).as("leads its own session").isEqualTo((int) own.pid()).isNotEqualTo(ourSession);
            assertThat(plainStat.session()).as("stays in the caller's session").isEqualTo(ourSession);
            assertThat(sandbox.memberPids()).contains((int) own.pid(), (int) plain.pid());
        }
    }
}
