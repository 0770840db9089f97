// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import dev.runaway.model.ProcessSample;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A process whose main thread ended while another thread runs, as /proc shows it (kernel 6.18):
 * its stat says Z with two threads, its own exe and cmdline read empty, and its live thread's
 * directory under task/ holds what it is. Read as alive, in its live thread's state, with its
 * executable, command line and memory; a true zombie (one thread, or none alive) stays a zombie.
 */
class LiveThreadsTest {
    @TempDir
    Path dir;

    private FakeProc proc;

    @BeforeEach
    void setUp() throws IOException {
        proc = new FakeProc(dir.resolve("proc"));
        proc.process(500, 1, "zl").state('Z').threads(2).rssPages(0).write();  // leader exited, worker 501 runs
        task(500, 500, 'Z', 0);
        task(500, 501, 'S', 300);
        Path worker = proc.root().resolve("500/task/501");
        Files.createSymbolicLink(worker.resolve("exe"), Path.of("/tmp/t/zl"));
        Files.writeString(worker.resolve("cmdline"), String.join("\u0000", "/tmp/t/zl", "zombie-leader", "100", ""), StandardCharsets.UTF_8);
        proc.process(600, 1, "dead").state('Z').threads(1).rssPages(0).write(); // a true zombie
        proc.process(700, 1, "going").state('Z').threads(2).rssPages(0).write(); // its last thread is exiting too
        task(700, 700, 'Z', 0);
        task(700, 701, 'X', 0);
    }

    private void task(int pid, int tid, char state, long rssPages) throws IOException {
        Path at = proc.root().resolve(pid + "/task/" + tid);
        Files.createDirectories(at);
        Files.writeString(at.resolve("stat"), FakeProc.statLine(tid, "zl", state, 1, pid, pid, 5, 2, 2, 1000L + pid, rssPages),
                StandardCharsets.ISO_8859_1);
    }

    @Test
    void aProcessWhoseLeaderExitedReadsAsItsLiveThread() {
        ProcReader reader = proc.reader();
        ProcStat s = reader.stat(500).orElseThrow();
        assertThat(s.isZombie()).isFalse();
        assertThat(s.state()).isEqualTo('S');
        assertThat(s.leaderExited()).isTrue();
        assertThat(s.pid()).isEqualTo(500);
        assertThat(s.startTicks()).as("the process's own start time: its identity").isEqualTo(1500L);
        assertThat(s.rssPages()).as("the live thread's memory map").isEqualTo(300L);
        assertThat(ProcStat.read(proc.root(), 500)).contains(s);
        assertThat(reader.exe(500)).isEqualTo("/tmp/t/zl");
        assertThat(reader.cmdline(500)).containsExactly("/tmp/t/zl", "zombie-leader", "100");
    }

    @Test
    void aSamplerFollowingProcessEventsKeepsItWhenItsLeaderExits() throws IOException {
        ScriptedForks events = new ScriptedForks();
        ProcessTable table = new ProcessTable(proc.reader(), 4096).following(events);
        table.scan(ProcessTable.Depth.COMPLETE);
        table.scan(ProcessTable.Depth.INCREMENTAL);
        // 800 is forked and its leader exits before the next scan; 900 is forked and exits whole.
        proc.process(800, 500, "zl").state('Z').threads(2).rssPages(0).write();
        task(800, 800, 'Z', 0);
        task(800, 801, 'S', 300);
        events.fork(501, 800, 1800).exit(800).fork(501, 900, 1900).exit(900).exit(500);

        List<ProcessSample> seen = table.scan(ProcessTable.Depth.INCREMENTAL).processes();

        assertThat(seen).as("the exit events were the leaders'").anyMatch(p -> p.pid() == 800 && p.state() == 'S')
                .anyMatch(p -> p.pid() == 500 && p.state() == 'S');
        assertThat(seen).noneMatch(p -> p.pid() == 900);
    }

    @Test
    void itsMemoryIsItsLiveThreadsMap() throws IOException {
        Files.writeString(proc.root().resolve("500/task/501/smaps_rollup"),
                "55d0c0a00000-7ffd5e1f3000 ---p 00000000 00:00 0 [rollup]\nRss: 1676 kB\nPss: 412 kB\n");
        MemoryFiles memory = new MemoryFiles(proc.root(), dir.resolve("cgroup"));
        assertThat(memory.pss(500)).hasValue(412L * 1024);
        assertThat(memory.pss(600)).as("a true zombie holds nothing").hasValue(0);
    }

    @Test
    void trueZombiesStayZombies() {
        ProcReader reader = proc.reader();
        for (int pid : new int[] {600, 700}) {
            ProcStat s = reader.stat(pid).orElseThrow();
            assertThat(s.isZombie()).as("pid %d", pid).isTrue();
            assertThat(s.leaderExited()).isFalse();
            assertThat(ProcStat.read(proc.root(), pid).orElseThrow().isZombie()).isTrue();
            assertThat(reader.exe(pid)).isEmpty();
            assertThat(reader.cmdline(pid)).isEmpty();
        }
    }

    @Test
    void theScanKeysItByItsExecutable() {
        ProcessTable table = new ProcessTable(proc.reader(), 4096);
        ProcessSample p = table.scan(true).processes().stream().filter(x -> x.pid() == 500).findFirst().orElseThrow();
        assertThat(p.state()).isEqualTo('S');
        assertThat(p.exe()).isEqualTo("/tmp/t/zl");
        assertThat(p.cmdline()).isEqualTo(List.of("/tmp/t/zl", "zombie-leader", "100"));
        assertThat(p.rssBytes()).isEqualTo(300L * 4096);
    }
}
