// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.view;

import dev.runaway.analysis.Group;
import dev.runaway.analysis.GrowthFit;
import dev.runaway.analysis.GrowthShape;
import dev.runaway.guard.GuardRule;
import dev.runaway.guard.HeldGroup;
import dev.runaway.timeline.GroupPoint;
import dev.runaway.timeline.GroupScan;
import dev.runaway.timeline.PulsePoint;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The console window's state driven through its view model, without a display: what is selected
 * (the runaway on opening, a person's choice after), what the header says, when the chains view
 * takes a scan, and what the stop panel offers at each phase.
 */
class ConsoleStateTest {
    private static final long S = 1_000_000_000L;

    private static Group group(String command, int tasks, boolean atCap, List<Integer> pids) {
        return new Group(command, tasks, List.of(), false, false, List.of(), 1, tasks * 4096L,
                new GrowthFit(GrowthShape.STEADY, 0, 0), 0, OptionalDouble.empty(), "", pids, "", -1, -1,
                atCap, Optional.empty(), 0, false, 0, 0, 0.1);
    }

    private static final Group TOOL = group("/tmp/t/tool", 600, true, List.of(10, 11, 12));
    private static final Group JAVA = group("/usr/bin/java", 40, false, List.of(20));
    private static final Group DRILL = group("/tmp/runaway-drill-fanout/worker", 20, false, List.of(30, 31));

    @Test
    void theWindowOpensOnTheRunawayOnceAndThenKeepsThePersonsChoice() {
        ConsoleState state = new ConsoleState(true);
        List<ConsoleRow> shown = List.of(ConsoleRow.of(TOOL), ConsoleRow.of(JAVA));
        assertThat(state.openOn(shown, Optional.empty(), List.of(TOOL, JAVA))).as("before any scan is shown").isEmpty();

        Object scan = new Object();
        assertThat(state.takeLive(scan, 10 * S)).isTrue();
        assertThat(state.openOn(shown, Optional.empty(), List.of(TOOL, JAVA)))
                .contains(new ConsoleState.Open("g:/tmp/t/tool", null, true));
        assertThat(state.selectedKey()).isEqualTo("g:/tmp/t/tool");
        assertThat(state.openOn(shown, Optional.empty(), List.of(TOOL, JAVA))).as("once").isEmpty();
        assertThat(state.firstRow()).as("first whatever the order while it is the selection").isEqualTo("g:/tmp/t/tool");

        // Rows placed anew move the selection by index: not a choice.
        state.placing(true);
        assertThat(state.selected(ConsoleRow.of(JAVA))).isFalse();
        state.placing(false);
        assertThat(state.selectedKey()).isEqualTo("g:/tmp/t/tool");

        // A person's choice is followed, and kept when a drill starts.
        assertThat(state.selected(ConsoleRow.of(JAVA))).isTrue();
        assertThat(state.selectedKey()).isEqualTo("g:/usr/bin/java");
        assertThat(state.firstRow()).as("the person chose another row: the severity order alone").isNull();
        var drill = Optional.of(new ConsoleState.DrillRun("drill-fanout-1", Set.of(30, 31)));
        assertThat(state.openOn(List.of(ConsoleRow.of(TOOL), ConsoleRow.of(DRILL)), drill, List.of(TOOL, DRILL))).isEmpty();
        assertThat(state.selectedKey()).isEqualTo("g:/usr/bin/java");
    }

    @Test
    void theRunawaysChainsAreOpenedWhenAPersonCanReadThemNotAsThousandsOfOneProcessChains() {
        for (int chains : new int[] {1, ConsoleState.OPEN_EXPANDED_CHAINS, ConsoleState.OPEN_EXPANDED_CHAINS + 1, 5000}) {
            ConsoleState state = new ConsoleState(true);
            state.takeLive(new Object(), 0);
            Group fire = withChains("/tmp/t/tool", chains);
            assertThat(state.openOn(List.of(ConsoleRow.of(fire)), Optional.empty(), List.of(fire)))
                    .as(chains + " chains").contains(new ConsoleState.Open("g:/tmp/t/tool", null, chains <= ConsoleState.OPEN_EXPANDED_CHAINS));
        }
    }

    private static Group withChains(String command, int chains) {
        List<dev.runaway.analysis.Chain> list = new java.util.ArrayList<>();
        for (int i = 0; i < chains; i++) {
            list.add(new dev.runaway.analysis.Chain(new dev.runaway.model.ProcessIdentity(1000 + i, 77), 1, 1, List.of(command), List.of(1000 + i)));
        }
        return new Group(command, Math.max(chains, 600), list, true, false, List.of(), 1, chains * 4096L,
                new GrowthFit(GrowthShape.STEADY, 0, 0), 0, OptionalDouble.empty(), "", List.of(), "", -1, -1,
                true, Optional.empty(), 0, false, 0, 0, 0.1);
    }

    @Test
    void aDrillsGroupTakesOverFromTheRowTheWindowOpenedOnOnceItShows() {
        ConsoleState state = new ConsoleState(true);
        state.takeLive(new Object(), 0);
        var drill = Optional.of(new ConsoleState.DrillRun("drill-fanout-1", Set.of(30, 31)));
        List<ConsoleRow> before = List.of(ConsoleRow.of(TOOL), ConsoleRow.of(JAVA));
        assertThat(state.openOn(before, drill, List.of(TOOL, JAVA))).as("the drill's group not scanned yet: wait").isEmpty();
        assertThat(state.openOn(before, Optional.empty(), List.of(TOOL, JAVA))).map(ConsoleState.Open::key).contains("g:/tmp/t/tool");

        List<ConsoleRow> after = List.of(ConsoleRow.of(TOOL), ConsoleRow.of(JAVA), ConsoleRow.of(DRILL));
        assertThat(state.openOn(after, drill, List.of(TOOL, JAVA, DRILL)))
                .contains(new ConsoleState.Open("g:/tmp/runaway-drill-fanout/worker", "g:/tmp/t/tool", true));
        assertThat(state.selectedKey()).isEqualTo("g:/tmp/runaway-drill-fanout/worker");
    }

    @Test
    void aDrillsForksThatHaveNotExecYetDoNotMakeTheConsoleTheDrillsGroup() {
        Group console = new Group("this console", 62, List.of(), false, false, List.of(), 1, 62 * 4096L,
                new GrowthFit(GrowthShape.LINEAR, 1, 0), 0, OptionalDouble.empty(), "", List.of(30, 31, 32), "", -1, -1,
                false, Optional.empty(), 0, true, 0, 0, 0.1);
        assertThat(ConsoleState.drillGroupKey(Set.of(30, 31, 32, 40), List.of(console))).isNull();
        Group tool = group("/tmp/d/cache/tool", 1, false, List.of(40));
        assertThat(ConsoleState.drillGroupKey(Set.of(30, 31, 32, 40), List.of(console, tool))).isEqualTo("g:/tmp/d/cache/tool");
    }

    @Test
    void aCalmMachineOpensOnNothing() {
        ConsoleState state = new ConsoleState(true);
        state.takeLive(new Object(), 0);
        assertThat(state.openOn(List.of(ConsoleRow.of(JAVA)), Optional.empty(), List.of(JAVA))).isEmpty();
        assertThat(state.selectedKey()).isNull();
    }

    @Test
    void theChainsViewTakesANewScanOnceASecondAndOneAtATime() {
        ConsoleState state = new ConsoleState(true);
        Object first = new Object();
        Object second = new Object();
        assertThat(state.takeLive(first, 5 * S)).isTrue();
        assertThat(state.takeLive(first, 7 * S)).as("the same scan").isFalse();
        assertThat(state.takeLive(second, 7 * S)).as("the last one is still being prepared").isFalse();
        state.prepared();
        assertThat(state.takeLive(second, 5 * S + S / 2)).as("within a second").isFalse();
        assertThat(state.takeLive(second, 6 * S)).isTrue();
        assertThat(state.takeRecorded(scan(List.of()))).as("a live window shows no recording").isFalse();
    }

    @Test
    void theHeaderSaysTheWorstGroupAndWhatTheGuardHoldsLiveOnly() {
        GroupPoint worst = new GroupPoint("/tmp/runaway-drill-cap/worker", 599, 600L << 20,
                new dev.runaway.analysis.GrowthFit(dev.runaway.analysis.GrowthShape.STEADY, 0, 0), 0, java.util.OptionalDouble.empty(), "",
                1, 3, true, false, List.of(), 1, 600, true,
                Optional.of(new dev.runaway.analysis.GroupCap("pids.max", 600)), 1234, "/sbx", false);
        PulsePoint pulse = new PulsePoint(1, Instant.EPOCH, 2000, 1000, 3, 8L << 30, 6L << 30, 0, 0, 0.0, 0, 32768);
        List<HeldGroup> holds = List.of(new HeldGroup("/tmp/runaway-drill-cap/worker", "/sbx", GuardRule.GROWING_RECURSION,
                "recurs 8 times", Instant.EPOCH, "FREEZE_CGROUP", 12, 0, false));

        ConsoleState live = new ConsoleState(true);
        HeaderFigures h = live.header(pulse, scan(List.of(worst)), holds);
        assertThat(h.figures().get(5).caption()).isEqualTo("worst group: worker");
        assertThat(h.figures().get(5).text()).isEqualTo("AT CAP");
        assertThat(h.figures().get(7).text()).isEqualTo("now: pids.max 600");
        assertThat(h.held()).hasValueSatisfying(f -> assertThat(f.text()).isEqualTo("1 HELD by the guard"));
        assertThat(live.header()).isSameAs(h);

        ConsoleState replay = new ConsoleState(false);
        assertThat(replay.header(pulse, scan(List.of()), holds).held()).as("holds are not recorded").isEmpty();
        assertThat(replay.header().figures().get(5).text()).isEqualTo("-");
        assertThat(replay.stopOffered(ConsoleRow.of(TOOL))).as("a recording cannot be stopped").isFalse();
        assertThat(live.stopOffered(ConsoleRow.of(TOOL))).isTrue();
        assertThat(live.stopOffered(null)).isFalse();
    }

    @Test
    void theStopPanelOffersCloseAtEveryPhaseAndStopAgainAndTheReportOnceItEnded() {
        for (StopOffer.Phase phase : StopOffer.Phase.values()) {
            assertThat(StopOffer.of(phase, 60).closeText()).as(phase.name()).isNotEmpty();
        }
        StopOffer ready = StopOffer.of(StopOffer.Phase.READY, 60);
        assertThat(ready.confirmText()).isEqualTo("Stop 60 processes");
        assertThat(ready.confirmReady()).isTrue();
        assertThat(ready.closeText()).isEqualTo("Cancel");
        assertThat(StopOffer.of(StopOffer.Phase.PLANNING, 0).confirmReady()).isFalse();

        StopOffer running = StopOffer.of(StopOffer.Phase.RUNNING, 0);
        assertThat(running.closeEnabled()).as("a running stop cannot be undone").isFalse();
        assertThat(running.confirmShown()).isFalse();
        for (StopOffer.Phase phase : StopOffer.Phase.values()) {
            assertThat(StopOffer.of(phase, 60).holdsWindow()).as("the window holds still only while a confirmed stop runs: " + phase)
                    .isEqualTo(phase == StopOffer.Phase.RUNNING);
        }

        StopOffer done = StopOffer.of(StopOffer.Phase.DONE, 0);
        assertThat(done.closeText()).isEqualTo("Close");
        assertThat(done.closeEnabled()).isTrue();
        assertThat(done.confirmShown()).as("nothing left to confirm").isFalse();
        assertThat(done.again()).isTrue();
        assertThat(done.report()).isTrue();
        assertThat(StopOffer.of(StopOffer.Phase.REFUSED, 0).again()).isTrue();
    }

    @Test
    void theBannerAndTitleSayDrillOrReplay() {
        Banner drill = Banner.drill("drill-fanout-1", 20, "a fork bomb in a box");
        assertThat(drill.text()).startsWith("DRILL  drill-fanout-1").contains("cap 20 tasks");
        assertThat(drill.shown()).isTrue();
        assertThat(Banner.replay("console", "2026-11-29T10:00:00Z").text()).startsWith("REPLAY").contains("nothing here can be stopped");
        assertThat(Banner.NONE.shown()).isFalse();
        assertThat(ConsoleState.title("drill-fanout-1", true, "console")).isEqualTo("Runaway console: DRILL drill-fanout-1");
        assertThat(ConsoleState.title("", false, "incident.jsonl")).isEqualTo("Runaway replay: incident.jsonl");
        ConsoleState state = new ConsoleState(true);
        assertThat(state.drillChanged("")).isFalse();
        assertThat(state.drillChanged("drill-fanout-1")).isTrue();
        assertThat(state.drillChanged("drill-fanout-1")).isFalse();
    }

    private static GroupScan scan(List<GroupPoint> groups) {
        return new GroupScan(1, Instant.EPOCH, 0, 100, groups);
    }
}
