// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import dev.runaway.analysis.CommandKeys;
import dev.runaway.model.ProcessSample;
import dev.runaway.model.ScanSample;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The process table when some command-line reads wait (at thousands of tasks pressing on a cap,
 * a forking process holds the memory map the read needs): scans keep finishing, a program is
 * still keyed by its executable, an interpreter's key says its command line is unread, and the
 * command lines come in on later scans once the reads return.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class CmdlineStallTest {
    private static final long PAGE = 4096;

    @TempDir
    Path dir;

    private FakeProc proc;
    private ProcessTable table;
    private ExeCmdlineReads reads;
    private final Set<Integer> waiting = ConcurrentHashMap.newKeySet();
    private final Set<Integer> execing = ConcurrentHashMap.newKeySet(); // their exe reads wait
    private final Map<Integer, List<String>> answerAfterWait = new ConcurrentHashMap<>(); // what a waiting read returns
    private final CountDownLatch forksEnd = new CountDownLatch(1);

    @BeforeEach
    void setUp() {
        proc = new FakeProc(dir.resolve("proc"));
        proc.nonProcessEntries();
        Path root = proc.root();
        // Each reading thread its own reader, as in the console; reads of the pids in `waiting` block.
        reads = new ExeCmdlineReads(() -> {
            ProcReader reader = new ProcReader(root);
            return new ExeCmdlineReads.Reader() {
                public String exe(int pid) {
                    if (execing.contains(pid)) awaitForksEnd();
                    return reader.exe(pid);
                }

                public java.util.List<String> cmdline(int pid) {
                    if (waiting.contains(pid)) {
                        awaitForksEnd();
                        if (answerAfterWait.containsKey(pid)) return answerAfterWait.get(pid);
                    }
                    return reader.cmdline(pid);
                }
            };
        }, "test-cmdline");
        table = new ProcessTable(proc.reader(), PAGE, reads);
        proc.process(1, 0, "systemd").cmdline("/sbin/init").exe("/usr/lib/systemd/systemd").write();
        proc.process(2, 0, "kthreadd").write();
    }

    private void awaitForksEnd() {
        try {
            forksEnd.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @AfterEach
    void endForks() {
        forksEnd.countDown();
        reads.close(); // its reading threads end with this test
    }

    private static Map<Integer, ProcessSample> byPid(ScanSample scan) {
        return scan.processes().stream().collect(Collectors.toMap(ProcessSample::pid, Function.identity()));
    }

    @Test
    void scansFinishWhileReadsWaitAndKeysStayRightOrSayUnread() {
        for (int pid = 100; pid < 300; pid++) {
            proc.process(pid, 100, "tool").cgroup("/drill").cmdline("/drill/cache/tool", "pressing", "50").exe("/drill/cache/tool").write();
        }
        proc.process(400, 1, "bash").cmdline("bash", "/opt/loop.sh").exe("/usr/bin/bash").write();
        proc.process(401, 1, "sleep").cmdline("sleep", "600").exe("/usr/bin/sleep").write();
        // Their keys on a calm machine, every command line read.
        String drillKey = CommandKeys.of(List.of("/drill/cache/tool", "pressing", "50"), "/drill/cache/tool", "tool");
        String scriptKey = CommandKeys.of(List.of("bash", "/opt/loop.sh"), "/usr/bin/bash", "bash");
        assertThat(drillKey).isEqualTo("/drill/cache/tool");
        assertThat(scriptKey).isEqualTo("/opt/loop.sh");
        for (int pid = 100; pid < 300; pid += 20) waiting.add(pid); // forking now: their maps are held
        waiting.add(400);

        ScanSample first = table.scan(true);

        assertThat(first.processes()).hasSize(204);
        assertThat(first.cmdlinesUnread()).isBetween(waiting.size(), 203);
        // Later scans read the rest while those reads still wait: each scan finishes meanwhile (the class's timeout).
        await().atMost(10, TimeUnit.SECONDS).until(() -> table.scan(false).cmdlinesUnread() == waiting.size());
        Map<Integer, ProcessSample> p = byPid(table.scan(false));
        assertThat(p.get(401).cmdline()).containsExactly("sleep", "600");
        assertThat(p.get(401).cmdlineUnread()).isFalse();
        ProcessSample stalled = p.get(120);
        assertThat(stalled.cmdlineUnread()).isTrue();
        assertThat(stalled.cmdline()).isEmpty();
        assertThat(stalled.isKernelThread()).isFalse();
        assertThat(p.get(121).cmdline()).containsExactly("/drill/cache/tool", "pressing", "50");
        // The pressing drill's group keeps its calm key, its binary's path, read or not.
        for (int pid = 100; pid < 300; pid++) {
            assertThat(CommandKeys.of(p.get(pid))).isEqualTo(drillKey);
        }
        // An interpreter's cannot be told without its arguments: marked, never the bare interpreter.
        assertThat(p.get(400).cmdlineUnread()).isTrue();
        assertThat(CommandKeys.of(p.get(400))).isEqualTo("/usr/bin/bash" + CommandKeys.CMDLINE_UNREAD);

        forksEnd.countDown();
        await().atMost(10, TimeUnit.SECONDS).until(() -> table.scan(false).cmdlinesUnread() == 0);
        Map<Integer, ProcessSample> after = byPid(table.scan(false));
        assertThat(after.get(400).cmdline()).containsExactly("bash", "/opt/loop.sh");
        assertThat(after.get(400).cmdlineUnread()).isFalse();
        assertThat(CommandKeys.of(after.get(400))).isEqualTo(scriptKey);
        assertThat(after.get(120).cmdline()).containsExactly("/drill/cache/tool", "pressing", "50");
    }

    /** A read that returns after the process has exec'd is not taken for the new program's command line. */
    @Test
    void anAnswerFromBeforeAnExecIsNotTaken() {
        proc.process(500, 1, "sh").cmdline("sh", "-c", "exec /opt/new").exe("/usr/bin/dash").write();
        waiting.add(500);
        answerAfterWait.put(500, List.of("sh", "-c", "exec /opt/new")); // as read before the exec
        assertThat(byPid(table.scan(true)).get(500).cmdlineUnread()).isTrue();

        proc.process(500, 1, "new").cmdline("/opt/new").exe("/opt/new").write(); // the exec: comm and files change
        waiting.remove(500);
        Map<Integer, ProcessSample> now = byPid(table.scan(true));
        assertThat(now.get(500).cmdline()).containsExactly("/opt/new");

        forksEnd.countDown(); // the old read returns now, with the old program's arguments
        await().atMost(10, TimeUnit.SECONDS).until(() -> {
            table.scan(false);
            return table.cmdlinesWaiting() == 0; // the old answer came in, and was weighed
        });
        assertThat(byPid(table.scan(false)).get(500).cmdline()).containsExactly("/opt/new");
    }

    /** A process in the middle of an exec: its exe read waits too; the scan goes on, and its key says so until read. */
    @Test
    void anExeReadThatWaitsHoldsNoScanUp() {
        proc.process(600, 1, "tool").cmdline("/drill/cache/tool", "pressing", "50").exe("/drill/cache/tool").write();
        proc.process(601, 1, "tool").cmdline("/drill/cache/tool", "pressing", "50").exe("/drill/cache/tool").write();
        execing.add(600);

        Map<Integer, ProcessSample> p = byPid(table.scan(true));

        assertThat(p.get(600).cmdlineUnread()).isTrue();
        assertThat(p.get(600).exe()).isEmpty();
        assertThat(CommandKeys.of(p.get(600))).isEqualTo("tool" + CommandKeys.CMDLINE_UNREAD);
        assertThat(CommandKeys.of(p.get(601))).isEqualTo("/drill/cache/tool");

        forksEnd.countDown();
        await().atMost(10, TimeUnit.SECONDS).until(() -> table.scan(false).cmdlinesUnread() == 0);
        assertThat(CommandKeys.of(byPid(table.scan(false)).get(600))).isEqualTo("/drill/cache/tool");
    }
}
