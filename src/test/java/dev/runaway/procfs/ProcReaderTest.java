// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class ProcReaderTest {
    @TempDir
    Path dir;

    private FakeProc proc;
    private ProcReader reader;

    @BeforeEach
    void setUp() {
        proc = new FakeProc(dir.resolve("proc"));
        reader = proc.reader();
    }

    @Test
    void pidsAreAscendingAndSkipNonNumericEntries() {
        proc.nonProcessEntries();
        for (int pid : new int[] {300, 2, 41, 1, 1000, 7}) proc.process(pid, 1, "p" + pid).write();

        assertThat(proc.listing()).contains("self", "thread-self", "sys", "loadavg", "acpi", "12abc", "-5", "0");
        assertThat(reader.pids()).containsExactly(1, 2, 7, 41, 300, 1000);
    }

    @Test
    void pidsOfAMissingRootAreEmpty() {
        assertThat(new ProcReader(dir.resolve("nowhere")).pids()).isEmpty();
    }

    @Test
    void statReadsFieldsAndACommWithSpacesAndCloseParen() {
        proc.process(77, 12, "a) b (c").session(5).pgrp(6).start(424242).threads(3).rssPages(2500)
                .cpu(40, 2).state('R').write();

        Optional<ProcStat> stat = reader.stat(77);

        assertThat(stat).isPresent();
        ProcStat s = stat.get();
        assertThat(s.pid()).isEqualTo(77);
        assertThat(s.comm()).isEqualTo("a) b (c");
        assertThat(s.state()).isEqualTo('R');
        assertThat(s.ppid()).isEqualTo(12);
        assertThat(s.pgrp()).isEqualTo(6);
        assertThat(s.session()).isEqualTo(5);
        assertThat(s.numThreads()).isEqualTo(3);
        assertThat(s.startTicks()).isEqualTo(424242L);
        assertThat(s.rssPages()).isEqualTo(2500L);
        assertThat(s.cpuTicks()).isEqualTo(42L);
    }

    @Test
    void cmdlineIsSplitAtNuls() {
        proc.process(10, 1, "bash").cmdline("/bin/bash", "/tmp/x/deploy.sh", "", "--flag=a b").write();

        assertThat(reader.cmdline(10)).containsExactly("/bin/bash", "/tmp/x/deploy.sh", "", "--flag=a b");
    }

    @Test
    void cmdlineWithoutTrailingNulKeepsItsLastArgument() {
        // A process that rewrote its argv (nginx: worker process) has no trailing NUL.
        proc.process(11, 1, "nginx").write();
        proc.file("11/cmdline", "nginx: worker process");

        assertThat(reader.cmdline(11)).containsExactly("nginx: worker process");
    }

    @Test
    void cmdlineOfAKernelThreadIsEmpty() {
        proc.process(12, 2, "kworker/0:1").write();

        assertThat(reader.cmdline(12)).isEmpty();
    }

    @Test
    void exeIsTheSymlinkTarget() {
        proc.process(20, 1, "sleep").exe("/usr/bin/sleep").write();

        assertThat(reader.exe(20)).isEqualTo("/usr/bin/sleep");
    }

    @Test
    void exeOfADeletedBinaryLosesTheDeletedSuffix() {
        proc.process(21, 1, "tool").exe("/tmp/build/tool (deleted)").write();

        assertThat(reader.exe(21)).isEqualTo("/tmp/build/tool");
    }

    @Test
    void exeWithoutALinkIsEmpty() {
        proc.process(22, 2, "kthreadd").write();

        assertThat(reader.exe(22)).isEmpty();
    }

    @Test
    void cgroupTakesTheV2LineAmongV1Lines() {
        proc.process(30, 1, "app").write();
        proc.file("30/cgroup", "12:pids:/user.slice/user-1000.slice\n"
                + "4:memory:/user.slice\n"
                + "1:name=systemd:/user.slice/user-1000.slice/session-2.scope\n"
                + "0::/user.slice/user-1000.slice/app.scope\n");

        assertThat(reader.cgroup(30)).isEqualTo("/user.slice/user-1000.slice/app.scope");
    }

    @Test
    void cgroupWithoutAV2LineIsEmpty() {
        proc.process(31, 1, "app").write();
        proc.file("31/cgroup", "12:pids:/\n1:name=systemd:/init.scope\n");

        assertThat(reader.cgroup(31)).isEmpty();
    }

    @Test
    void vanishedProcessReadsAsAbsentWithoutException() {
        proc.process(40, 1, "gone").cmdline("gone").exe("/usr/bin/gone").cgroup("/x").write();
        proc.remove(40);

        assertThat(reader.stat(40)).isEmpty();
        assertThat(reader.cmdline(40)).isEmpty();
        assertThat(reader.exe(40)).isEmpty();
        assertThat(reader.cgroup(40)).isEmpty();
        assertThat(reader.uid(40)).isEqualTo(-1);
    }

    @Test
    void neverExistingPidReadsAsAbsent() {
        assertThat(reader.stat(99999)).isEmpty();
        assertThat(reader.cmdline(99999)).isEmpty();
        assertThat(reader.exe(99999)).isEmpty();
        assertThat(reader.cgroup(99999)).isEmpty();
    }

    @Test
    void tornStatLineReadsAsAbsent() {
        proc.process(41, 1, "torn").write();
        proc.file("41/stat", "41 (torn) S 1 41");

        assertThat(reader.stat(41)).isEmpty();
    }

    @Test
    void uidIsTheOwnerOfTheProcessDirectory() {
        proc.process(42, 1, "mine").write();

        assertThat(reader.uid(42)).isGreaterThanOrEqualTo(0);
    }

    @Test
    void reusedBufferDoesNotLeakBetweenReads() {
        proc.process(50, 1, "long").cmdline("x".repeat(4000), "y").write(); // long, but kept whole (Argv.ARG_CHARS)
        proc.process(51, 1, "s").cmdline("short").write();

        assertThat(reader.cmdline(50)).containsExactly("x".repeat(4000), "y");
        assertThat(reader.stat(51)).map(ProcStat::comm).contains("s");
        assertThat(reader.cmdline(51)).containsExactly("short");
    }

    @Test
    void textReadsASmallFileOrIsEmptyWhenAbsent() {
        proc.loadavg("0.67 0.85 0.59 1/83 21241\n");

        assertThat(reader.text("loadavg")).contains("0.67 0.85 0.59 1/83 21241\n");
        assertThat(reader.text("pressure/memory")).isEmpty();
    }
}
