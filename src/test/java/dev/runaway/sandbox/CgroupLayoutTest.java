// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sandbox;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class CgroupLayoutTest {

    private static final String PROC_SELF_CGROUP = "9:name=systemd:/\n8:pids:/user.slice\n4:memory:/x\n0::/a/b\n";

    private static void touch(Path file, String content) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, content);
    }

    @Test
    void hybridHostHasUnifiedBelowRootAndV1Pids(@TempDir Path root) throws IOException {
        touch(root.resolve("unified/cgroup.controllers"), "\n");
        touch(root.resolve("pids/cgroup.procs"), "1\n");
        touch(root.resolve("memory/cgroup.procs"), "1\n");
        touch(root.resolve("memory/memory.limit_in_bytes"), "9223372036854771712\n");

        CgroupLayout layout = CgroupLayout.detect(root);

        assertThat(layout.unified()).contains(root.resolve("unified"));
        assertThat(layout.v1Pids()).contains(root.resolve("pids"));
        assertThat(layout.v1Memory()).contains(root.resolve("memory"));
        assertThat(layout.unifiedHas("pids")).isFalse();
    }

    @Test
    void aV1MemoryDirectoryWithoutItsLimitFileIsNotAMemoryHierarchy(@TempDir Path root) throws IOException {
        touch(root.resolve("unified/cgroup.controllers"), "\n");
        touch(root.resolve("memory/cgroup.procs"), "1\n");

        assertThat(CgroupLayout.detect(root).v1Memory()).isEmpty();
    }

    @Test
    void memoryCgroupNestsBelowOurOwnV1MemoryCgroup(@TempDir Path root) throws IOException {
        Path own = Files.createDirectories(root.resolve("process_api/405b"));
        String text = "8:pids:/\n4:memory:/process_api/405b\n0::/\n";

        assertThat(MemoryCap.parentFor(root, text)).isEqualTo(own);
        assertThat(MemoryCap.parentFor(root, "8:pids:/\n4:memory:/\n0::/\n")).isEqualTo(root);
        assertThat(MemoryCap.parentFor(root, "4:memory:/gone\n")).as("a cgroup we cannot see is not nested in").isEqualTo(root);
    }

    @Test
    void pureV2HostHasUnifiedAtRootWithPidsAndNoV1(@TempDir Path root) throws IOException {
        touch(root.resolve("cgroup.controllers"), "cpuset cpu io memory pids\n");

        CgroupLayout layout = CgroupLayout.detect(root);

        assertThat(layout.unified()).contains(root);
        assertThat(layout.unifiedHas("pids")).isTrue();
        assertThat(layout.unifiedHas("memory")).isTrue();
        assertThat(layout.unifiedHas("cpuset")).isTrue();
        assertThat(layout.unifiedHas("pid")).isFalse();
        assertThat(layout.v1Pids()).isEmpty();
        assertThat(layout.v1Memory()).isEmpty();
    }

    @Test
    void pureV2ChildCalledPidsIsNotTakenForAV1Hierarchy(@TempDir Path root) throws IOException {
        touch(root.resolve("cgroup.controllers"), "cpu memory pids\n");
        touch(root.resolve("pids/cgroup.controllers"), "pids\n");
        touch(root.resolve("pids/cgroup.procs"), "");

        assertThat(CgroupLayout.detect(root).v1Pids()).isEmpty();
    }

    @Test
    void emptyTreeHasNothing(@TempDir Path root) {
        CgroupLayout layout = CgroupLayout.detect(root);

        assertThat(layout.unified()).isEmpty();
        assertThat(layout.v1Pids()).isEmpty();
        assertThat(layout.unifiedHas("pids")).isFalse();
    }

    @Test
    void ownCgroupReadsTheV2LineForNullController() {
        assertThat(CgroupLayout.ownCgroup(PROC_SELF_CGROUP, null)).contains("/a/b");
    }

    @Test
    void ownCgroupReadsTheNamedV1Controller() {
        assertThat(CgroupLayout.ownCgroup(PROC_SELF_CGROUP, "pids")).contains("/user.slice");
        assertThat(CgroupLayout.ownCgroup(PROC_SELF_CGROUP, "memory")).contains("/x");
        assertThat(CgroupLayout.ownCgroup(PROC_SELF_CGROUP, "cpu")).isEmpty();
    }

    @Test
    void ownCgroupFindsAControllerInACombinedLine() {
        String text = "3:cpu,cpuacct:/q\n0::/\n";

        assertThat(CgroupLayout.ownCgroup(text, "cpuacct")).contains("/q");
        assertThat(CgroupLayout.ownCgroup(text, "cpu")).contains("/q");
        assertThat(CgroupLayout.ownCgroup(text, "cpua")).isEmpty();
    }

    @Test
    void ownCgroupWithoutAV2LineIsEmpty() {
        assertThat(CgroupLayout.ownCgroup("8:pids:/user.slice\n", null)).isEmpty();
    }

    @Test
    void parentIsRootWhenOwnCgroupIsRoot(@TempDir Path root) {
        assertThat(CgroupSandbox.parentFor(root, "0::/\n", null)).isEqualTo(root);
    }

    @Test
    void parentIsRootWhenOwnCgroupIsAnOrdinarySlice(@TempDir Path root) throws IOException {
        Files.createDirectories(root.resolve("user.slice/user-1000.slice/session-2.scope"));

        assertThat(CgroupSandbox.parentFor(root, "0::/user.slice/user-1000.slice/session-2.scope\n", null))
                .isEqualTo(root);
        assertThat(CgroupSandbox.parentFor(root, PROC_SELF_CGROUP, "pids")).isEqualTo(root);
    }

    @Test
    void parentIsOwnCgroupWhenInsideAnExistingSandbox(@TempDir Path root) throws IOException {
        String sandbox = "runaway-sandbox.4242.987654.1900000000.outer";
        Path own = Files.createDirectories(root.resolve("user.slice").resolve(sandbox));

        assertThat(CgroupSandbox.parentFor(root, "0::/user.slice/" + sandbox + "\n", null)).isEqualTo(own);
    }

    @Test
    void parentIsOwnCgroupWhenBelowASandboxInTheV1PidsHierarchy(@TempDir Path root) throws IOException {
        String sandbox = "runaway-sandbox.0.0.1900000000.suite";
        Path own = Files.createDirectories(root.resolve(sandbox).resolve("inner"));
        String text = "8:pids:/" + sandbox + "/inner\n0::/user.slice\n";

        assertThat(CgroupSandbox.parentFor(root, text, "pids")).isEqualTo(own);
        assertThat(CgroupSandbox.parentFor(root, text, null)).isEqualTo(root);
    }

    @Test
    void parentIsRootWhenTheSandboxDirectoryDoesNotExistUnderRoot(@TempDir Path root) {
        String text = "0::/runaway-sandbox.4242.987654.1900000000.elsewhere\n";

        assertThat(CgroupSandbox.parentFor(root, text, null)).isEqualTo(root);
    }
}
