// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.analysis;

import dev.runaway.model.PulseSample;
import dev.runaway.procfs.MemoryFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Which source a group's memory comes from, on fake /proc and cgroup trees. */
class GroupMemoryTest {
    private static final long MIB = 1L << 20;

    @Test
    void theChoiceIsCgroupThenPssThenRssAndNeverAboveTheMachinesUsed() {
        var charge = Optional.of(new MemoryFiles.Charge(70 * MIB, "memory.current"));
        assertThat(GroupMemory.choose(500 * MIB, charge, OptionalLong.of(80 * MIB), 4096 * MIB))
                .isEqualTo(new GroupMemory.Figure(70 * MIB, MemorySource.CGROUP_V2));
        assertThat(GroupMemory.choose(500 * MIB, Optional.of(new MemoryFiles.Charge(70 * MIB, "memory.usage_in_bytes")),
                OptionalLong.empty(), 4096 * MIB)).isEqualTo(new GroupMemory.Figure(70 * MIB, MemorySource.CGROUP_V1));
        assertThat(GroupMemory.choose(500 * MIB, Optional.empty(), OptionalLong.of(80 * MIB), 4096 * MIB))
                .isEqualTo(new GroupMemory.Figure(80 * MIB, MemorySource.PSS));
        assertThat(GroupMemory.choose(500 * MIB, Optional.empty(), OptionalLong.empty(), 4096 * MIB))
                .isEqualTo(new GroupMemory.Figure(500 * MIB, MemorySource.RSS));
        // summed RSS of shared pages above what the machine has in use: capped, and still said to be RSS
        assertThat(GroupMemory.choose(9000 * MIB, Optional.empty(), OptionalLong.empty(), 4096 * MIB))
                .isEqualTo(new GroupMemory.Figure(4096 * MIB, MemorySource.RSS));
        assertThat(GroupMemory.choose(9000 * MIB, charge, OptionalLong.empty(), 60 * MIB).bytes()).isEqualTo(60 * MIB);
    }

    @Test
    void anExclusiveCgroupGivesItsChargeLessInactiveFileCache(@TempDir Path root) throws Exception {
        Fake f = new Fake(root);
        f.cgroup("unified/box", 300 * MIB, "inactive_file", 100 * MIB, 10, 11);
        f.pss(10, 30 * MIB);
        f.pss(11, 30 * MIB);
        Group g = group("/bin/box", 900 * MIB, "/box", 10, 11);
        List<Group> out = f.memory().measure(List.of(g), List.of(lens("/box", 2, 1)), pulse(8192 * MIB), Set.of());
        assertThat(out.get(0).memorySource()).isEqualTo(MemorySource.CGROUP_V2);
        assertThat(out.get(0).memoryBytes()).isEqualTo(200 * MIB);
        assertThat(out.get(0).rssBytes()).isEqualTo(900 * MIB);
    }

    @Test
    void aCgroupHoldingAnyOtherProcessIsNotTheGroupsSoPssIsSummed(@TempDir Path root) throws Exception {
        Fake f = new Fake(root);
        f.cgroup("unified/box", 300 * MIB, "inactive_file", 0, 10, 11);
        f.cgroup("unified/box/child", 10 * MIB, "inactive_file", 0, 99); // a process below it, not the group's
        f.pss(10, 30 * MIB);
        f.pss(11, 20 * MIB);
        List<Group> out = f.memory().measure(List.of(group("/bin/box", 900 * MIB, "/box", 10, 11)),
                List.of(lens("/box", 2, 1)), pulse(8192 * MIB), Set.of());
        assertThat(out.get(0).memorySource()).isEqualTo(MemorySource.PSS);
        assertThat(out.get(0).memoryBytes()).isEqualTo(50 * MIB);

        // the lens already knows a cgroup shared with another group: no cgroup files read at all
        List<Group> shared = f.memory().measure(List.of(group("/bin/box", 900 * MIB, "/box", 10, 11)),
                List.of(lens("/box", 3, 2)), pulse(8192 * MIB), Set.of());
        assertThat(shared.get(0).memorySource()).isEqualTo(MemorySource.PSS);
    }

