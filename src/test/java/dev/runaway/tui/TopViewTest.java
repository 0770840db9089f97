// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.tui;

import dev.runaway.analysis.Group;
import dev.runaway.analysis.GrowthFit;
import dev.runaway.analysis.GrowthShape;
import dev.runaway.analysis.ScanStatus;
import dev.runaway.analysis.Snapshot;
import dev.runaway.model.PulseSample;
import dev.runaway.stop.Selector;
import dev.runaway.stop.StopSession;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

import static org.assertj.core.api.Assertions.assertThat;

/** The terminal view's keys and frames, driven without a terminal. */
class TopViewTest {
    private static final Instant WALL = Instant.parse("2026-11-30T14:05:09.123456789Z");
    private static final ScanStatus FRESH = new ScanStatus(0.3, 0, 0.05, 300, 0.5, 1, 2);
    private static final String DRILL_CGROUP = "runaway-sandbox.0.0.1796053795.drill-pressing-25a9";

    private final List<String> opened = new ArrayList<>();
    private final TopView view = new TopView(key -> {
        opened.add(key);
        // Targets already gone: the panel says so without touching any process.
        return new TerminalStop(key, () -> StopSession.refused(new Selector.Command(key), StopSession.Reason.NOTHING_MATCHES,
                "nothing matches " + key + " any more"), Runnable::run).open();
    }, ZoneId.of("Europe/Berlin"));

    private static Group group(String command, int tasks, String cgroup, int stopped, int zombies, double cpu) {
        return new Group(command, tasks, List.of(), false, false, List.of(), 1, tasks * 4096L,
                new GrowthFit(GrowthShape.STEADY, 0, 0), 0, OptionalDouble.empty(), "", List.of(), cgroup, -1, -1,
                false, Optional.empty(), 0, false, stopped, zombies, cpu);
    }

    private static Snapshot snapshot(Group... groups) {
        PulseSample pulse = new PulseSample(WALL, 1, 500, 1000, 24L << 30, 20L << 30, 0, 0, Optional.empty(), 32768, 100_000);
        return new Snapshot(WALL, pulse, 3, new GrowthFit(GrowthShape.STEADY, 0, 0), List.of(groups), 400, 2_000_000, 1_000_000, 1, 0);
    }

    private static Keys.Key ch(char c) {
        return Keys.Key.ch(c);
    }

    private static Keys.Key key(Keys.Kind kind) {
        return Keys.Key.of(kind);
    }

    @Test
    void theSelectionFollowsItsGroupWhenTheRowsReorder() {
        Group a = group("/usr/bin/a", 5, "", 0, 0, Double.NaN);
        Group b = group("/usr/bin/b", 3, "", 0, 0, Double.NaN);
        Group c = group("/usr/bin/c", 1, "", 0, 0, Double.NaN);
        view.key(key(Keys.Kind.DOWN), snapshot(a, b, c));
        assertThat(view.selected()).isEqualTo("/usr/bin/b");
        Snapshot reordered = snapshot(c, a, b);
        assertThat(view.frame(reordered, FRESH, Map.of(), 120, 30, false)).contains("> 3 ");
        view.key(key(Keys.Kind.UP), reordered);
        assertThat(view.selected()).isEqualTo("/usr/bin/a");
        view.key(key(Keys.Kind.END), reordered);
        assertThat(view.selected()).isEqualTo("/usr/bin/b");
    }

    @Test
    void slashFiltersAndAFilterThatMatchesNothingSaysSo() {
        Snapshot s = snapshot(group("/usr/bin/sleep", 2, "", 0, 0, Double.NaN), group("/tmp/x/cache/tool", 9, "", 0, 0, Double.NaN));
        for (Keys.Key k : List.of(ch('/'), ch('t'), ch('o'), ch('o'), ch('l'), key(Keys.Kind.ENTER))) view.key(k, s);
        assertThat(view.filter()).isEqualTo("tool");
        assertThat(view.rows(s)).extracting(Group::command).containsExactly("/tmp/x/cache/tool");
        assertThat(view.frame(s, FRESH, Map.of(), 120, 30, false)).contains("> 9 ");
        assertThat(view.selected()).as("the selection moved to a row the filter shows").isEqualTo("/tmp/x/cache/tool");
        view.key(ch('/'), s);
        view.key(ch('z'), s);
        String frame = view.frame(s, FRESH, Map.of(), 120, 30, false);
        assertThat(frame).contains("No group matches \"toolz\"").doesNotContain("Waiting for the first scan");
        view.key(key(Keys.Kind.ESCAPE), s);
        assertThat(view.filter()).isEmpty();
        assertThat(view.rows(s)).hasSize(2);
    }

