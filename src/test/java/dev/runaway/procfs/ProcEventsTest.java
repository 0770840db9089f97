// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import dev.runaway.model.ProcessSample;
import dev.runaway.sandbox.NativeBinaries;
import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import dev.runaway.sys.LibC;
import dev.runaway.sys.Signal;
import dev.runaway.testing.Alive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The kernel's process events (root only): forks and exits arrive, and a process table that
 * follows them knows its sandbox's members across churn without listing /proc again.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("process")
class ProcEventsTest {
    private static final Path PROC = Path.of("/proc");

    private static Process sleepers(Sandbox box, int n) throws Exception {
        Process p = box.start(new ProcessBuilder(NativeBinaries.find(NativeBinaries.DRILL_WORKER).toString(), "sleepers",
                Integer.toString(n)).redirectError(ProcessBuilder.Redirect.DISCARD));
        new BufferedReader(new InputStreamReader(p.getInputStream())).readLine(); // "ready" once all exist
        return p;
    }

    @Test
    void forksAndExitsOfOurOwnProcessesArrive() throws Exception {
        Optional<ProcEvents> opened = ProcEvents.open();
        assumeTrue(opened.isPresent(), "process events need CAP_NET_ADMIN");
        try (ProcEvents events = opened.get(); Sandbox box = Sandboxes.create(SandboxSpec.of("test-proc-events", 16))) {
            Process sleeper = box.start(new ProcessBuilder("sleep", "60"));
            int pid = (int) sleeper.pid();
            Set<Integer> forked = new HashSet<>(), exited = new HashSet<>();
            ProcEvents.Sink sink = new ProcEvents.Sink() {
                @Override
                public void forked(int tgid) {
                    forked.add(tgid);
                }

                @Override
                public void exited(int tgid) {
                    exited.add(tgid);
                }
            };
            assertThat(events.drain(sink)).isTrue();
            assertThat(forked).contains(pid);
            sleeper.destroyForcibly().waitFor();
            Thread.sleep(50);
            assertThat(events.drain(sink)).isTrue();
            assertThat(exited).contains(pid);
        }
    }

    @Test
    void aTableFollowingEventsKeepsItsMembersThroughChurnWithoutListingAgain() throws Exception {
        Optional<ProcEvents> opened = ProcEvents.open();
        assumeTrue(opened.isPresent(), "process events need CAP_NET_ADMIN");
        try (ProcEvents events = opened.get(); Sandbox box = Sandboxes.create(SandboxSpec.of("test-proc-events-table", 400))) {
            ProcessTable table = new ProcessTable(new ProcReader(PROC), LibC.INSTANCE.getpagesize()).following(events);
            Set<Integer> starters = new HashSet<>();
            starters.add((int) sleepers(box, 100).pid());
            table.scan(false);
            assertThat(table.listings()).as("the first scan lists: events are trusted from a listing on").isEqualTo(1);
            for (int round = 0; round < 5; round++) {
                // 20 living sleepers of this sandbox (never a starter this test holds a handle of).
                int killed = 0;
                for (int pid : box.memberPids()) {
                    if (killed == 20) break;
                    boolean sleeper = !starters.contains(pid) && Alive.is(pid);
                    if (sleeper && LibC.INSTANCE.kill(pid, Signal.SIGKILL) == 0) killed++;
                }
                assertThat(killed).isEqualTo(20);
                starters.add((int) sleepers(box, 20).pid());
                Thread.sleep(100);
                List<ProcessSample> seen = table.scan(false).processes();
                Set<Integer> members = box.memberPids();
                Set<Integer> ours = new HashSet<>();
                for (ProcessSample p : seen) if (members.contains(p.pid()) && p.state() != 'Z') ours.add(p.pid());
                Set<Integer> living = new HashSet<>();
                for (int pid : members) if (Alive.is(pid)) living.add(pid);
                assertThat(ours).as("round %d: the table's members of the sandbox are its living members", round)
                        .isEqualTo(living);
            }
            assertThat(table.listings()).as("incremental scans followed the events").isEqualTo(1);
            table.scan(true);
            assertThat(table.listings()).as("a complete scan still lists").isEqualTo(2);
        }
    }
}
