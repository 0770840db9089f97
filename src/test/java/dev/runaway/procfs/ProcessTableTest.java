// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import dev.runaway.model.ProcessIdentity;
import dev.runaway.model.ProcessSample;
import dev.runaway.model.ScanSample;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

class ProcessTableTest {
    private static final long PAGE = 4096;

    @TempDir
    Path dir;

    private FakeProc proc;
    private ProcessTable table;

    @BeforeEach
    void setUp() {
        proc = new FakeProc(dir.resolve("proc"));
        proc.nonProcessEntries();
        table = new ProcessTable(proc.reader(), PAGE);
    }

    private static Map<Integer, ProcessSample> byPid(ScanSample scan) {
        return scan.processes().stream().collect(Collectors.toMap(ProcessSample::pid, Function.identity()));
    }

    /** init, kthreadd and two fillers, so round-robin picks have somewhere else to land. */
    private void baseSystem() {
        proc.process(1, 0, "systemd").cmdline("/sbin/init").exe("/usr/lib/systemd/systemd").write();
        proc.process(2, 0, "kthreadd").write();
        proc.process(3, 2, "rcu_gp").write();
        proc.process(4, 2, "rcu_par_gp").write();
    }

    @Test
    void firstScanSeesEveryProcessWithBytesAndTicks() {
        baseSystem();
        proc.process(10, 1, "bash").session(10).pgrp(10).threads(1).rssPages(250).cpu(30, 12)
                .cmdline("bash").exe("/usr/bin/bash").cgroup("/user.slice").write();
        proc.process(11, 10, "worker").session(10).pgrp(11).threads(4).rssPages(1000).cpu(700, 50).state('R')
                .start(5555).cmdline("/opt/worker", "-v").exe("/opt/worker").write();

        ScanSample scan = table.scan(true);

        assertThat(scan.processes()).extracting(ProcessSample::pid).containsExactly(1, 2, 3, 4, 10, 11);
        assertThat(table.size()).isEqualTo(6);
        Map<Integer, ProcessSample> p = byPid(scan);
        ProcessSample bash = p.get(10);
        assertThat(bash.rssBytes()).isEqualTo(250 * PAGE);
        assertThat(bash.cpuTicks()).isEqualTo(42);
        assertThat(bash.cmdline()).containsExactly("bash");
        assertThat(bash.exe()).isEqualTo("/usr/bin/bash");
        assertThat(bash.cgroup()).isEqualTo("/user.slice");
        ProcessSample worker = p.get(11);
        assertThat(worker.identity()).isEqualTo(new ProcessIdentity(11, 5555));
        assertThat(worker.ppid()).isEqualTo(10);
        assertThat(worker.pgrp()).isEqualTo(11);
        assertThat(worker.session()).isEqualTo(10);
        assertThat(worker.state()).isEqualTo('R');
        assertThat(worker.comm()).isEqualTo("worker");
        assertThat(worker.numThreads()).isEqualTo(4);
        assertThat(worker.rssBytes()).isEqualTo(1000 * PAGE);
        assertThat(worker.cpuTicks()).isEqualTo(750);
        assertThat(worker.cmdline()).containsExactly("/opt/worker", "-v");
        assertThat(worker.exe()).isEqualTo("/opt/worker");
        assertThat(worker.uid()).isGreaterThanOrEqualTo(0);
        assertThat(p.get(2).isKernelThread()).isTrue();
        assertThat(p.get(3).isKernelThread()).isTrue();
    }

    @Test
    void scanSampleTellsWhetherItWasComplete() {
        baseSystem();

        assertThat(table.scan(true).complete()).isTrue();
        assertThat(table.scan(false).complete()).isFalse();
        assertThat(table.scan(true).complete()).isTrue();
    }

    @Test
    void pidListedButWithoutStatIsSkipped() {
        baseSystem();
        proc.emptyDir(60); // vanished between the directory read and the stat read

        ScanSample scan = table.scan(true);

        assertThat(scan.processes()).extracting(ProcessSample::pid).containsExactly(1, 2, 3, 4);
        assertThat(table.size()).isEqualTo(4);
    }

