// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sandbox;

import dev.runaway.model.ProcessIdentity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Control test for the memory cap: a process that allocates without end ({@code tail /dev/zero}
 * keeps one ever longer line) inside a sandbox capped at 64 MiB dies by SIGKILL from the kernel's
 * OOM killer (the memory cgroup counts the kill), and the memory cgroup goes with the sandbox.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("process")
class SandboxMemoryTest {
    private static final long CAP_BYTES = 64L << 20;

    @Test
    void aProcessPastTheMemoryCapIsKilledByTheOomKiller() throws Exception {
        try (Sandbox sandbox = Sandboxes.create(SandboxSpec.of("test-memory", 8).withMemoryMax(CAP_BYTES))) {
            assumeMemoryCap(sandbox);
            CgroupSandbox box = (CgroupSandbox) sandbox;
            assertThat(box.memoryCapBytes()).hasValue(CAP_BYTES);
            assertThat(box.oomKills()).isZero();

            Process hog = sandbox.start(new ProcessBuilder("/usr/bin/tail", "/dev/zero")
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD));
            assertThat(hog.waitFor(60, TimeUnit.SECONDS)).as("the hog died within 60 s").isTrue();

            assertThat(hog.exitValue()).as("killed by SIGKILL (128 + 9)").isEqualTo(137);
            assertThat(box.oomKills()).as("the memory cgroup counts one OOM kill: the cap killed it, not something else")
                    .isEqualTo(1);
            assertThat(sandbox.memberPids()).isEmpty();

            List<Path> dirs = box.dirs().all();
            TeardownReport report = sandbox.teardown();
            assertThat(report.zeroConfirmed()).as(report.summary()).isTrue();
            assertThat(dirs).allSatisfy(dir -> assertThat(dir).doesNotExist());
        }
    }

    @Test
    void theMemoryCgroupIsNamedLikeTheOthersAndNestsBelowOurOwn() throws Exception {
        try (Sandbox sandbox = Sandboxes.create(SandboxSpec.of("test-memory-name", 4).withMemoryMax(CAP_BYTES))) {
            assumeMemoryCap(sandbox);
            CgroupDirs dirs = ((CgroupSandbox) sandbox).dirs();
            if (dirs.memory() == null) return; // a v2 memory controller holds the cap: no v1 cgroup to check
            assertThat(dirs.memory().getFileName().toString()).isEqualTo(sandbox.id());
            Path own = MemoryCap.parentFor(CgroupLayout.detect().v1Memory().orElseThrow(), Files.readString(Path.of("/proc/self/cgroup")));
            assertThat(dirs.memory().getParent()).isEqualTo(own);
            assertThat(Files.readString(dirs.memory().resolve(MemoryCap.V1_LIMIT)).trim()).isEqualTo(Long.toString(CAP_BYTES));
            if (Files.exists(dirs.memory().resolve(MemoryCap.V1_MEMSW_LIMIT))) {
                assertThat(Files.readString(dirs.memory().resolve(MemoryCap.V1_MEMSW_LIMIT)).trim()).isEqualTo(Long.toString(CAP_BYTES));
            }
            Process sleeper = sandbox.start(new ProcessBuilder("/bin/sleep", "300"));
            assertThat(CgroupFiles.membersRecursive(dirs.memory())).contains((int) sleeper.pid());
        }
    }

    @Test
    void theJanitorReapsAnOrphanedMemoryCgroup() throws Exception {
        CgroupLayout layout = CgroupLayout.detect();
        assumeTrue(layout.v1Memory().isPresent() && !layout.unifiedHas("memory"), "no v1 memory hierarchy in use on this host");
        ProcessIdentity self = Sandboxes.self().orElseThrow();
        // Our own pid with a start time that is not ours: an owner that is gone, without starting anything.
        SandboxName name = new SandboxName(Optional.of(new ProcessIdentity(self.pid(), self.startTicks() + 1)),
                Instant.now().getEpochSecond() + 600, "test-janitor-memory");
        String procSelfCgroup = Files.readString(Path.of("/proc/self/cgroup"));
        Path memory = Files.createDirectory(MemoryCap.parentFor(layout.v1Memory().get(), procSelfCgroup).resolve(name.format()));
        Path unified = layout.unified().map(root -> root.resolve(name.format())).orElse(null);
        if (unified != null) Files.createDirectory(unified);
        try {
            assertThat(Janitor.all(layout)).anySatisfy(found -> {
                assertThat(found.id()).isEqualTo(name.format());
                assertThat(found.dirs().memory()).isEqualTo(memory);
            });

            Janitor.reapOrphans(layout);

            assertThat(memory).doesNotExist();
            if (unified != null) assertThat(unified).doesNotExist();
        } finally {
            CgroupFiles.removeTree(memory);
            if (unified != null) CgroupFiles.removeTree(unified);
        }
    }

    private static void assumeMemoryCap(Sandbox sandbox) {
        assumeTrue(sandbox instanceof CgroupSandbox box && box.memoryCapBytes().isPresent(),
                "this machine allows no memory cap for a sandbox: " + sandbox.containment());
    }
}
