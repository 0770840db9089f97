// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

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
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The kernel's process events name the initial pid namespace's pids. In a pid namespace of its
 * own (a container, the system test's systemd-nspawn guest) a listener still receives them while
 * something on the host listens (here: this test's JVM), naming processes it cannot see: it must
 * not follow them. Before issue 39's fix it did ("events child-named no"), and a guard in the
 * guest missed its own new processes: the linear drill was held only at its cap.
 */
@Tag("process")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ProcEventsNamespaceTest {

    @Test
    void inAPidNamespaceOfItsOwnTheEventsAreFollowedOnlyIfTheyNameItsOwnProcesses(@TempDir Path dir) throws Exception {
        Optional<ProcEvents> host = ProcEvents.open();
        assumeTrue(host.isPresent(), "process events need CAP_NET_ADMIN");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        try (ProcEvents listening = host.get(); Sandbox box = Sandboxes.create(SandboxSpec.of("test-events-namespace", 64))) {
            Process inside = box.start(new ProcessBuilder(List.of("unshare", "--pid", "--fork", "--mount-proc", java, "-Xmx64m",
                    "-XX:+UseSerialGC", "-cp", classpath, EventsProbe.class.getName()))
                    .redirectErrorStream(true).redirectOutput(dir.resolve("probe.log").toFile()));
            assertThat(inside.waitFor(90, TimeUnit.SECONDS)).isTrue();
            String said = Files.readString(dir.resolve("probe.log")).strip();
            assertThat(inside.exitValue()).as(said).isZero();
            assertThat(said).as("inside its own pid namespace").isIn("events none", "events child-named yes");
        }
    }

    @Test
    void inTheInitialNamespaceTheyAreFollowed() {
        Optional<ProcEvents> opened = ProcEvents.open();
        assumeTrue(new com.sun.security.auth.module.UnixSystem().getUid() == 0, "process events need CAP_NET_ADMIN");
        assertThat(opened).as("root in the initial pid namespace").isPresent();
        opened.get().close();
    }
}
