// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.guard;

import dev.runaway.analysis.Group;
import dev.runaway.analysis.GroupCap;
import dev.runaway.analysis.GrowthFit;
import dev.runaway.analysis.GrowthShape;
import dev.runaway.analysis.Snapshot;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

import static org.assertj.core.api.Assertions.assertThat;

/** The policy's lines on synthetic snapshots: what crosses them, and what never does. */
class WatchTest {
    private final Watch watch = new Watch(GuardPolicy.DEFAULTS, g -> 1000);

    private static Group group(String key, int tasks, boolean recursive, int repeats, boolean atCap, OptionalDouble exhaustion) {
        return new Group(key, tasks, List.of(), false, recursive, recursive ? List.of(key, key) : List.of(), repeats, tasks * 1024L * 1024,
                new GrowthFit(GrowthShape.STEADY, 0, 0), 0, exhaustion, exhaustion.isPresent() ? "pid_max" : "", List.of(4242, 4243),
                "/user.slice/user-1000.slice/app.scope", atCap ? 0 : 100, 400, atCap, atCap ? Optional.of(new GroupCap("pids.max", 400))
                        : Optional.empty(), atCap ? 3 : 0, false);
    }

    private List<Watch.Verdict> at(double seconds, Group... groups) {
        return watch.observe(new Snapshot(Instant.EPOCH, null, 0, new GrowthFit(GrowthShape.STEADY, 0, 0), List.of(groups), 100,
                0, 0, (long) (seconds * 1e9), 0, List.of()));
    }

    @Test
    void recursionThatKeepsDeepeningIsHeldAtOnceAndWrappersNestingAFewTimesAreNot() {
        assertThat(at(0, group("/d/deploy.sh", 10, true, 3, false, OptionalDouble.empty()))).as("make -> sh -> make: three").isEmpty();
        assertThat(at(0.2, group("/d/deploy.sh", 12, true, 5, false, OptionalDouble.empty()))).isEmpty();
        assertThat(at(0.4, group("/d/deploy.sh", 14, true, 6, false, OptionalDouble.empty())))
                .singleElement().satisfies(v -> assertThat(v.rule()).isEqualTo(GuardRule.GROWING_RECURSION));
    }

    @Test
    void aBuildDescendingWithOtherWordsOrDirectoriesIsHeldOnlyDeeperThanBuildsGo() {
        // make -C sub at every level, each in another directory: the key recurs, the invocation does not.
        for (int depth = 2; depth <= 30; depth++) {
            assertThat(at(depth * 0.2, group("/usr/bin/make", depth, true, depth, false, OptionalDouble.empty()).withIdenticalRepeats(2)))
                    .as("make[%d]", depth - 1).isEmpty();
        }
        assertThat(at(6.2, group("/usr/bin/make", 31, true, 31, false, OptionalDouble.empty()).withIdenticalRepeats(2)))
                .singleElement().satisfies(v -> assertThat(v.why()).contains("31 times", "deeper than builds go"));
    }

    @Test
    void theSameInvocationRecurringIsHeldPastTheRecursionDepth() {
        assertThat(at(0, group("/d/deploy.sh", 10, true, 5, false, OptionalDouble.empty()))).isEmpty();
        assertThat(at(0.2, group("/d/deploy.sh", 12, true, 6, false, OptionalDouble.empty()))).singleElement()
                .satisfies(v -> assertThat(v.why()).contains("6 times along one line with the same arguments and directory"));
    }

    @Test
    void aDeepTreeFoundAtFirstSightIsNotDeepening() {
        // bench metrics: 50,000 sleepers forked as a balanced tree, 16 levels of one binary, there before the guard.
        assertThat(at(0, group("/x/runaway-drill-worker", 50_000, true, 16, false, OptionalDouble.empty()))).isEmpty();
        assertThat(at(1, group("/x/runaway-drill-worker", 50_000, true, 16, false, OptionalDouble.empty()))).isEmpty();
    }