    @Test
    void knownPidWhoseStatVanishesIsDropped() {
        baseSystem();
        proc.process(60, 1, "short").write();
        table.scan(true);
        proc.removeFile(60, "stat");

        ScanSample scan = table.scan(true);

        assertThat(scan.processes()).extracting(ProcessSample::pid).containsExactly(1, 2, 3, 4);
    }

    @Test
    void exitedProcessDisappearsOnAnIncrementalScan() {
        baseSystem();
        proc.process(60, 1, "short").write();
        table.scan(true);
        proc.remove(60);

        ScanSample scan = table.scan(false);

        assertThat(scan.processes()).extracting(ProcessSample::pid).containsExactly(1, 2, 3, 4);
        assertThat(table.size()).isEqualTo(4);
    }

    @Test
    void newProcessIsSeenOnAnIncrementalScan() {
        baseSystem();
        table.scan(true);
        table.scan(false);
        proc.process(70, 1, "fresh").cmdline("/opt/fresh").exe("/opt/fresh").write();

        ScanSample scan = table.scan(false);

        assertThat(byPid(scan).get(70).cmdline()).containsExactly("/opt/fresh");
    }

    @Test
    void reusedPidGetsItsNewIdentityAndCmdlineOnACompleteScan() {
        baseSystem();
        FakeProc.Process p = proc.process(50, 1, "old").start(2000).cmdline("/usr/bin/old", "a")
                .exe("/usr/bin/old").write();
        assertThat(byPid(table.scan(true)).get(50).identity()).isEqualTo(new ProcessIdentity(50, 2000));
        table.scan(false);

        proc.remove(50);
        p.start(9000).comm("new").cmdline("/usr/bin/new", "b").exe("/usr/bin/new").write();
        ScanSample scan = table.scan(true);

        ProcessSample reused = byPid(scan).get(50);
        assertThat(reused.identity()).isEqualTo(new ProcessIdentity(50, 9000));
        assertThat(reused.comm()).isEqualTo("new");
        assertThat(reused.cmdline()).containsExactly("/usr/bin/new", "b");
        assertThat(reused.exe()).isEqualTo("/usr/bin/new");
    }

    @Test
    void reusedPidWithTheSameNameGetsItsNewCmdlineOnACompleteScan() {
        baseSystem();
        FakeProc.Process p = proc.process(50, 1, "bash").start(2000).cmdline("bash", "/a.sh").write();
        table.scan(true);
        table.scan(false);

        p.start(9000).cmdline("bash", "/b.sh").write();
        ScanSample scan = table.scan(true);

        assertThat(byPid(scan).get(50).identity().startTicks()).isEqualTo(9000);
        assertThat(byPid(scan).get(50).cmdline()).containsExactly("bash", "/b.sh");
    }

    @Test
    void childOfAVanishedParentIsRereadOnTheNextIncrementalScan() {
        baseSystem();
        proc.process(10, 1, "make").write();
        FakeProc.Process child = proc.process(11, 10, "cc").write();
        FakeProc.Process bystander = proc.process(90, 1, "idle").rssPages(100).write();
        table.scan(true);
        table.scan(false); // re-reads the newcomers once; from here on only changes are read
        assertThat(byPid(table.scan(false)).get(11).ppid()).isEqualTo(10);

        proc.remove(10);
        child.ppid(1).write();
        bystander.rssPages(999).write();
        ScanSample scan = table.scan(false);

        Map<Integer, ProcessSample> p = byPid(scan);
        assertThat(p).doesNotContainKey(10);
        assertThat(p.get(11).ppid()).isEqualTo(1);
        // Control: an unrelated process is not re-read by this incremental scan (the round-robin
        // share of 6 pids is one pid, and it lands on pid 3 here).
        assertThat(p.get(90).rssBytes()).isEqualTo(100 * PAGE);
        assertThat(byPid(table.scan(true)).get(90).rssBytes()).isEqualTo(999 * PAGE);
    }