    @Test
    void kOpensTheStopOfTheSelectedGroupAndEscClosesIt() throws Exception {
        Snapshot s = snapshot(group("/usr/bin/a", 5, "", 0, 0, Double.NaN), group("/usr/bin/b", 3, "", 0, 0, Double.NaN));
        view.key(key(Keys.Kind.DOWN), s);
        view.key(ch('k'), s);
        assertThat(opened).containsExactly("/usr/bin/b");
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (view.stop().phase() == TerminalStop.Phase.PLANNING && System.nanoTime() < deadline) Thread.sleep(10);
        String frame = view.frame(s, FRESH, Map.of(), 120, 30, false);
        assertThat(frame).contains("GUIDED STOP  /usr/bin/b").contains("nothing matches /usr/bin/b any more");
        assertThat(view.key(ch('q'), s)).as("q closes the panel, it does not quit").isEqualTo(TopView.Outcome.NONE);
        assertThat(view.stop()).isNull();
        view.key(ch('k'), s);
        view.key(key(Keys.Kind.ESCAPE), s);
        assertThat(view.stop()).isNull();
        assertThat(view.key(ch('q'), s)).isEqualTo(TopView.Outcome.QUIT);
    }

    @Test
    void theFrameHasLocalTimeALegendTheDrillMarkerAndStatesAndCpu() {
        Group drill = group("/tmp/runaway-drill-pressing-25a9/cache/tool", 300, "/" + DRILL_CGROUP, 4, 2, 0.37);
        String frame = view.frame(snapshot(drill), FRESH, Map.of(DRILL_CGROUP, "drill-pressing-25a9"), 160, 30, false);
        assertThat(frame).contains("15:05:09").doesNotContain("2026-11-30T").doesNotContain(".123");
        assertThat(frame).contains("DRILL drill-pressing-25a9").contains("DRILL drill-pressing-25a9 /tmp/runaway-drill");
        assertThat(frame).contains("R recursive").contains("I parented to init").contains("the deepest N levels")
                .contains("T/Z: stopped, zombies");
        assertThat(frame).contains("4T 2Z").contains("37%");
        assertThat(frame.split("\r\n")).allSatisfy(line -> assertThat(line.length()).isLessThanOrEqualTo(160));
    }

    @Test
    void heldGroupsComeFirstMarkedHeldWithTheGuardsReasonAndHowToRelease() {
        Group quiet = group("/usr/bin/sleep", 900, "/user.slice", 0, 0, 0.0);
        Group held = group("/tmp/d/deploy.sh", 12, "/user.slice/app.scope", 12, 0, 0.0);
        view.held(Map.of(held.command(), new dev.runaway.guard.HeldGroup(held.command(), held.cgroup(), dev.runaway.guard.GuardRule.GROWING_RECURSION,
                "its command recurs 8 times along one line", WALL, "FREEZE_CGROUP", 12, 1000, false)));
        String frame = view.frame(snapshot(quiet, held), FRESH, Map.of(), 160, 30, false);
        assertThat(frame).contains("HELD /tmp/d/deploy.sh by the guard: its command recurs 8 times")
                .contains("runaway guard --release '/tmp/d/deploy.sh'");
        List<String> rows = java.util.Arrays.stream(frame.split("\r\n")).filter(l -> !l.contains("by the guard") && (l.contains("/usr/bin/sleep") || l.contains("HELD /tmp/d"))).toList();
        assertThat(rows.get(0)).as("over SSH the held group is the first row").contains("HELD /tmp/d/deploy.sh");
    }

    @Test
    @org.junit.jupiter.api.Tag("process") // the suggested release goes through a real sh, in a sandbox
    void aHostileHeldKeyIsShownEscapedAndItsReleasePastesBackExactly() throws Exception {
        String key = dev.runaway.sandbox.ShellRoundTrip.HOSTILE_KEY;
        Group held = group(key, 12, "/user.slice/app.scope", 12, 0, 0.0);
        view.held(Map.of(key, new dev.runaway.guard.HeldGroup(key, held.cgroup(), dev.runaway.guard.GuardRule.GROWING_RECURSION,
                "its command recurs 8 times along one line: " + key, WALL, "FREEZE_CGROUP", 12, 1000, false)));
        String frame = view.frame(snapshot(held), FRESH, Map.of(), 1000, 30, false);
        List<String> lines = List.of(frame.split("\r\n"));
        assertThat(lines).allSatisfy(l -> assertThat(l.chars().filter(c -> c < 0x20 || (c >= 0x7f && c <= 0x9f) || (c >= 0x2028 && c <= 0x202e)))
                .as(l).isEmpty());
        String line = lines.stream().filter(l -> l.contains("by the guard")).findFirst().orElseThrow();
        assertThat(line).startsWith("HELD " + dev.runaway.model.SafeText.terminal(key));
        String release = line.substring(line.indexOf("runaway guard --release "), line.lastIndexOf("; or select it"));
        assertThat(dev.runaway.sandbox.ShellRoundTrip.arguments(release, "runaway")).containsExactly("guard", "--release", key);
    }

