// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.guard;

import dev.runaway.analysis.Group;
import dev.runaway.analysis.GrowthFit;
import dev.runaway.analysis.GrowthShape;
import dev.runaway.model.ProcessIdentity;
import dev.runaway.model.ProcessSample;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Whose runaway a group of a shared tool's key is (synthetic processes, real uids given): the
 * deepest line's user for a recursion, however many idle copies another user runs; the user
 * starting the newest processes otherwise; the cgroup of that user's members alone.
 */
class RunawayScopeTest {
    private static final String KEY = "/opt/shared/tool.sh";
    private final List<ProcessSample> samples = new ArrayList<>();
    private final Map<Integer, Integer> uids = new HashMap<>();

    private void process(int pid, int ppid, long startTicks, int uid, String cgroup) {
        samples.add(new ProcessSample(new ProcessIdentity(pid, startTicks), ppid, pid, 1, 'S', "tool.sh", 1, 0, 0, 0,
                List.of("/bin/bash", KEY), "/bin/bash", cgroup));
        uids.put(pid, uid);
    }

    private Group group(boolean recursive, List<Integer> pids) {
        return new Group(KEY, pids.size(), List.of(), false, recursive, recursive ? List.of(KEY, KEY) : List.of(), recursive ? 8 : 1, 0,
                new GrowthFit(GrowthShape.STEADY, 0, 0), 0, OptionalDouble.empty(), "", pids, "", -1);
    }

    private RunawayScope scope(boolean recursive) {
        List<Integer> pids = samples.stream().map(ProcessSample::pid).toList();
        return RunawayScope.of(group(recursive, pids), samples, pid -> uids.getOrDefault(pid, -1)).orElseThrow();
    }

    @Test
    void aRecursionIsTheDeepestLinesUserNotTheUserWithMoreCopies() {
        for (int i = 0; i < 20; i++) process(100 + i, 1, 5000 + i, 65534, "/victim"); // twenty idle copies, started later
        for (int d = 0; d < 8; d++) process(200 + d, d == 0 ? 1 : 199 + d, 1000 + d, 65533, "/attacker"); // eight deep
        RunawayScope s = scope(true);
        assertThat(s.uid()).isEqualTo(65533);
        assertThat(s.cgroup()).isEqualTo("/attacker");
        assertThat(s.members()).isEqualTo(8);
        assertThat(s.others()).isEqualTo(20);
    }

    @Test
    void growthIsTheUserStartingTheNewestProcesses() {
        for (int i = 0; i < 30; i++) process(100 + i, 1, 100 + i, 65534, "/victim"); // old idle copies
        for (int i = 0; i < 12; i++) process(300 + i, 1, 9000 + i, 65533, "/attacker"); // started since
        assertThat(scope(false).uid()).isEqualTo(65533);
    }

    @Test
    void oneUsersGroupIsTheirsAndTheirMembersSpreadOverCgroupsHaveNone() {
        process(100, 1, 10, 1000, "/a");
        process(101, 100, 11, 1000, "/b");
        RunawayScope s = scope(false);
        assertThat(s.uid()).isEqualTo(1000);
        assertThat(s.cgroup()).isEmpty();
        assertThat(s.others()).isZero();
    }

    @Test
    void aMemberWhoseUidCannotBeReadIsLeftOutAndNoneReadIsNoScope() {
        process(100, 1, 10, 1000, "/a");
        uids.put(100, -1);
        assertThat(RunawayScope.of(group(false, List.of(100)), samples, pid -> uids.getOrDefault(pid, -1))).isEmpty();
    }
}