    @Test
    void cmdlineIsReadOnceWhileTheNameStaysTheSame() {
        baseSystem();
        FakeProc.Process p = proc.process(30, 1, "python3").cmdline("python3", "one.py").write();
        table.scan(true);
        table.scan(false);

        p.cmdline("python3", "two.py").write(); // same comm: no exec seen
        assertThat(byPid(table.scan(false)).get(30).cmdline()).containsExactly("python3", "one.py");
        assertThat(byPid(table.scan(true)).get(30).cmdline()).containsExactly("python3", "one.py");

        p.comm("node").cmdline("node", "three.js").exe("/usr/bin/node").write(); // an exec
        ScanSample scan = table.scan(true);
        assertThat(byPid(scan).get(30).cmdline()).containsExactly("node", "three.js");
        assertThat(byPid(scan).get(30).exe()).isEqualTo("/usr/bin/node");
        assertThat(byPid(scan).get(30).comm()).isEqualTo("node");
    }

    @Test
    void execRightAfterForkIsCaughtByTheNextIncrementalScan() {
        baseSystem();
        table.scan(true);
        table.scan(false);
        FakeProc.Process child = proc.process(80, 1, "bash").cmdline("bash").exe("/usr/bin/bash").write();
        assertThat(byPid(table.scan(false)).get(80).cmdline()).containsExactly("bash");

        child.comm("sleep").cmdline("sleep", "5").exe("/usr/bin/sleep").write();
        ScanSample scan = table.scan(false);

        assertThat(byPid(scan).get(80).cmdline()).containsExactly("sleep", "5");
        assertThat(byPid(scan).get(80).exe()).isEqualTo("/usr/bin/sleep");
    }

    @Test
    void anExecThatKeepsTheNameIsSeenByTheForkFlagClearing() {
        baseSystem();
        FakeProc.Process child = proc.process(81, 1, "bash").cmdline("bash", "/d/deploy.sh").exe("/usr/bin/bash")
                .forkNoExec(true).write();
        table.scan(true);
        ProcessSample forked = byPid(table.scan(false)).get(81);
        assertThat(forked.forkNoExec()).isTrue();
        assertThat(forked.cmdline()).containsExactly("bash", "/d/deploy.sh");

        child.cmdline("bash", "/d/other.sh").forkNoExec(false).write(); // exec'd bash again: same comm
        ProcessSample execed = byPid(table.scan(true)).get(81);

        assertThat(execed.forkNoExec()).isFalse();
        assertThat(execed.cmdline()).containsExactly("bash", "/d/other.sh");
    }

    @Test
    void statFiguresAreRefreshedOnACompleteScan() {
        baseSystem();
        FakeProc.Process p = proc.process(40, 1, "grow").rssPages(10).cpu(1, 1).threads(1).write();
        table.scan(true);
        table.scan(false);

        p.rssPages(20).cpu(100, 20).threads(9).state('R').write();
        ProcessSample s = byPid(table.scan(true)).get(40);

        assertThat(s.rssBytes()).isEqualTo(20 * PAGE);
        assertThat(s.cpuTicks()).isEqualTo(120);
        assertThat(s.numThreads()).isEqualTo(9);
        assertThat(s.state()).isEqualTo('R');
    }

    @Test
    void childOfAParentWhoseStatVanishedDuringARefreshIsRereadOnceTheParentIsGone() {
        // The child has the lower pid (pids wrapped), so it is read before its parent exits.
        baseSystem();
        FakeProc.Process child = proc.process(15, 20, "cc").write();
        proc.process(20, 1, "make").write();
        table.scan(true);
        table.scan(false);

        proc.removeFile(20, "stat"); // listed, but exits before its stat is read
        table.scan(true);
        proc.remove(20);
        child.ppid(1).write();
        ScanSample scan = table.scan(false);

        assertThat(byPid(scan).get(15).ppid()).isEqualTo(1);
    }