    @Test
    void deepRecursionThatStoppedDeepeningIsLeftAlone() {
        at(0, group("/usr/bin/make", 40, true, 7, false, OptionalDouble.empty()));
        assertThat(at(11, group("/usr/bin/make", 40, true, 7, false, OptionalDouble.empty()))).as("deep, but not deepening for 10 s").isEmpty();
    }

    @Test
    void aGroupAtItsCapCountsOnceItStayedThereTenSecondsThroughShortGaps() {
        Group capped = group("/tmp/x/tool", 400, false, 0, true, OptionalDouble.empty());
        Group between = group("/tmp/x/tool", 400, false, 0, false, OptionalDouble.empty());
        for (double t = 0; t <= 6; t += 0.5) assertThat(at(t, capped)).isEmpty();
        assertThat(at(7, between)).as("a refused fork backing off, a scan in between").isEmpty();
        assertThat(at(7.5, between)).isEmpty();
        for (double t = 8; t < 10; t += 0.5) assertThat(at(t, capped)).isEmpty();
        assertThat(at(10, capped)).singleElement().satisfies(v -> assertThat(v.rule()).isEqualTo(GuardRule.AT_CAP));
        for (double t = 10.5; t <= 13; t += 0.5) at(t, between);
        for (double t = 13.5; t < 23; t += 0.5) assertThat(at(t, capped)).as("a gap over 2 s starts the count again").isEmpty();
    }

    @Test
    void exhaustionWithinFiveMinutesCountsAfterTenSecondsAndSmallGroupsNever() {
        OptionalDouble soon = OptionalDouble.of(120);
        for (double t = 0; t < 10; t += 0.5) assertThat(at(t, group("/usr/bin/cc1", 120, false, 0, false, soon))).isEmpty();
        assertThat(at(10, group("/usr/bin/cc1", 120, false, 0, false, soon))).singleElement()
                .satisfies(v -> assertThat(v.rule()).isEqualTo(GuardRule.EXHAUSTION));
        for (double t = 0; t < 30; t += 0.5) {
            assertThat(at(100 + t, group("/usr/bin/true", 60, false, 0, false, soon))).as("a burst of short-lived processes: under min-tasks").isEmpty();
        }
    }

    @Test
    void theDesktopInitAndWhatThePolicyAllowsAreNeverHeld() throws Exception {
        for (String key : List.of("/usr/bin/Xorg", "/usr/bin/gnome-shell", "/usr/sbin/sshd", "/usr/lib/systemd/systemd")) {
            at(0, group(key, 10, true, 9, false, OptionalDouble.empty()));
            assertThat(at(0.1, group(key, 10, true, 10, false, OptionalDouble.empty()))).as(key).isEmpty();
        }
        for (String key : List.of("/tmp/u/tmux", "/home/u/bin/sshd", "/tmp/u/systemd")) {
            at(0, group(key, 10, true, 9, false, OptionalDouble.empty()));
            assertThat(at(0.1, group(key, 10, true, 10, false, OptionalDouble.empty()))).as(key + ": a user's file of that name")
                    .singleElement().satisfies(v -> assertThat(v.rule()).isEqualTo(GuardRule.GROWING_RECURSION));
        }
        Watch allowing = new Watch(GuardPolicy.parse(List.of("allow-key = /d/deploy.sh")), g -> 1000);
        allowing.observe(new Snapshot(Instant.EPOCH, null, 0, new GrowthFit(GrowthShape.STEADY, 0, 0),
                List.of(group("/d/deploy.sh", 10, true, 9, false, OptionalDouble.empty())), 100, 0, 0, 0, 0, List.of()));
        assertThat(allowing.observe(new Snapshot(Instant.EPOCH, null, 0, new GrowthFit(GrowthShape.STEADY, 0, 0),
                List.of(group("/d/deploy.sh", 10, true, 10, false, OptionalDouble.empty())), 100, 0, 0, 100_000_000, 0, List.of()))).isEmpty();
    }
}
