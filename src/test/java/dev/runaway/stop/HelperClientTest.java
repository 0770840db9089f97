// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop;

import dev.runaway.stop.act.Actuator;
import dev.runaway.stop.helper.HelperBinding;
import dev.runaway.stop.helper.HelperClient;
import dev.runaway.stop.helper.HelperUnavailable;
import dev.runaway.stop.helper.InstalledHelper;
import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import dev.runaway.sandbox.NativeBinaries;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The console's side of the helper, against stand-ins started in a sandbox this test owns: a
 * helper that never answers, a "pkexec" that was cancelled, a real helper that answers HELLO.
 */
@Tag("process")
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class HelperClientTest {

    @Test
    void aRequestTimesOutWithAClearMessageAndTheClientIsClosed() throws Exception {
        try (Sandbox box = Sandboxes.create(SandboxSpec.of("test-helper-client", 8));
             HelperClient mute = new HelperClient(box.start(new ProcessBuilder("sleep", "300")))) {
            assertThatThrownBy(() -> mute.request("HELLO", Duration.ofMillis(300))).isInstanceOf(IOException.class)
                    .hasMessage("the helper did not answer HELLO within 0 s; it was closed");
            assertThat(mute.alive()).isFalse();
            assertThatThrownBy(() -> mute.request("HELLO")).hasMessageContaining("stopped answering earlier");
        }
    }

    @Test
    void aHelperCountsAsStartedOnlyOnceItAnsweredAndAFailedPkexecSaysWhy(@TempDir Path dir) throws Exception {
        Path config = Files.writeString(dir.resolve("roots.conf"), "# none\n");
        try (Sandbox box = Sandboxes.create(SandboxSpec.of("test-helper-client", 8))) {
            for (int[] exit : new int[][] {{126}, {127}}) {
                Process pkexec = box.start(new ProcessBuilder("sh", "-c", "echo 'Error executing command as another user: Not authorized' >&2;"
                        + " exit " + exit[0]).redirectError(ProcessBuilder.Redirect.PIPE));
                assertThatThrownBy(() -> HelperClient.handshake(pkexec, "/usr/bin/pkexec", HelperClient.START_TIMEOUT))
                        .isInstanceOf(HelperUnavailable.class)
                        .hasMessageStartingWith(exit[0] == 126 ? "the password dialog was cancelled" : "not authorized: wrong password");
            }
            Process helper = box.start(new ProcessBuilder(NativeBinaries.find(HelperLine.BINARY).toString(), "--config", config.toString())
                    .redirectError(ProcessBuilder.Redirect.PIPE));
            try (HelperClient client = HelperClient.handshake(helper, "runaway-helper", HelperClient.START_TIMEOUT)) {
                assertThat(client.alive()).isTrue();
                assertThat(client.request("MEMBERS /runaway-no-such-cgroup").code()).isEqualTo(HelperClient.Code.GONE);
            }
            // The console's description of a stop, however hostile its selector, is one the real helper accepts.
            HelperBinding hostile = new HelperBinding("/tmp/\u001b[2J<b>$(id)</b>\u00e9/" + "x".repeat(300), Optional.empty(), List.of());
            List<String> command = new ArrayList<>(InstalledHelper.command(Optional.of(hostile)));
            command.set(1, NativeBinaries.find(HelperLine.BINARY).toString());
            Process described = box.start(new ProcessBuilder(command.subList(1, command.size())).redirectError(ProcessBuilder.Redirect.PIPE));
            try (HelperClient client = HelperClient.handshake(described, "runaway-helper", HelperClient.START_TIMEOUT)) {
                assertThat(client.alive()).as(client.stderr()).isTrue();
            }
        }
        assertThatThrownBy(() -> HelperClient.start(new ProcessBuilder("/nonexistent/pkexec"), Duration.ofSeconds(5)))
                .isInstanceOf(HelperUnavailable.class).hasMessageStartingWith("cannot run /nonexistent/pkexec");
    }

    @Test
    void oneHelperPerSessionAndNoSecondStartAfterAFailureUnlessAsked() throws Exception {
        AtomicInteger starts = new AtomicInteger();
        try (Actuator actuator = new Actuator(java.nio.file.Path.of("/proc"), () -> {
            starts.incrementAndGet();
            throw new HelperUnavailable("the password dialog was cancelled");
        })) {
            assertThat(actuator.warmUp()).isFalse();
            assertThat(actuator.warmUp()).isFalse();
            assertThat(starts).as("no second pkexec after a failure").hasValue(1);
            assertThat(actuator.helperUnavailable()).contains("the password dialog was cancelled");
            actuator.retryHelper();
            assertThat(actuator.warmUp()).isFalse();
            assertThat(starts).as("the user asked again").hasValue(2);
        }
    }
}