    @Test
    void aRereadStatThatSaysNothingNewKeepsTheSampleAndAChangeMakesANewOne() {
        baseSystem();
        proc.process(20, 1, "sleeper").rssPages(100).cpu(1, 1).cmdline("sleep", "600").exe("/usr/bin/sleep").write();
        proc.process(21, 1, "grower").rssPages(100).cpu(1, 1).cmdline("grow").exe("/opt/grow").write();
        Map<Integer, ProcessSample> first = byPid(table.scan(true));
        proc.process(21, 1, "grower").rssPages(900).cpu(1, 1).cmdline("grow").exe("/opt/grow").write();

        Map<Integer, ProcessSample> second = byPid(table.scan(true)); // complete: every stat read again

        assertThat(second.get(20)).isSameAs(first.get(20));
        assertThat(second.get(21)).isNotSameAs(first.get(21));
        assertThat(second.get(21).rssBytes()).isEqualTo(900 * PAGE);
    }

    @Test
    void processesWithEqualCommandLinesShareOneCopyOfThem() {
        baseSystem();
        for (int pid = 30; pid < 40; pid++) {
            proc.process(pid, 1, "sleep").cmdline("sleep", "600").exe("/usr/bin/sleep").cgroup("/drill").write();
        }
        proc.process(40, 1, "sleep").cmdline("sleep", "5").exe("/usr/bin/sleep").cgroup("/drill").write();

        Map<Integer, ProcessSample> p = byPid(table.scan(true));

        for (int pid = 31; pid < 40; pid++) {
            assertThat(p.get(pid).cmdline()).isSameAs(p.get(30).cmdline());
            assertThat(p.get(pid).exe()).isSameAs(p.get(30).exe());
            assertThat(p.get(pid).comm()).isSameAs(p.get(30).comm());
        }
        assertThat(p.get(40).cmdline()).containsExactly("sleep", "5").isNotSameAs(p.get(30).cmdline());
        assertThat(p.get(40).comm()).isSameAs(p.get(30).comm());
    }

    @Test
    void longCommandLinesAreBoundedEachAndAcrossTheTable() {
        baseSystem();
        // 40 interpreters, each with 60 KiB of its own arguments after the script; 3 with a short line.
        for (int pid = 100; pid < 140; pid++) {
            proc.process(pid, 1, "bash").cmdline("/bin/bash", "/srv/ci/deploy.sh", pid + "a".repeat(60 * 1024)).exe("/usr/bin/bash").write();
        }
        for (int pid = 140; pid < 143; pid++) proc.process(pid, 1, "bash").cmdline("/bin/bash", "/srv/ci/deploy.sh").exe("/usr/bin/bash").write();
        long budget = 10L * dev.runaway.model.Argv.KEPT_CHARS; // room for 10 long lines; the rest keep the floor
        table.budgetingCommandLines(budget);

        java.util.List<ProcessSample> scanned = table.scan(true).processes();

        java.util.Set<java.util.List<String>> distinct = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        long kept = 0;
        int floored = 0;
        for (ProcessSample p : scanned) {
            if (p.pid() < 100) continue;
            assertThat(p.cmdlineUnread()).isFalse();
            long chars = dev.runaway.model.Argv.chars(p.cmdline());
            assertThat(chars).as("pid %d", p.pid()).isLessThanOrEqualTo(dev.runaway.model.Argv.KEPT_CHARS + 64);
            if (chars <= dev.runaway.model.Argv.FLOOR_CHARS + 64) floored++;
            if (distinct.add(p.cmdline())) kept += chars;
            assertThat(dev.runaway.analysis.CommandKeys.of(p)).as("pid %d", p.pid()).isEqualTo("/srv/ci/deploy.sh");
        }
        assertThat(kept).as("across the table").isLessThanOrEqualTo(budget + 43L * (dev.runaway.model.Argv.FLOOR_CHARS + 64));
        // Each long line keeps about 4,100 characters (its 60 KiB argument cut to ARG_CHARS): the budget holds 19 of them.
        assertThat(floored).as("past the budget, new long lines keep the floor").isGreaterThanOrEqualTo(43 - (int) (budget / 4_100));
    }

    interface Fifo extends com.sun.jna.Library {
        Fifo C = dev.runaway.sys.Jna.libc(Fifo.class);

        int mkfifo(String path, int mode);
    }

