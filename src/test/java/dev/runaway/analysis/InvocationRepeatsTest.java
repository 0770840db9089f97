// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.analysis;

import dev.runaway.model.ProcessSample;
import dev.runaway.procfs.CgroupPids;
import dev.runaway.procfs.MemoryFiles;
import dev.runaway.procfs.ProcPaths;
import dev.runaway.procfs.ProcessCaps;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

import static dev.runaway.analysis.Procs.proc;
import static dev.runaway.analysis.Procs.pulse;
import static dev.runaway.analysis.Procs.scan;
import static dev.runaway.analysis.Procs.with;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A key recurring along a line, told apart by its invocations (command line and working
 * directory, read from a stand-in /proc whose cwd links the test makes): make -C in another
 * directory at each level, or a counter among the arguments, repeat the key but not the
 * invocation; the same words in the same directory repeat both.
 */
class InvocationRepeatsTest {
    private static final String MAKE = "/usr/bin/make";

    @TempDir
    Path proc;
    @TempDir
    Path cgroups;

    /** A line of nine makes (pids 100..108), each level's process made by LEVEL, each in the directory CWD names. */
    private Group line(IntFunction<ProcessSample> level, IntFunction<String> cwd) throws Exception {
        List<ProcessSample> processes = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            Path dir = Files.createDirectories(proc.resolve(Integer.toString(100 + i)));
            Files.createSymbolicLink(dir.resolve("cwd"), Path.of(cwd.apply(i)));
            processes.add(level.apply(i));
        }
        Analyzer analyzer = new Analyzer(new CgroupPids(cgroups), ProcessCaps.none(), new ProcPaths(proc), MemoryFiles.none());
        Snapshot s = analyzer.analyze(scan(1, with(processes)), pulse(1, 500, 10_000));
        return s.groups().stream().filter(g -> g.command().equals(MAKE)).findFirst().orElseThrow();
    }

    private static ProcessSample make(int i, String... args) {
        return proc(100 + i, i == 0 ? 1 : 99 + i).session(100).binary(MAKE, args).build();
    }

    @Test
    void makeDashCInAnotherDirectoryAtEachLevelRepeatsTheKeyNotTheInvocation() throws Exception {
        Group g = line(i -> make(i, "-C", "sub"), i -> "/src/linux" + "/sub".repeat(i));
        assertThat(g.repeats()).isEqualTo(9);
        assertThat(g.identicalRepeats()).isEqualTo(1);
    }

    @Test
    void aCounterAmongTheArgumentsRepeatsTheKeyNotTheInvocation() throws Exception {
        Group g = line(i -> make(i, "level=" + i), i -> "/work");
        assertThat(g.repeats()).isEqualTo(9);
        assertThat(g.identicalRepeats()).isEqualTo(1);
    }

    @Test
    void theSameWordsInTheSameDirectoryRepeatBoth() throws Exception {
        Group g = line(i -> make(i, "-C", "."), i -> "/work");
        assertThat(g.repeats()).isEqualTo(9);
        assertThat(g.identicalRepeats()).isEqualTo(9);
    }
}
