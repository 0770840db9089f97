// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sandbox;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The stop's wait for a killed cgroup to empty reads the kernel's populated flag: what it says, on a real cgroup and without one. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("process")
class CgroupPopulatedTest {

    @Test
    void aCgroupWithASleeperBelowItIsPopulatedAndOnceKilledAndGoneItIsNot() throws Exception {
        try (Sandbox sandbox = Sandboxes.create(SandboxSpec.of("test-populated", 8))) {
            Path member = ((CgroupSandbox) sandbox).dirs().memberDir();
            Path parent = member.getParent();
            assertThat(CgroupFiles.populated(member)).as("nothing started yet").isFalse();
            Process sleeper = sandbox.start(new ProcessBuilder("sleep", "300"));
            assertThat(CgroupFiles.populated(member)).isTrue();
            assertThat(CgroupFiles.populated(parent)).as("a member of a child counts").isTrue();
            sleeper.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10)).until(() -> !CgroupFiles.populated(member));
            assertThat(CgroupFiles.membersRecursive(member)).isEmpty();
            sandbox.teardown();
            assertThat(CgroupFiles.populated(member)).as("a cgroup that is gone holds nothing").isFalse();
        }
    }

    @Test
    void withoutTheKernelsFlagTheMemberListsSay(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("cgroup.procs"), "");
        Path child = Files.createDirectory(dir.resolve("child"));
        Files.writeString(child.resolve("cgroup.procs"), "4242\n");
        assertThat(CgroupFiles.populated(dir)).isTrue();
        Files.writeString(child.resolve("cgroup.procs"), "");
        assertThat(CgroupFiles.populated(dir)).isFalse();
        Files.writeString(dir.resolve("cgroup.events"), "populated 1\nfrozen 0\n");
        assertThat(CgroupFiles.populated(dir)).as("the flag, where there is one").isTrue();
    }
}
