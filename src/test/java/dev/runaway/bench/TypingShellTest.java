// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.bench;

import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The bench's terminal: a command typed into a waiting shell runs with its words and variables whole, and its end is seen. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("process")
class TypingShellTest {

    @Test
    void aTypedCommandRunsWithItsWordsAndVariableAndItsStatusIsSeen(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("out");
        Path err = dir.resolve("err");
        try (Sandbox tools = Sandboxes.create(SandboxSpec.of("test-typing", 16)); TypingShell shell = TypingShell.start(tools, false)) {
            long pid = shell.type(List.of("sh", "-c", "echo \"$1 $GREETING\"; echo oops >&2; exit 3", "sh", "it's $HOME"),
                    Map.of("GREETING", "a b"), out, err);
            assertThat(pid).isPositive();
            assertThat(shell.awaitEnd(20_000)).hasValue(3);
            assertThat(Files.readString(out)).isEqualTo("it's $HOME a b\n");
            assertThat(Files.readString(err)).isEqualTo("oops\n");

            long sleeper = shell.type(List.of("sleep", "300"), Map.of(), out, err);
            assertThat(shell.awaitEnd(200)).as("still running").isEmpty();
            assertThat(tools.memberPids()).contains((int) sleeper);
            dev.runaway.sys.LibC.INSTANCE.kill((int) sleeper, dev.runaway.sys.Signal.SIGKILL);
            assertThat(shell.awaitEnd(20_000)).hasValue(128 + 9);
        }
    }
}
