// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.drill;

import dev.runaway.analysis.Chain;
import dev.runaway.analysis.Group;
import dev.runaway.analysis.GrowthShape;
import dev.runaway.analysis.LiveAnalysis;
import dev.runaway.analysis.Snapshot;
import dev.runaway.analysis.TargetSet;
import dev.runaway.sandbox.CgroupLayout;
import dev.runaway.sandbox.CgroupSandbox;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The live analysis on real drills (caps are literals per test): chains, counts, recursion and
 * growth shapes as the drills are built to show them.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("process")
class DrillAnalysisTest {
    private static final Duration LIFETIME = Duration.ofMinutes(2);
    private LiveAnalysis live;
    private final List<Snapshot> seen = new CopyOnWriteArrayList<>();

    @BeforeEach
    void watch() {
        live = LiveAnalysis.live();
        live.onSnapshot(seen::add);
        live.start();
    }

    @AfterEach
    void stop() {
        live.close();
    }

    @Test
    void linearIsOneChainGrowingLinearlyAndCountsMatchTheSandbox() throws Exception {
        try (Drill drill = Drills.start(Scenario.LINEAR, 90, LIFETIME, false)) {
            Group atCap = awaitGroup(drill, g -> g.tasks() >= 90 && g.tasksGrowth().shape() == GrowthShape.STEADY, 30);
            assertThat(atCap.chains()).hasSize(1);
            // The run may start above the drill (its starter, when that has only this child).
            assertThat(atCap.chains().get(0).pids()).containsAll(atCap.pids());
            assertThat(atCap.pids()).hasSize(90);
            assertThat(atCap.tasks()).isEqualTo(drill.sandbox().taskCount());
            assertThat(atCap.recursive()).as("the worker starts itself again and again").isTrue();
            assertThat(sawShape(drill, GrowthShape.LINEAR)).as("linear while it grew").isTrue();
            assertThat(growingRates(drill)).anySatisfy(rate -> assertThat(rate).isBetween(10.0, 60.0));
        }
    }

    @Test
    void fanoutGrowsExponentially() throws Exception {
        try (Drill drill = Drills.start(Scenario.FANOUT, 600, LIFETIME, false)) {
            awaitGroup(drill, g -> g.tasks() >= 590, 30);
            assertThat(sawShape(drill, GrowthShape.EXPONENTIAL)).as("exponential while it grew").isTrue();
        }
    }

    @Test
    void orphansAreThreeChainsAllParentedToInit() throws Exception {
        try (Drill drill = Drills.start(Scenario.ORPHANS, 60, LIFETIME, false)) {
            Group group = awaitGroup(drill, g -> g.tasks() >= 57 && g.chains().size() == 3 && g.parentedToInit(), 30);
            assertThat(group.command()).isEqualTo(drill.folder().resolve("cache/tool").toString());
            int inChains = group.chains().stream().mapToInt(Chain::depth).sum();
            assertThat(inChains).isEqualTo(group.pids().size());
            awaitCount(drill);
            awaitTargetsAreTheSandbox(drill, group.command());
        }
    }

    @Test
    void recursiveNamesItsCycleThroughTwoInterpreters() throws Exception {
        try (Drill drill = Drills.start(Scenario.RECURSIVE, 40, LIFETIME, false)) {
            Group deploy = awaitGroup(drill, g -> g.command().endsWith("/deploy.sh") && g.recursive(), 40);
            assertThat(deploy.cycle()).hasSize(3);
            assertThat(deploy.cycle().get(0)).endsWith("/deploy.sh");
            assertThat(deploy.cycle().get(1)).isEqualTo("python3 -m unittest");
            assertThat(deploy.cycle().get(2)).endsWith("/deploy.sh");
            assertThat(deploy.repeats()).isGreaterThanOrEqualTo(3);
            awaitCount(drill);
        }
    }

    /** The stop's target set for the drill's command is exactly the sandbox, and its cgroup. */
    private void awaitTargetsAreTheSandbox(Drill drill, String command) throws InterruptedException {
        Path unified = CgroupLayout.detect().unified().orElseThrow();
        String cgroup = "/" + unified.relativize(((CgroupSandbox) drill.sandbox()).dirs().unified());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        TargetSet targets = null;
        Set<Integer> members = Set.of();
        while (System.nanoTime() < deadline) {
            targets = live.targets(command);
            members = drill.sandbox().memberPids();
            Set<Integer> pids = new HashSet<>();
            targets.processes().forEach(id -> pids.add(id.pid()));
            if (pids.equals(members) && targets.cgroup().equals(Optional.of(cgroup))) return;
            Thread.sleep(100);
        }
        throw new AssertionError("targets " + targets + " vs sandbox " + members + " in " + cgroup);
    }

    /** The drill's largest group in a snapshot: members all inside the drill's sandbox. */
    private static Optional<Group> groupOf(Drill drill, Snapshot s) {
        Set<Integer> members = drill.sandbox().memberPids();
        return s.groups().stream().filter(g -> !g.pids().isEmpty() && members.containsAll(g.pids()))
                .max(java.util.Comparator.comparingInt(Group::tasks));
    }

    private Group awaitGroup(Drill drill, Predicate<Group> wanted, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        Group last = null;
        while (System.nanoTime() < deadline) {
            Snapshot s = live.latest();
            if (s != null) {
                Optional<Group> g = groupOf(drill, s);
                if (g.isPresent()) {
                    last = g.get();
                    if (wanted.test(last)) return last;
                }
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no snapshot showed the wanted group within " + seconds + " s; last: " + last);
    }

    /** Tasks of every group inside the sandbox add up to the sandbox's own count. */
    private void awaitCount(Drill drill) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        int ours = -1;
        int theirs = -2;
        while (System.nanoTime() < deadline) {
            Snapshot s = live.latest();
            Set<Integer> members = drill.sandbox().memberPids();
            ours = s.groups().stream().filter(g -> members.containsAll(g.pids())).mapToInt(Group::tasks).sum();
            theirs = drill.sandbox().taskCount();
            if (ours == theirs) return;
            Thread.sleep(100);
        }
        assertThat(ours).as("tasks in the analysis vs the sandbox's own count").isEqualTo(theirs);
    }

    private boolean sawShape(Drill drill, GrowthShape shape) {
        return seen.stream().map(s -> groupOf(drill, s)).flatMap(Optional::stream)
                .anyMatch(g -> g.tasksGrowth().shape() == shape);
    }

    private List<Double> growingRates(Drill drill) {
        return seen.stream().map(s -> groupOf(drill, s)).flatMap(Optional::stream)
                .filter(g -> g.tasksGrowth().shape() == GrowthShape.LINEAR).map(g -> g.tasksGrowth().perSecond()).toList();
    }
}
