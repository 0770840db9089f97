// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop.act;

import dev.runaway.sandbox.CgroupLayout;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The pids.max a stop set to 0 goes back into the very cgroup it was set in: a user who owns a
 * delegated subtree renames the capped cgroup away and makes another under its old name; the
 * put-back reaches the renamed one through the directory descriptor, and the newcomer keeps its
 * own limit. The cgroups are empty ones this test makes below its own v1 pids cgroup and removes.
 */
@Tag("process")
class CgroupWritesTest {
    @Test
    void thePutBackReachesTheCgroupThatWasCappedNotTheOneThatTookItsName() throws Exception {
        Path v1 = CgroupLayout.detect().v1Pids().orElse(null);
        assumeTrue(v1 != null, "needs a v1 pids hierarchy");
        String own = Files.readAllLines(Path.of("/proc/self/cgroup")).stream().filter(l -> l.contains(":pids:"))
                .map(l -> l.substring(l.indexOf(":pids:") + 6)).findFirst().orElseThrow();
        Path parent = v1.resolve(own.substring(1));
        assumeTrue(Files.isWritable(parent), "needs a writable pids cgroup");
        Path capped = parent.resolve("test-cgroup-writes-a");
        Path renamed = parent.resolve("test-cgroup-writes-b");
        try {
            Files.createDirectory(capped);
            Files.writeString(capped.resolve("pids.max"), "50");
            CgroupWrites.Capped cap = CgroupWrites.cap(capped.resolve("pids.max")).orElseThrow();
            assertThat(Files.readString(capped.resolve("pids.max")).trim()).isEqualTo("0");

            Files.move(capped, renamed);
            Files.createDirectory(capped);
            Files.writeString(capped.resolve("pids.max"), "7");
            cap.putBack();

            assertThat(Files.readString(renamed.resolve("pids.max")).trim()).as("the cgroup that was capped").isEqualTo("50");
            assertThat(Files.readString(capped.resolve("pids.max")).trim()).as("the newcomer under the old name").isEqualTo("7");
        } finally {
            Files.deleteIfExists(capped);
            Files.deleteIfExists(renamed);
        }
    }
}
