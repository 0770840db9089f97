// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop;

import dev.runaway.stop.plan.Disposable;
import dev.runaway.stop.plan.Planner;
import dev.runaway.stop.plan.StopPlan;
import dev.runaway.stop.target.Exclusions;
import dev.runaway.stop.target.TargetRescan;
import dev.runaway.stop.target.Targets;
import dev.runaway.model.ProcessSample;
import dev.runaway.procfs.FakeProc;
import dev.runaway.procfs.MemoryFigures;
import dev.runaway.procfs.PulseReader;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A command key's definition by user (a fake /proc): a one-user selector (a guard's hold) takes
 * only the processes whose real uid (status, not the owner of /proc/PID) is that user's, and what
 * they started, in its full reading and in the light readings of its rounds; its plan says the
 * key spans users and how many of others' it left alone. A person's selector takes every user's.
 */
class TargetRescanUsersTest {
    private static final String KEY = "/opt/shared/tool";

    @TempDir
    Path dir;
    private FakeProc proc;

    private void process(int pid, int ppid, long start, int realUid, String exe) {
        proc.process(pid, ppid, "tool").start(start).cmdline(exe).exe(exe).cgroup("/user.slice/u" + realUid).write();
        // The owner of the fake /proc/PID is root for all: only status says whose each is (as for a non-dumpable process).
        proc.file(pid + "/status", "Name:\ttool\nPPid:\t" + ppid + "\nUid:\t" + realUid + "\t" + realUid + "\t" + realUid + "\t" + realUid + "\n");
    }

    @BeforeEach
    void machine() {
        proc = new FakeProc(dir.resolve("proc"));
        proc.nonProcessEntries();
        proc.process(1, 0, "init").cmdline("/sbin/init").exe("/usr/lib/systemd/systemd").write();
        process(200, 1, 5000, 1000, KEY); // the runaway: uid 1000's tool and its child
        process(201, 200, 5001, 1000, KEY);
        process(300, 1, 100, 2000, KEY); // another user's idle copy, and what it started
        process(301, 300, 101, 2000, "/usr/bin/sleep");
    }

    private TargetRescan rescan(Selector selector) {
        return new TargetRescan(proc.root(), selector, Exclusions.none(-1),
                new PulseReader(proc.root(), () -> new MemoryFigures(1L << 34, 1L << 33, 0, 0)));
    }

    private static List<Integer> pids(Targets t) {
        return t.members().stream().map(ProcessSample::pid).sorted().toList();
    }

    @Test
    void oneUsersDefinitionTakesOnlyTheirProcessesInEveryReadingAndSaysWhoseItLeft() {
        try (TargetRescan r = rescan(Selector.Command.ofUser(KEY, 1000))) {
            Targets first = r.get();
            assertThat(pids(first)).containsExactly(200, 201);
            assertThat(first.users().spansUsers()).isTrue();
            assertThat(first.users().processesByUid()).isEqualTo(Map.of(1000, 2, 2000, 2));
            assertThat(first.users().leftOut()).isEqualTo(2);
            assertThat(first.users().words().orElseThrow()).isEqualTo("the key spans 2 users (uid 1000: 2, uid 2000: 2); only uid 1000's"
                    + " are targets, 2 of other users' left alone");
            process(302, 300, 102, 2000, KEY); // the other user starts another copy
            process(202, 201, 5002, 1000, KEY);
            Targets round = r.get(); // a light reading, as between sweeps
            assertThat(pids(round)).containsExactly(200, 201, 202);
            assertThat(round.users()).as("kept from the full reading").isEqualTo(first.users());
            StopPlan plan = new Planner(new Disposable(List.of(), Path.of("/nonexistent-home")), true).plan(first);
            assertThat(plan.describe()).contains("Users: " + first.users().words().orElseThrow());
        }
    }

    @Test
    void aPersonsDefinitionOfTheKeyTakesEveryUsers() {
        try (TargetRescan r = rescan(new Selector.Command(KEY))) {
            Targets t = r.get();
            assertThat(pids(t)).containsExactly(200, 201, 300, 301);
            assertThat(t.users().only()).isEmpty();
            assertThat(t.users().leftOut()).isZero();
        }
    }
}