    @Test
    void aLateScanIsSaidWithItsReason() {
        ScanStatus late = new ScanStatus(6.2, 5.9, 4.1, 5012, 3400, 2900, 2);
        String frame = view.frame(snapshot(group("/usr/bin/a", 1, "", 0, 0, Double.NaN)), late, Map.of(), 200, 30, false);
        assertThat(frame).contains("SCAN LATE: the table is 6.2 s old, a scan has run for 5.9 s; the last took 4.1 s for 5,012 processes")
                .contains("overloaded (2,900 tasks runnable on 2 cores");
        assertThat(FRESH.late()).isFalse();
        assertThat(new ScanStatus(Double.NaN, 3.0, Double.NaN, 0, 1, 1, 2).late()).isTrue();
    }

    @Test
    void commandLinesLeftUnreadAreSaidEvenWhenTheScansKeepUp() {
        ScanStatus unread = new ScanStatus(0.4, 0, 0.2, 20_112, 9000, 8000, 2, 19_870);
        String frame = view.frame(snapshot(group("/usr/bin/a", 1, "", 0, 0, Double.NaN)), unread, Map.of(), 200, 30, false);
        assertThat(unread.late()).isFalse();
        assertThat(unread.worthSaying()).isTrue();
        assertThat(frame).doesNotContain("SCAN LATE").contains("table 0.4 s old; command lines of 19,870 processes not read yet")
                .contains("grouped by executable until read");
        assertThat(FRESH.worthSaying()).isFalse();
        assertThat(FRESH.describe()).doesNotContain("command lines");
    }

    @Test
    void aGroupInANestedDrillSandboxIsMarked() {
        Group nested = group("/tmp/t", 3, "/runaway-sandbox.1.2.3.suite/" + DRILL_CGROUP + "/inner", 0, 0, Double.NaN);
        assertThat(TopView.drillOf(nested, Map.of(DRILL_CGROUP, "drill-x"))).isEqualTo("drill-x");
        assertThat(TopView.drillOf(group("/tmp/t", 3, "/" + DRILL_CGROUP + "-other", 0, 0, 0), Map.of(DRILL_CGROUP, "drill-x"))).isNull();
    }

    private static Group withChains(String command, int tasks, int chains) {
        List<dev.runaway.analysis.Chain> list = new ArrayList<>();
        for (int i = 0; i < chains; i++) {
            list.add(new dev.runaway.analysis.Chain(new dev.runaway.model.ProcessIdentity(1000 + i, 77), 3, 3,
                    List.of("/bin/sh", command, command), List.of(1000 + i, 2000 + i, 3000 + i)));
        }
        return new Group(command, tasks, list, true, false, List.of(), 1, tasks * 4096L,
                new GrowthFit(GrowthShape.STEADY, 0, 0), 0, OptionalDouble.empty(), "", List.of(), "", -1, -1,
                false, Optional.empty(), 0, false, 0, 0, 0.1);
    }

    @Test
    void f1AndQuestionMarkShowTheHelpAndAnyKeyClosesIt() {
        Snapshot s = snapshot(group("/usr/bin/a", 5, "", 0, 0, Double.NaN));
        view.key(key(Keys.Kind.F1), s);
        assertThat(view.frame(s, FRESH, Map.of(), 120, 40, false)).contains("KEYS").contains("F9  or k").contains("F10 or q")
                .doesNotContain("/usr/bin/a");
        assertThat(view.key(key(Keys.Kind.F10), s)).as("a key on the help closes it, it does not quit").isEqualTo(TopView.Outcome.NONE);
        assertThat(view.help()).isFalse();
        view.key(ch('?'), s);
        assertThat(view.help()).isTrue();
        view.key(key(Keys.Kind.ESCAPE), s);
        assertThat(view.frame(s, FRESH, Map.of(), 120, 40, false)).contains("/usr/bin/a");
    }