    /**
     * A stat read that waits (the kernel holds /proc/PID/stat while the process is in the middle
     * of an exec; during a fire for seconds): here that stat is a FIFO, whose open waits for a
     * writer. Scans keep finishing without that process and say so, do not ask for it again while
     * the read waits, and take it in once it can be read.
     */
    @Test
    @org.junit.jupiter.api.Timeout(value = 30, unit = java.util.concurrent.TimeUnit.SECONDS)
    void aStatThatWaitsLeavesItsProcessOutUntilItCanBeRead() throws Exception {
        final int EXECING = 500;
        proc.process(1, 0, "systemd").cmdline("/sbin/init").exe("/usr/lib/systemd/systemd").write();
        for (int pid = 100; pid < 200; pid++) proc.process(pid, 1, "tool").cmdline("/opt/tool").exe("/opt/tool").write();
        proc.process(EXECING, 1, "tool").cmdline("/opt/tool").exe("/opt/tool").write();
        Path stat = proc.root().resolve(EXECING + "/stat");
        String content = java.nio.file.Files.readString(stat);
        java.nio.file.Files.delete(stat);
        assertThat(Fifo.C.mkfifo(stat.toString(), 0600)).isZero();

        ScanSample first = table.scan(true);

        assertThat(first.processes()).hasSize(101);
        assertThat(byPid(first).containsKey(EXECING)).isFalse();
        assertThat(first.statsUnread()).isEqualTo(1);
        assertThat(first.complete()).as("not every stat was read").isFalse();
        ScanSample second = table.scan(false); // the read still waits: not asked again, and this scan too ends
        assertThat(second.statsUnread()).isEqualTo(1);

        try (java.io.FileOutputStream exec = new java.io.FileOutputStream(stat.toFile())) { // the exec ends: the waiting read returns
            exec.write(content.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        java.nio.file.Files.delete(stat);
        java.nio.file.Files.writeString(stat, content);
        org.awaitility.Awaitility.await().atMost(10, java.util.concurrent.TimeUnit.SECONDS).until(() -> byPid(table.scan(false)).containsKey(EXECING));
        assertThat(table.statsUnread()).isZero();
    }

    /**
     * During a fire most reads of a new pressing task's stat wait seconds (it is mid-fork). Their
     * answers, late for their own scan, are taken in by a later one instead of read again (which
     * would wait again): the late answer says "tool", a fresh read would say "tool2".
     */
    @Test
    @org.junit.jupiter.api.Timeout(value = 30, unit = java.util.concurrent.TimeUnit.SECONDS)
    void aNewProcessesStatThatCameLateIsTakenInWithoutReadingItAgain() throws Exception {
        final int FORKING = 500;
        baseSystem();
        proc.process(FORKING, 1, "tool").cmdline("/opt/tool").exe("/opt/tool").write();
        Path stat = proc.root().resolve(FORKING + "/stat");
        String late = java.nio.file.Files.readString(stat);
        proc.process(FORKING, 1, "tool2").cmdline("/opt/tool").exe("/opt/tool").write();
        String now = java.nio.file.Files.readString(stat);
        java.nio.file.Files.delete(stat);
        assertThat(Fifo.C.mkfifo(stat.toString(), 0600)).isZero();

        assertThat(byPid(table.scan(true)).containsKey(FORKING)).isFalse(); // its read waits on the FIFO
        try (java.io.FileOutputStream fork = new java.io.FileOutputStream(stat.toFile())) { // the fork ends: the read returns
            fork.write(late.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        java.nio.file.Files.delete(stat);
        java.nio.file.Files.writeString(stat, now);
        org.awaitility.Awaitility.await().atMost(10, java.util.concurrent.TimeUnit.SECONDS)
                .until(() -> !StatReads.shared().underway(proc.root(), FORKING));

        ScanSample next = table.scan(false);
        assertThat(byPid(next).get(FORKING)).as("taken in from the late answer").isNotNull()
                .extracting(ProcessSample::comm).isEqualTo("tool");
        assertThat(next.statsUnread()).isZero();
        assertThat(byPid(table.scan(false)).get(FORKING).comm()).as("re-read early, as any new process").isEqualTo("tool2");
    }

    @Test
    void aCommandLineIsReadOnlyWhenTheExecutableSaysItIsNeeded() {
        baseSystem();
        proc.process(10, 1, "bash").cmdline("bash", "/tmp/deploy.sh").exe("/usr/bin/bash").write();
        proc.process(11, 10, "worker").cmdline("/opt/worker", "-v").exe("/opt/worker").write();
        table.readingCommandLinesOnlyWhen(exe -> exe.endsWith("/bash"));

        Map<Integer, ProcessSample> p = byPid(table.scan(true));

        assertThat(p.get(10).cmdline()).containsExactly("bash", "/tmp/deploy.sh");
        assertThat(p.get(11).cmdline()).as("not needed: not read").isEmpty();
        assertThat(p.get(11).cmdlineUnread()).as("and not waiting to be read").isFalse();
        assertThat(p.get(11).exe()).isEqualTo("/opt/worker");
        assertThat(table.cmdlinesUnread()).isZero();
    }

    /** Events a test queues for the table, as the kernel's process events would arrive. */
    private static final class ScriptedEvents implements EventFeed {
        private final java.util.List<int[]> queued = new java.util.ArrayList<>(); // {pid, 1 forked / 0 exited}

        void forked(int pid) {
            queued.add(new int[] {pid, 1});
        }

        void exited(int pid) {
            queued.add(new int[] {pid, 0});
        }

        @Override
        public boolean drain(ProcEvents.Sink sink) {
            for (int[] e : queued) {
                if (e[1] == 1) sink.forked(e[0]);
                else sink.exited(e[0]);
            }
            queued.clear();
            return true;
        }
    }

    /** init and friends, then {@code n} sleepers from pid 1000 (round-robin shares of a few pids). */
    private void sleepers(int n, int rssPages) {
        baseSystem();
        for (int pid = 1000; pid < 1000 + n; pid++) proc.process(pid, 1, "sleep").rssPages(rssPages).cmdline("sleep", "600").exe("/usr/bin/sleep").write();
    }

    @Test
    void aListedScanReReadsOnlyItsRoundRobinShareOfTheKnownStats() {
        sleepers(200, 10);
        table.scan(ProcessTable.Depth.COMPLETE);
        table.scan(ProcessTable.Depth.INCREMENTAL); // last scan's newcomers read again once
        sleepers(200, 20);
        proc.process(5000, 1, "newcomer").exe("/opt/newcomer").write();

        Map<Integer, ProcessSample> listed = byPid(table.scan(ProcessTable.Depth.LISTED));

        long reread = listed.values().stream().filter(p -> p.pid() >= 1000 && p.pid() < 1200 && p.rssBytes() == 20 * PAGE).count();
        assertThat(reread).as("the round-robin share, not all 200").isBetween(1L, 10L);
        assertThat(listed).containsKey(5000);
        assertThat(byPid(table.scan(ProcessTable.Depth.COMPLETE)).values().stream()
                .filter(p -> p.pid() >= 1000 && p.pid() < 1200 && p.rssBytes() == 20 * PAGE).count()).as("a complete scan reads every one").isEqualTo(200);
    }

    @Test
    void aListedScanFollowingEventsListsProcAndSeesAPidReusedSinceTheLastScan() {
        sleepers(200, 10);
        ScriptedEvents events = new ScriptedEvents();
        table.following(events);
        table.scan(ProcessTable.Depth.COMPLETE);
        table.scan(ProcessTable.Depth.INCREMENTAL);
        long listings = table.listings();
        // pid 1100 exits and a new process takes its number; a process the events never told of appears
        proc.process(1100, 1, "reborn").start(99_999).cmdline("/opt/reborn").exe("/opt/reborn").write();
        events.exited(1100);
        events.forked(1100);
        proc.process(6000, 1, "unannounced").exe("/opt/unannounced").write();

        Map<Integer, ProcessSample> listed = byPid(table.scan(ProcessTable.Depth.LISTED));

        assertThat(table.listings()).isEqualTo(listings + 1);
        assertThat(listed).as("the listing shows what the events missed").containsKey(6000);
        assertThat(listed.get(1100).identity()).isEqualTo(new ProcessIdentity(1100, 99_999));
        assertThat(listed.get(1100).exe()).isEqualTo("/opt/reborn");
    }
}