    @Test
    void pssOnlyForTheMostSevereAndTheWatchedGroupsWithinTheReadBudget(@TempDir Path root) throws Exception {
        Fake f = new Fake(root);
        List<Group> groups = new ArrayList<>();
        for (int i = 0; i < GroupMemory.PSS_GROUPS + 2; i++) {
            f.pss(100 + i, 10 * MIB);
            groups.add(group("/bin/g" + i, 40 * MIB, "", 100 + i));
        }
        List<Group> out = f.memory().measure(groups, List.of(), pulse(8192 * MIB), Set.of("/bin/g" + (GroupMemory.PSS_GROUPS + 1)));
        for (int i = 0; i < GroupMemory.PSS_GROUPS; i++) assertThat(out.get(i).memorySource()).isEqualTo(MemorySource.PSS);
        assertThat(out.get(GroupMemory.PSS_GROUPS).memorySource()).as("not charted: RSS").isEqualTo(MemorySource.RSS);
        assertThat(out.get(GroupMemory.PSS_GROUPS).memoryBytes()).isEqualTo(40 * MIB);
        assertThat(out.get(GroupMemory.PSS_GROUPS + 1).memorySource()).as("watched: PSS").isEqualTo(MemorySource.PSS);

        // a group larger than a scan's budget of smaps_rollup reads keeps RSS, capped at the machine's used
        int[] many = new int[GroupMemory.PSS_READS_PER_SCAN + 1];
        for (int i = 0; i < many.length; i++) many[i] = 1000 + i;
        List<Group> big = f.memory().measure(List.of(group("/bin/big", 20_000 * MIB, "", many)), List.of(),
                pulse(8192 * MIB), Set.of());
        assertThat(big.get(0).memorySource()).isEqualTo(MemorySource.RSS);
        assertThat(big.get(0).memoryBytes()).isEqualTo(8192 * MIB);
    }

    @Test
    void theConsolesOwnProcessesAreNotWhatPssIsSpentOn(@TempDir Path root) throws Exception {
        Fake f = new Fake(root);
        f.pss(7, 10 * MIB);
        Group self = group(SelfProcesses.KEY, 300 * MIB, "", 7);
        self = new Group(self.command(), self.tasks(), self.chains(), false, false, List.of(), 1, self.rssBytes(),
                self.tasksGrowth(), 0, OptionalDouble.empty(), "", self.pids(), "", -1, -1, false, Optional.empty(), 0, true);
        assertThat(f.memory().measure(List.of(self), List.of(), pulse(8192 * MIB), Set.of()).get(0).memorySource())
                .isEqualTo(MemorySource.RSS);
    }

    private static Group group(String command, long rss, String cgroup, int... pids) {
        List<Integer> p = new ArrayList<>();
        for (int pid : pids) p.add(pid);
        return new Group(command, pids.length, List.of(), false, false, List.of(), 1, rss, GrowthFit.UNKNOWN, 0,
                OptionalDouble.empty(), "", List.copyOf(p), cgroup, -1, -1);
    }

    private static CgroupLoad lens(String path, int processes, int groups) {
        return new CgroupLoad(path, processes, processes, groups, GrowthFit.UNKNOWN, -1, -1, false, 0, Double.NaN, false);
    }

    private static PulseSample pulse(long used) {
        return new PulseSample(Instant.EPOCH, 0, 100, 0, 16384 * MIB, 16384 * MIB - used, 0, 0, Optional.empty(), 32768, 100_000);
    }

    /** A /proc with smaps_rollup files and a cgroup tree with memory files. */
    private record Fake(Path root) {
        GroupMemory memory() {
            return new GroupMemory(new MemoryFiles(root.resolve("proc"), root.resolve("cgroup")));
        }

        void pss(int pid, long bytes) throws Exception {
            Path dir = Files.createDirectories(root.resolve("proc").resolve(Integer.toString(pid)));
            Files.writeString(dir.resolve("smaps_rollup"), "00400000-7fff00000000 ---p 00000000 00:00 0 [rollup]\n"
                    + "Rss:              " + (bytes * 3 / 1024) + " kB\nPss:              " + (bytes / 1024) + " kB\n");
        }

        void cgroup(String path, long usage, String inactiveKey, long inactive, int... procs) throws Exception {
            Path dir = Files.createDirectories(root.resolve("cgroup").resolve(path));
            Files.writeString(dir.resolve("memory.current"), usage + "\n");
            Files.writeString(dir.resolve("memory.stat"), "anon 1\n" + inactiveKey + " " + inactive + "\n");
            StringBuilder b = new StringBuilder();
            for (int p : procs) b.append(p).append('\n');
            Files.writeString(dir.resolve("cgroup.procs"), b.toString());
        }
    }
}