    @Test
    void f9OpensTheStopAndF10QuitsFromTheTableAndFromTheFilterButNotFromAStop() throws Exception {
        Snapshot s = snapshot(group("/usr/bin/a", 5, "", 0, 0, Double.NaN));
        view.key(key(Keys.Kind.F9), s);
        assertThat(opened).containsExactly("/usr/bin/a");
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (view.stop().phase() == TerminalStop.Phase.PLANNING && System.nanoTime() < deadline) Thread.sleep(10);
        assertThat(view.key(key(Keys.Kind.F10), s)).as("F10 on a stop closes it").isEqualTo(TopView.Outcome.NONE);
        assertThat(view.stop()).isNull();
        view.key(ch('/'), s);
        view.key(ch('a'), s);
        assertThat(view.key(key(Keys.Kind.F9), s)).isEqualTo(TopView.Outcome.NONE);
        assertThat(view.filter()).as("F9 is not typed into the filter, nor does it clear it").isEqualTo("a");
        assertThat(view.key(key(Keys.Kind.F10), s)).isEqualTo(TopView.Outcome.QUIT);
    }

    @Test
    void f5ShowsEachGroupsChainsFromTheWindowsChainRows() {
        Snapshot s = snapshot(withChains("/usr/bin/tool", 30, 5), group("/usr/bin/b", 3, "", 0, 0, Double.NaN));
        assertThat(view.frame(s, FRESH, Map.of(), 160, 40, false)).doesNotContain("chain from pid");
        view.key(key(Keys.Kind.F5), s);
        String frame = view.frame(s, FRESH, Map.of(), 160, 40, false);
        assertThat(frame).contains("├─ chain from pid 1000  (parented to init), depth 3, 3 tasks: /bin/sh > /usr/bin/tool > /usr/bin/tool")
                .contains("├─ chain from pid 1002").doesNotContain("chain from pid 1003")
                .contains("└─ … and 2 more chains").contains(", tree.");
        assertThat(frame.indexOf("/usr/bin/b")).as("the next group after the chains").isGreaterThan(frame.indexOf("more chains"));
        view.key(ch('t'), s);
        assertThat(view.tree()).isFalse();
    }

    @Test
    void f6AndAngleBracketsSortByTasksRateMemoryAndCpuLargestFirst() {
        Group small = group("/usr/bin/small", 2, "", 0, 0, 0.9);
        Group big = group("/usr/bin/big", 50, "", 0, 0, 0.1);
        Snapshot s = snapshot(small, big); // the analysis's severity order
        assertThat(view.rows(s)).extracting(Group::command).containsExactly("/usr/bin/small", "/usr/bin/big");
        view.key(key(Keys.Kind.F6), s);
        assertThat(view.sort()).isEqualTo(TopView.Sort.TASKS);
        assertThat(view.rows(s)).extracting(Group::command).containsExactly("/usr/bin/big", "/usr/bin/small");
        assertThat(view.frame(s, FRESH, Map.of(), 160, 40, false)).contains("by tasks");
        view.key(ch('>'), s);
        view.key(ch('>'), s);
        assertThat(view.sort()).isEqualTo(TopView.Sort.MEMORY);
        assertThat(view.rows(s)).extracting(Group::command).containsExactly("/usr/bin/big", "/usr/bin/small");
        view.key(ch('>'), s);
        assertThat(view.sort()).isEqualTo(TopView.Sort.CPU);
        assertThat(view.rows(s)).extracting(Group::command).containsExactly("/usr/bin/small", "/usr/bin/big");
        view.key(ch('<'), s);
        view.key(ch('<'), s);
        view.key(ch('<'), s);
        view.key(ch('<'), s);
        assertThat(view.sort()).isEqualTo(TopView.Sort.SEVERITY);
    }

    @Test
    void aClickOnARowSelectsItsGroupAndAClickElsewhereNothing() {
        Snapshot s = snapshot(group("/usr/bin/a", 5, "", 0, 0, Double.NaN), group("/usr/bin/b", 3, "", 0, 0, Double.NaN));
        String[] lines = view.frame(s, FRESH, Map.of(), 160, 40, false).split("\r\n");
        int rowOfB = 0;
        while (!lines[rowOfB].contains("/usr/bin/b")) rowOfB++;
        view.key(Keys.Key.click(rowOfB, 3), s);
        assertThat(view.selected()).isEqualTo("/usr/bin/b");
        view.key(Keys.Key.click(0, 3), s);
        assertThat(view.selected()).isEqualTo("/usr/bin/b");
        assertThat(view.frame(s, FRESH, Map.of(), 160, 40, false)).contains("> ").contains("/usr/bin/b");
    }
}
