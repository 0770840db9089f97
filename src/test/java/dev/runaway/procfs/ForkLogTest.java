// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import dev.runaway.sys.Clocks;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ForkLogTest {
    private final ScriptedForks kernel = new ScriptedForks();
    private final ForkLog log = ForkLog.recording(kernel);
    private final long t = Clocks.bootTicks() + 100; // starts after the log began

    @Test
    void aDaemonizersMiddleIsRememberedAfterItExitsAndTheRootIsOlderThanTheLog() {
        kernel.fork(500, 501, t).fork(501, 502, t + 1).exit(501);
        log.catchUp();
        ForkLog.Ref child = log.recordOf(502, t + 2); // stat's start may lie a tick or two from the stamp
        assertThat(child).isEqualTo(new ForkLog.Ref(502, t + 1));
        ForkLog.Ref middle = log.parentOf(child);
        assertThat(middle).isEqualTo(new ForkLog.Ref(501, t));
        assertThat(log.parentOf(middle)).as("500 started before the log").isEqualTo(new ForkLog.Ref(500, ForkLog.Ref.BEFORE_THE_LOG));
        assertThat(log.recordOf(500, t - 1000)).isNull();
    }

    @Test
    void aReusedPidIsAnotherRecordAndTheOldOneStillNamesItsChild() {
        kernel.fork(500, 501, t).fork(501, 502, t + 1).exit(501).fork(500, 501, t + 5000);
        log.catchUp();
        assertThat(log.recordOf(501, t)).as("the first 501 is gone; its pid names the new one").isNull();
        assertThat(log.recordOf(501, t + 5000)).isEqualTo(new ForkLog.Ref(501, t + 5000));
        assertThat(log.parentOf(log.recordOf(502, t + 1))).isEqualTo(new ForkLog.Ref(501, t));
        assertThat(log.parentOf(new ForkLog.Ref(501, t))).isEqualTo(new ForkLog.Ref(500, ForkLog.Ref.BEFORE_THE_LOG));
    }

    @Test
    void exitedRecordsNothingLivingDescendsFromAreForgotten() {
        for (int round = 0; round < 50_000; round++) kernel.fork(500, 1000 + round % 20_000, t + round / 100).exit(1000 + round % 20_000);
        log.catchUp();
        assertThat(log.size()).as("bounded by what lives, not by what ever forked").isLessThan(10_000);
        assertThat(log.since()).as("nothing was lost").isLessThan(t);
    }

    @Test
    void lostEventsStartTheLogAgainFromNow() {
        kernel.fork(500, 501, t);
        log.catchUp();
        long before = log.since();
        kernel.loseSome();
        log.catchUp();
        assertThat(log.since()).as("from now: never earlier (the same tick when the loss comes at once)").isGreaterThanOrEqualTo(before);
        assertThat(log.recordOf(501, t)).isNull();
        assertThat(log.restarts()).isEqualTo(1);
    }

    @Test
    void aLogOverAFeedPassesEveryEventOnToTheTable() {
        ForkLog over = ForkLog.over(kernel);
        kernel.fork(500, 501, t).exit(501);
        over.catchUp(); // a writer's catch-up: the table still gets the events at its next drain
        List<String> seen = new ArrayList<>();
        assertThat(over.drain(new ProcEvents.Sink() {
            @Override
            public void forked(int tgid) {
                seen.add("fork " + tgid);
            }

            @Override
            public void exited(int tgid) {
                seen.add("exit " + tgid);
            }
        })).isTrue();
        assertThat(seen).containsExactly("fork 501", "exit 501");
    }

    @Test
    void anOlderSnapshotTakenAfterThisLogBeganIsJoinedInFront() {
        ScriptedForks older = new ScriptedForks();
        ForkLog sampler = ForkLog.recording(older);
        older.fork(500, 501, t).fork(501, 502, t + 1).exit(501);
        ForkLog mine = ForkLog.recording(kernel);
        ForkLog.Snapshot s = sampler.snapshot(); // taken after mine subscribed
        assertThat(mine.splice(new ForkLog.Snapshot(s.sinceTicks() - 500, s.takenTicks(), s.records()))).isTrue();
        assertThat(mine.since()).isEqualTo(s.sinceTicks() - 500);
        assertThat(mine.parentOf(mine.recordOf(502, t + 1))).isEqualTo(new ForkLog.Ref(501, t));
        assertThat(mine.splice(new ForkLog.Snapshot(0, mine.subscribedTicks() - 1, List.of())))
                .as("a snapshot from before this log began leaves a gap: not joined").isFalse();
    }
}
