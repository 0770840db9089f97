// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.analysis;

import dev.runaway.model.ProcessIdentity;
import dev.runaway.model.ProcessSample;
import dev.runaway.procfs.CgroupPids;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.OptionalDouble;
import java.util.function.IntFunction;

import static dev.runaway.analysis.Procs.MIB;
import static dev.runaway.analysis.Procs.proc;
import static dev.runaway.analysis.Procs.pulse;
import static dev.runaway.analysis.Procs.scan;
import static dev.runaway.analysis.Procs.with;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class AnalyzerTest {
    private static final String TOOL = "/tmp/tool";
    private static final String DEPLOY = "/d/deploy.sh";
    private static final String UNITTEST = "python3 -m unittest";

    @TempDir
    Path cgroupRoot;

    private Analyzer analyzer;

    @BeforeEach
    void setUp() {
        analyzer = new Analyzer(new CgroupPids(cgroupRoot));
    }

    private Snapshot analyze(double seconds, List<ProcessSample> processes) {
        return analyzer.analyze(scan(seconds, with(processes)), pulse(seconds, 500, 10_000));
    }

    private static Group group(Snapshot s, String command) {
        return s.groups().stream().filter(g -> g.command().equals(command)).findFirst()
                .orElseThrow(() -> new AssertionError("no group " + command + " in " + commands(s)));
    }

    private static List<String> commands(Snapshot s) {
        return s.groups().stream().map(Group::command).toList();
    }

    private static Chain chainOf(Group g, int pid) {
        return g.chains().stream().filter(c -> c.pids().contains(pid)).findFirst()
                .orElseThrow(() -> new AssertionError("no chain with " + pid + " in " + g.chains()));
    }

    /** An interactive shell 50 with a second child (60), so whatever else it starts heads a chain. */
    private static List<ProcessSample> shell() {
        List<ProcessSample> list = new ArrayList<>();
        list.add(proc(50, 1).exe("/usr/bin/bash").args("-bash").build());
        list.add(proc(60, 50).binary("/usr/bin/vim", "notes.txt").session(50).build());
        return list;
    }

    private static ProcessSample bashScript(int pid, int ppid, String script, int session) {
        return proc(pid, ppid).exe("/usr/bin/bash").args("bash", script).session(session).build();
    }

    private static ProcessSample unittest(int pid, int ppid, int session) {
        return proc(pid, ppid).exe("/usr/bin/python3").args("python3", "-m", "unittest").session(session).build();
    }

    // --- chains ---------------------------------------------------------------------------

    @Test
    void aProcessThatExecsMovesToItsNewCommandsGroupAndGoneProcessesAreForgotten() {
        List<ProcessSample> p = shell();
        p.add(proc(200, 50).binary(TOOL).session(50).build());
        analyze(0, p);
        List<ProcessSample> execed = shell();
        execed.add(proc(200, 50).exe("/usr/bin/bash").args("bash", DEPLOY).session(50).build()); // same identity, new program
        Snapshot after = analyze(1, execed);
        assertThat(commands(after)).contains(DEPLOY).doesNotContain(TOOL);

        Lineage lineage = new Lineage();
        for (int scan = 0; scan < 30; scan++) {
            List<ProcessSample> living = with(List.of(proc(1000 + scan, 1).binary(TOOL).build())); // one short-lived process a scan
            int[] keyOf = new int[living.size()];
            List<String> names = new ArrayList<>();
            for (int i = 0; i < living.size(); i++) {
                names.add(lineage.keyOf(living.get(i)));
                keyOf[i] = i;
            }
            lineage.update(living, PidIndex.of(living), keyOf, names);
        }
        assertThat(lineage.remembered()).as("what is remembered of processes long gone").isLessThanOrEqualTo(5 + 10);
    }

    @Test
    void anUnchangedChainIsTheSameObjectNextScanAndAChangedOneIsNew() {
        List<ProcessSample> p = shell();
        for (int pid = 200; pid < 205; pid++) p.add(proc(pid, 50).binary(TOOL).session(50).build()); // 5 one-process chains
        p.add(proc(300, 50).binary(TOOL).session(50).build());
        p.add(proc(301, 300).binary(TOOL).session(50).build());
        Snapshot first = analyze(0, p);
        Snapshot second = analyze(1, p);
        for (int pid = 200; pid < 205; pid++) assertThat(chainOf(group(second, TOOL), pid)).isSameAs(chainOf(group(first, TOOL), pid));
        assertThat(chainOf(group(second, TOOL), 300)).isSameAs(chainOf(group(first, TOOL), 300));

        List<ProcessSample> grown = new ArrayList<>(p);
        grown.add(proc(302, 301).binary(TOOL).session(50).build()); // the chain from 300 grows
        grown.removeIf(s -> s.pid() == 204);
        grown.add(proc(204, 50).binary(TOOL).session(50).start(777).build()); // pid 204 reused: another process
        grown.removeIf(s -> s.pid() == 203);
        grown.add(proc(203, 50).binary(TOOL).session(50).threads(3).build()); // more threads: more tasks
        Snapshot third = analyze(2, grown);

        Group tool = group(third, TOOL);
        assertThat(chainOf(tool, 300)).isNotSameAs(chainOf(group(second, TOOL), 300));
        assertThat(chainOf(tool, 300).pids()).containsExactly(300, 301, 302);
        assertThat(chainOf(tool, 204)).isNotSameAs(chainOf(group(second, TOOL), 204));
        assertThat(chainOf(tool, 204).root().startTicks()).isEqualTo(777);
        assertThat(chainOf(tool, 203)).isNotSameAs(chainOf(group(second, TOOL), 203));
        assertThat(chainOf(tool, 203).tasks()).isEqualTo(3);
        for (int pid = 200; pid < 203; pid++) assertThat(chainOf(tool, pid)).isSameAs(chainOf(group(first, TOOL), pid));
        assertThat(tool.pids()).containsExactlyInAnyOrder(200, 201, 202, 203, 204, 300, 301, 302);
    }


    @Test
    void linearChainIsOneChainFromItsHeadDown() {
        List<ProcessSample> p = shell();
        p.add(bashScript(100, 50, "/tmp/run.sh", 50));
        for (int pid = 101; pid <= 105; pid++) p.add(proc(pid, pid - 1).binary(TOOL, "--level").session(50).build());

        Group tool = group(analyze(0, p), TOOL);

        assertThat(tool.tasks()).isEqualTo(5);
        assertThat(tool.pids()).containsExactlyInAnyOrder(101, 102, 103, 104, 105);
        assertThat(tool.chains()).hasSize(1);
        Chain chain = chainOf(tool, 101);
        assertThat(chain.rootPid()).isEqualTo(100);
        assertThat(chain.pids()).containsExactly(100, 101, 102, 103, 104, 105);
        assertThat(chain.depth()).isEqualTo(chain.pids().size());
        assertThat(chain.commands()).containsExactly("/tmp/run.sh", TOOL);
        assertThat(tool.parentedToInit()).isFalse();
    }

    // --- target sets ------------------------------------------------------------------------

    @Test
    void targetsAreTheMembersTheirDescendantsAndAnExclusiveCgroup() {
        List<ProcessSample> p = shell();
        p.add(bashScript(100, 50, "/tmp/run.sh", 50));
        p.add(proc(101, 100).binary(TOOL).session(50).cgroup("/sbx").build());
        p.add(proc(102, 101).binary(TOOL).session(50).cgroup("/sbx").build());
        p.add(proc(103, 102).binary("/usr/bin/sleep", "60").session(50).cgroup("/sbx").build()); // a child of another kind
        analyze(0, p);

        TargetSet targets = analyzer.targets(TOOL);
        assertThat(targets.processes()).extracting(ProcessIdentity::pid).containsExactlyInAnyOrder(101, 102, 103);
        assertThat(targets.processes()).as("never the parent that started them").extracting(ProcessIdentity::pid)
                .doesNotContain(100, 50);
        assertThat(targets.cgroup()).contains("/sbx");
    }

    @Test
    void aSharedCgroupIsNotATarget() {
        List<ProcessSample> p = shell();
        p.add(proc(101, 50).binary(TOOL).session(50).build()); // /user.slice, shared with the shell
        analyze(0, p);
        TargetSet targets = analyzer.targets(TOOL);
        assertThat(targets.processes()).extracting(ProcessIdentity::pid).containsExactly(101);
        assertThat(targets.cgroup()).isEmpty();
    }

    @Test
    void targetsFollowAChainThroughAnExitedParent() {
        List<ProcessSample> first = new ArrayList<>();
        first.add(proc(200, 1).binary("/usr/bin/make").build());
        first.add(proc(201, 200).binary(TOOL).session(200).build());
        first.add(proc(202, 201).binary("/usr/bin/sleep").session(200).build());
        analyze(0, first);
        List<ProcessSample> second = new ArrayList<>();
        second.add(proc(200, 1).binary("/usr/bin/make").build());
        second.add(proc(203, 1).binary(TOOL).session(200).build());
        second.add(proc(202, 1).binary("/usr/bin/sleep").session(200).build()); // 201 exited; init has 202
        analyze(0.5, second);
        assertThat(analyzer.targets(TOOL).processes()).extracting(ProcessIdentity::pid).containsExactlyInAnyOrder(203);
        assertThat(analyzer.targets("/usr/bin/sleep").processes()).extracting(ProcessIdentity::pid).containsExactly(202);
    }

    @Test
    void noTargetsBeforeTheFirstScan() {
        assertThat(analyzer.targets(TOOL).processes()).isEmpty();
    }

    @Test
    void toolCallingItselfIsRecursive() {
        List<ProcessSample> p = shell();
        p.add(bashScript(100, 50, "/tmp/run.sh", 50));
        for (int pid = 101; pid <= 105; pid++) p.add(proc(pid, pid - 1).binary(TOOL).session(50).build());

        Group tool = group(analyze(0, p), TOOL);

        assertThat(tool.recursive()).isTrue();
        assertThat(tool.repeats()).isEqualTo(5);
        assertThat(tool.cycle()).containsExactly(TOOL, TOOL);
    }

    @Test
    void chainRunsThroughAnExitedParentAfterReparenting() {
        List<ProcessSample> first = new ArrayList<>();
        first.add(proc(200, 1).binary("/usr/bin/make", "-j8").build());
        first.add(proc(201, 200).binary(TOOL).session(200).build());
        first.add(proc(202, 201).binary(TOOL).session(200).build());
        Snapshot one = analyze(0, first);
        assertThat(chainOf(group(one, TOOL), 202).pids()).containsExactly(200, 201, 202);
        assertThat(group(one, TOOL).parentedToInit()).as("make, alive, is the first tool's parent").isFalse();

        List<ProcessSample> second = new ArrayList<>();
        second.add(proc(200, 1).binary("/usr/bin/make", "-j8").build());
        second.add(proc(202, 1).binary(TOOL).session(200).build()); // 201 exited: init adopted 202
        Snapshot two = analyze(0.5, second);

        Group tool = group(two, TOOL);
        assertThat(tool.tasks()).isEqualTo(1);
        assertThat(tool.parentedToInit()).isTrue();
        assertThat(chainOf(tool, 202).pids()).containsExactly(200, 202);
        assertThat(chainOf(tool, 202).rootPid()).isEqualTo(200);
    }

    @Test
    void orphansFirstSeenUnderInitAreChainedBySession() {
        List<ProcessSample> p = new ArrayList<>();
        for (int leader : new int[] {400, 500, 600}) {
            for (int i = 1; i <= 4; i++) {
                p.add(proc(leader + i, 1).binary("/tmp/cache/tool", "--warm").session(leader).pgrp(leader).build());
            }
        }

        Group g = group(analyze(0, p), "/tmp/cache/tool");

        assertThat(g.tasks()).isEqualTo(12);
        assertThat(g.parentedToInit()).isTrue();
        assertThat(g.chains()).hasSize(3);
        assertThat(g.chains()).allSatisfy(c -> assertThat(c.depth()).isEqualTo(4));
        assertThat(chainOf(g, 501).pids()).containsExactlyInAnyOrder(501, 502, 503, 504);
    }

    // --- recursion ------------------------------------------------------------------------

    /** deploy.sh runs the tests, a test runs deploy.sh: four levels of each, from pid 300. */
    private static List<ProcessSample> deployLoop() {
        List<ProcessSample> p = shell();
        int parent = 50;
        for (int pid = 300; pid <= 306; pid += 2) {
            p.add(bashScript(pid, parent, DEPLOY, 50));
            p.add(unittest(pid + 1, pid, 50));
            parent = pid + 1;
        }
        return p;
    }

    @Test
    void recursionThroughTwoInterpretersShowsTheCycle() {
        List<ProcessSample> p = deployLoop();

        Group deploy = group(analyze(0, p), DEPLOY);

        assertThat(deploy.recursive()).isTrue();
        assertThat(deploy.cycle()).containsExactly(DEPLOY, UNITTEST, DEPLOY);
        assertThat(deploy.repeats()).isEqualTo(4);
    }

    @Test
    void recursionThroughTwoInterpretersIsSeenFromTheDeepestMemberToo() {
        List<ProcessSample> p = deployLoop();

        Group tests = group(analyze(0, p), UNITTEST);

        assertThat(tests.recursive()).isTrue();
        assertThat(tests.cycle()).containsExactly(UNITTEST, DEPLOY, UNITTEST);
        assertThat(tests.repeats()).isEqualTo(4);
    }

    @Test
    void aForkCaughtBeforeItsExecIsNotAnotherOccurrence() {
        List<ProcessSample> p = deployLoop();
        // The deepest deploy.sh's bash has forked to run python3 and is caught before the exec:
        // the child still shows deploy.sh's command line (a flaky DrillAnalysisTest saw this).
        p.add(proc(308, 306).exe("/usr/bin/bash").args("bash", DEPLOY).session(50).forkNoExec().build());
        p.add(proc(320, 50).exe("/usr/bin/bash").args("bash", DEPLOY).session(50).build());

        Group deploy = group(analyze(0, p), DEPLOY);

        assertThat(deploy.cycle()).containsExactly(DEPLOY, UNITTEST, DEPLOY);
        assertThat(deploy.repeats()).isEqualTo(4);
        assertThat(deploy.tasks()).as("the fork is still one of the group's processes").isEqualTo(6);
    }

    @Test
    void forksThatForkAgainStillCountAsOccurrences() {
        // A fork bomb's levels (or nested subshells) never exec: each one that has children counts.
        List<ProcessSample> p = shell();
        for (int pid = 400; pid <= 404; pid++) {
            var b = proc(pid, pid == 400 ? 50 : pid - 1).exe("/usr/bin/bash").args("bash", "/d/bomb.sh").session(50);
            p.add((pid == 400 ? b : b.forkNoExec()).build());
        }

        Group bomb = group(analyze(0, p), "/d/bomb.sh");

        assertThat(bomb.repeats()).as("the leaf is its parent's program; the four above it count").isEqualTo(4);
        assertThat(bomb.recursive()).isTrue();
        assertThat(bomb.cycle()).containsExactly("/d/bomb.sh", "/d/bomb.sh");
    }

    @Test
    void twoLevelsOfTheSameScriptAreNotRecursive() {
        List<ProcessSample> p = shell();
        p.add(bashScript(310, 50, "/d/x.sh", 50));
        p.add(bashScript(311, 310, "/d/x.sh", 50));

        Group x = group(analyze(0, p), "/d/x.sh");

        assertThat(x.recursive()).isFalse();
        assertThat(x.repeats()).isEqualTo(2);
    }

    @Test
    void threeLevelsOfTheSameScriptAreWhatAWrapperDoesAndFourAreRecursive() {
        List<ProcessSample> p = shell();
        p.add(bashScript(310, 50, "/d/x.sh", 50));
        p.add(bashScript(311, 310, "/d/x.sh", 50));
        p.add(bashScript(312, 311, "/d/x.sh", 50));

        Group wrapper = group(analyze(0, p), "/d/x.sh");
        assertThat(wrapper.recursive()).as("a shim or a self-re-executing launcher").isFalse();
        assertThat(wrapper.repeats()).isEqualTo(3);

        p.add(bashScript(313, 312, "/d/x.sh", 50));
        Group x = group(analyze(0.5, p), "/d/x.sh");
        assertThat(x.recursive()).isTrue();
        assertThat(x.repeats()).isEqualTo(4);
        assertThat(x.cycle()).containsExactly("/d/x.sh", "/d/x.sh");
    }

    @Test
    void aRepetitionThatKeepsGrowingIsRecursiveAtThree() {
        List<ProcessSample> p = shell();
        p.add(bashScript(310, 50, "/d/x.sh", 50));
        analyze(0, p);
        p.add(bashScript(311, 310, "/d/x.sh", 50));
        assertThat(group(analyze(0.5, p), "/d/x.sh").recursive()).isFalse();
        p.add(bashScript(312, 311, "/d/x.sh", 50));

        Group x = group(analyze(1, p), "/d/x.sh");

        assertThat(x.repeats()).isEqualTo(3);
        assertThat(x.recursive()).as("it rose at two scans in a row").isTrue();
    }

    @Test
    void aDeepMakeDescendingIntoDirectoriesIsNotRecursionAtAnyPaceButBeyondThirtyLevelsAnyCommandIs() {
        List<ProcessSample> p = shell();
        p.add(proc(400, 50).binary("/usr/bin/make", "all").session(50).build());
        analyze(0, p);
        for (int level = 1; level <= 11; level++) { // one level deeper every scan: still deepening
            p.add(proc(400 + level, 399 + level).binary("/usr/bin/make", "-C", "lib" + level).session(50).build());
            Group make = group(analyze(0.5 * level, p), "/usr/bin/make");
            assertThat(make.repeats()).isEqualTo(level + 1);
            assertThat(make.identicalRepeats()).isEqualTo(1);
            assertThat(make.recursive()).as("make -C lib%d: another directory each level", level).isFalse();
        }

        for (int level = 12; level <= Analyzer.DEEPER_THAN_BUILDS - 1; level++) {
            p.add(proc(400 + level, 399 + level).binary("/usr/bin/make", "-C", "lib" + level).session(50).build());
        }
        Group thirty = group(analyze(10, p), "/usr/bin/make");
        assertThat(thirty.repeats()).isEqualTo(Analyzer.DEEPER_THAN_BUILDS);
        assertThat(thirty.recursive()).as("as deep as builds go").isFalse();

        p.add(proc(400 + Analyzer.DEEPER_THAN_BUILDS, 399 + Analyzer.DEEPER_THAN_BUILDS)
                .binary("/usr/bin/make", "-C", "lib" + Analyzer.DEEPER_THAN_BUILDS).session(50).build());
        Group deeper = group(analyze(10.5, p), "/usr/bin/make");
        assertThat(deeper.repeats()).isEqualTo(Analyzer.DEEPER_THAN_BUILDS + 1);
        assertThat(deeper.recursive()).as("deeper than builds go, whatever its arguments").isTrue();
    }

    @Test
    void fourLevelsOfOneInvocationAreRecursionWhereFourOfOneScriptWithOtherArgumentsAreNot() {
        List<ProcessSample> p = shell();
        for (int level = 0; level < 4; level++) {
            p.add(proc(320 + level, level == 0 ? 50 : 319 + level).exe("/usr/bin/bash").args("bash", "/d/x.sh", "step" + level)
                    .session(50).build());
        }
        Group steps = group(analyze(0, p), "/d/x.sh");
        assertThat(steps.repeats()).isEqualTo(4);
        assertThat(steps.recursive()).as("x.sh step0 .. step3: a bounded descent").isFalse();

        for (int level = 0; level < 4; level++) p.add(bashScript(330 + level, level == 0 ? 50 : 329 + level, "/d/y.sh", 50));
        Group same = group(analyze(0.5, p), "/d/y.sh");
        assertThat(same.identicalRepeats()).isEqualTo(4);
        assertThat(same.recursive()).as("y.sh four times with the same words, in the same directory").isTrue();
    }

    @Test
    void subshellsThatNestAndUnnestAreNotGrowingRecursion() {
        List<ProcessSample> p = shell();
        p.add(bashScript(310, 50, "/d/x.sh", 50));
        p.add(bashScript(311, 310, "/d/x.sh", 50));
        analyze(0, p);
        p.add(bashScript(312, 311, "/d/x.sh", 50));
        analyze(0.5, p);
        p.remove(p.size() - 1);
        analyze(1, p); // back to 2
        p.add(bashScript(313, 311, "/d/x.sh", 50));

        Group x = group(analyze(1.5, p), "/d/x.sh");

        assertThat(x.repeats()).isEqualTo(3);
        assertThat(x.recursive()).as("up, down, up: a shell's pipelines, not a loop").isFalse();
    }

    // --- where no session is known (a PID namespace's leader outside it: session 0) -----------

    @Test
    void withNoSessionKnownTheConsolesSessionSandboxIsStillTheWorkloadAndInlineCodeIsKeyedByChain() {
        int console = HIGH + 77;
        analyzer.selfPid(console);
        List<ProcessSample> p = new ArrayList<>();
        p.add(proc(1, 0).exe("/usr/bin/tini").args("tini", "--").session(0).cgroup("/").build());
        p.add(proc(console, 1).exe("/usr/lib/jvm/java-17/bin/java").args("java", "-jar", "runaway.jar").session(0).cgroup("/").build());
        p.add(proc(console + 1, console).binary("/opt/runaway/runaway-stat-reader").session(0).cgroup("/").build());
        // Its drill without a writable cgroup leads a new session: that one is known, and not the console's.
        p.add(proc(console + 20, console).binary("/tmp/drill/session-worker").session(console + 20).cgroup("/").build());
        // Two unrelated inline shells, each the top of a chain under init, neither cgroup nor session to scope them.
        p.add(proc(HIGH + 300, 1).exe("/usr/bin/bash").args("bash", "-c", "make test").session(0).cgroup("/").build());
        p.add(proc(HIGH + 301, HIGH + 300).exe("/usr/bin/bash").args("bash", "-c", "./run").session(0).cgroup("/").build());
        p.add(proc(HIGH + 400, 1).exe("/usr/bin/bash").args("bash", "-c", "deploy").session(0).cgroup("/").build());
        analyze(0, p);
        Snapshot s = analyze(0.5, p);

        assertThat(group(s, "this console").pids()).containsExactlyInAnyOrder(console, console + 1);
        assertThat(group(s, "/tmp/drill/session-worker").self()).as("a session that leads here is not the console's unknown one").isFalse();
        assertThat(group(s, "bash -c in chain " + (HIGH + 300)).pids()).containsExactlyInAnyOrder(HIGH + 300, HIGH + 301);
        assertThat(group(s, "bash -c in chain " + (HIGH + 400)).pids()).containsExactly(HIGH + 400);
        assertThat(s.groups()).extracting(Group::command).doesNotContain("bash -c");
    }

    // --- this console ------------------------------------------------------------------------

    @Test
    void theConsolesOwnProcessesAreOneGroupNeverOrphansOrRecursion() {
        int console = HIGH + 77;
        analyzer.selfPid(console);
        String owner = console + ":" + (10_000L + console); // pid:start, as the sandbox passes it
        List<ProcessSample> p = shell();
        p.add(proc(console, 50).exe("/usr/lib/jvm/java-17/bin/java").args("java", "-jar", "/opt/runaway/runaway.jar", "console")
                .session(50).build());
        p.add(proc(console + 1, console).binary("/opt/runaway/runaway-stat-reader").session(50).build());
        // Watchdogs detach to init on purpose; one re-runs itself from a memfd.
        p.add(proc(console + 2, 1).exe("/memfd:sealed-1 (deleted)").args("/dev/fd/3", "watch", "--owner", owner)
                .session(console + 2).build());
        p.add(proc(console + 3, console + 2).exe("/memfd:sealed-1 (deleted)").args("/dev/fd/3", "watch", "--owner", owner)
                .session(console + 2).build());
        p.add(proc(console + 4, console + 3).exe("/memfd:sealed-1 (deleted)").args("/dev/fd/3", "watch", "--owner", owner)
                .session(console + 2).build());
        p.add(proc(console + 5, console + 4).exe("/memfd:sealed-1 (deleted)").args("/dev/fd/3", "watch", "--owner", owner)
                .session(console + 2).build());
        // A drill it started, in its own sandbox's cgroup: the workload, not the console.
        p.add(proc(console + 10, console).binary("/tmp/drill/worker").cgroup("/runaway-sandbox.1.2.3.drill").session(50).build());
        // A drill it started without a writable cgroup: in its cgroup, but leading a session of its own.
        p.add(proc(console + 20, console).binary("/tmp/drill/session-worker").session(console + 20).build());
        p.add(proc(console + 21, console + 20).binary("/tmp/drill/session-worker").session(console + 20).build());
        // Another user's watchdog is not ours.
        p.add(proc(HIGH + 500, 1).binary("/opt/other/watch", "--owner", "1:0").session(HIGH + 500).build());
        // Ours are known by what the console started (pid and start time, recorded then), not by their arguments.
        analyzer.watchdogs(Set.of(new ProcessIdentity(console + 2, 10_000L + console + 2), new ProcessIdentity(console + 3, 10_000L + console + 3),
                new ProcessIdentity(console + 4, 10_000L + console + 4), new ProcessIdentity(console + 5, 10_000L + console + 5)));
        analyze(0, p);
        Snapshot s = analyze(0.5, p);

        Group self = group(s, "this console");
        assertThat(self.self()).isTrue();
        assertThat(self.pids()).containsExactlyInAnyOrder(console, console + 1, console + 2, console + 3, console + 4, console + 5);
        assertThat(self.parentedToInit()).isFalse();
        assertThat(self.recursive()).isFalse();
        assertThat(group(s, "/tmp/drill/worker").self()).isFalse();
        assertThat(group(s, "/tmp/drill/session-worker").self()).as("a session sandbox's workload").isFalse();
        assertThat(group(s, "/tmp/drill/session-worker").pids()).containsExactlyInAnyOrder(console + 20, console + 21);
        assertThat(group(s, "/opt/other/watch").self()).isFalse();
        assertThat(s.groups().get(s.groups().size() - 1).command()).as("never above anyone's").isEqualTo("this console");
    }

    @Test
    void aRunawayWhoseArgumentsNameTheConsoleAsOwnerIsNotTheConsoles() {
        int console = HIGH + 77;
        analyzer.selfPid(console);
        analyzer.watchdogs(Set.of());
        String owner = console + ":" + (10_000L + console); // the console's very pid:start, as its watchdogs carried it
        List<ProcessSample> p = shell();
        p.add(proc(console, 50).exe("/usr/lib/jvm/java-17/bin/java").args("java", "-jar", "/opt/runaway/runaway.jar", "guard")
                .session(50).build());
        // A user's recursion, every level carrying the argument, detached to init as a watchdog is.
        for (int d = 0; d < 8; d++) {
            p.add(proc(HIGH + 600 + d, d == 0 ? 1 : HIGH + 599 + d).exe("/bin/bash").args("bash", "/tmp/u/tool.sh", "watch", "--owner", owner)
                    .cgroup("/user.slice/user-1000.slice/session-3.scope").session(HIGH + 600).build());
        }
        analyze(0, p);
        Snapshot s = analyze(0.5, p);
        Group tool = group(s, "/tmp/u/tool.sh");
        assertThat(tool.self()).as("shown as a group of its own").isFalse();
        assertThat(tool.pids()).hasSize(8);
        assertThat(tool.recursive()).isTrue();
        assertThat(group(s, "this console").pids()).containsExactly(console);
    }

    // --- growth and exhaustion -------------------------------------------------------------

    /**
     * Above any real pid (PID_MAX_LIMIT is 2^22), so never this JVM's own pid: the analyzer
     * exempts the group holding its own process from exhaustion.
     */
    private static final int HIGH = 5_000_000;

    /** {@code count} children of make (pid 900) running {@code command}, 1 MiB each. */
    private static List<ProcessSample> workers(String command, int firstPid, int count, String cgroup) {
        List<ProcessSample> p = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            p.add(proc(HIGH + firstPid + i, 900).binary(command).session(900).cgroup(cgroup).rss(MIB).build());
        }
        return p;
    }

    private static ProcessSample make() {
        return proc(900, 1).binary("/usr/bin/make").build();
    }

    /** 21 scans, one every 0.1 s over 2 s; returns the last snapshot. */
    private Snapshot series(IntFunction<List<ProcessSample>> scanI, int tasks, int pidMax) {
        Snapshot last = null;
        for (int i = 0; i <= 20; i++) {
            double t = 0.1 * i;
            last = analyzer.analyze(scan(t, with(scanI.apply(i))),
                    pulse(t, tasks, 10_000 + 30L * i, pidMax, Procs.THREADS_MAX, 8 * Procs.GIB));
        }
        return last;
    }

    private static List<ProcessSample> growing(int i, String cgroup) {
        List<ProcessSample> p = new ArrayList<>();
        p.add(make());
        p.addAll(workers(TOOL, 1000, 10 + 3 * i, cgroup));
        return p;
    }

    @Test
    void groupGrowingThreeEveryTenthOfASecondIsLinearAtThirtyPerSecond() {
        Snapshot s = series(i -> growing(i, "/user.slice"), 1000, Procs.PID_MAX);

        Group tool = group(s, TOOL);
        assertThat(tool.tasks()).isEqualTo(70);
        assertThat(tool.tasksGrowth().shape()).isEqualTo(GrowthShape.LINEAR);
        assertThat(tool.tasksGrowth().perSecond()).isCloseTo(30, within(0.5));
        assertThat(tool.bytesPerSecond()).isCloseTo(30.0 * MIB, within(0.01 * MIB));
    }

    @Test
    void groupAtAConstantCountIsSteadyAndHeadsNowhere() {
        Snapshot s = series(i -> {
            List<ProcessSample> p = new ArrayList<>();
            p.add(make());
            p.addAll(workers(TOOL, 1000, 40, "/user.slice"));
            return p;
        }, 1000, Procs.PID_MAX);

        Group tool = group(s, TOOL);
        assertThat(tool.tasksGrowth().shape()).isEqualTo(GrowthShape.STEADY);
        assertThat(tool.secondsToExhaustion()).isEmpty();
        assertThat(tool.exhaustedBy()).isEmpty();
    }

    @Test
    void linearGrowthRunsIntoPidMax() {
        Snapshot s = series(i -> growing(i, "/user.slice"), 1000, 1300);

        Group tool = group(s, TOOL);
        assertThat(tool.exhaustedBy()).isEqualTo("pid_max");
        assertThat(tool.secondsToExhaustion()).isPresent();
        assertThat(tool.secondsToExhaustion().getAsDouble()).isCloseTo(10, within(1.0));
    }

    @Test
    void nearerCgroupCapIsPidsMax() throws IOException {
        Path sbx = Files.createDirectories(cgroupRoot.resolve("unified/sbx"));
        Files.writeString(sbx.resolve("pids.max"), "100\n");
        Files.writeString(sbx.resolve("pids.current"), "40\n");

        Snapshot s = series(i -> growing(i, "/sbx"), 1000, Procs.PID_MAX);

        Group tool = group(s, TOOL);
        assertThat(tool.exhaustedBy()).isEqualTo("pids.max");
        assertThat(tool.secondsToExhaustion().getAsDouble()).isCloseTo(2, within(0.2));
    }

    @Test
    void uncappedCgroupDoesNotCount() throws IOException {
        Path sbx = Files.createDirectories(cgroupRoot.resolve("unified/sbx"));
        Files.writeString(sbx.resolve("pids.max"), "max\n");
        Files.writeString(sbx.resolve("pids.current"), "40\n");

        Snapshot s = series(i -> growing(i, "/sbx"), 1000, 1300);

        assertThat(group(s, TOOL).exhaustedBy()).isEqualTo("pid_max");
    }

    @Test
    void memoryGrowthAtASteadyCountRunsIntoMemory() {
        Snapshot last = null;
        for (int i = 0; i <= 20; i++) {
            double t = 0.1 * i;
            List<ProcessSample> p = new ArrayList<>();
            p.add(make());
            for (int k = 0; k < 5; k++) {
                p.add(proc(HIGH + 1000 + k, 900).binary("/tmp/hog").session(900).rss((long) (t * 20 * MIB) + MIB).build());
            }
            last = analyzer.analyze(scan(t, with(p)), pulse(t, 1000, 10_000, Procs.PID_MAX, Procs.THREADS_MAX, Procs.GIB));
        }

        Group hog = group(last, "/tmp/hog");
        assertThat(hog.tasksGrowth().shape()).isEqualTo(GrowthShape.STEADY);
        assertThat(hog.bytesPerSecond()).isCloseTo(100.0 * MIB, within(0.5 * MIB));
        assertThat(hog.exhaustedBy()).isEqualTo("memory");
        assertThat(hog.secondsToExhaustion().getAsDouble()).isCloseTo(1024.0 / 100, within(0.2));
    }

    @Test
    void slowMemoryGrowthIsNoise() {
        Snapshot last = null;
        for (int i = 0; i <= 20; i++) {
            double t = 0.1 * i;
            List<ProcessSample> p = new ArrayList<>();
            p.add(make());
            p.add(proc(HIGH + 1000, 900).binary("/tmp/jvm").session(900).rss((long) (t * MIB / 2) + 100 * MIB).build());
            last = analyzer.analyze(scan(t, with(p)), pulse(t, 1000, 10_000, Procs.PID_MAX, Procs.THREADS_MAX, Procs.GIB));
        }

        Group jvm = group(last, "/tmp/jvm");
        assertThat(jvm.secondsToExhaustion()).isEmpty();
        assertThat(jvm.exhaustedBy()).isEmpty();
    }

    @Test
    void theConsoleItselfIsItsOwnGroupNeverHeadingForExhaustion() {
        int self = (int) ProcessHandle.current().pid();
        Snapshot s = series(i -> {
            List<ProcessSample> p = growing(i, "/user.slice");
            p.add(proc(self, 900).binary(TOOL).session(900).rss(MIB).build());
            return p;
        }, 1000, 1300);

        Group console = group(s, "this console");
        assertThat(console.pids()).containsExactly(self);
        assertThat(console.self()).isTrue();
        assertThat(console.secondsToExhaustion()).isEmpty();
        assertThat(group(s, TOOL).pids()).doesNotContain(self);
    }

    @Test
    void groupsAreSortedSoonestExhaustionFirst() {
        Snapshot s = series(i -> {
            List<ProcessSample> p = new ArrayList<>();
            p.add(make());
            p.addAll(workers("/tmp/steady", 5000, 50, "/user.slice"));
            p.addAll(workers("/tmp/slow", 1000, 10 + 3 * i, "/user.slice"));   // 30/s: 10 s
            p.addAll(workers("/tmp/fast", 2000, 10 + 6 * i, "/user.slice"));   // 60/s: 5 s
            return p;
        }, 1000, 1300);

        assertThat(commands(s)).startsWith("/tmp/fast", "/tmp/slow");
        List<OptionalDouble> times = s.groups().stream().map(Group::secondsToExhaustion).toList();
        assertThat(times.get(0).getAsDouble()).isCloseTo(5, within(0.5));
        assertThat(times.get(1).getAsDouble()).isCloseTo(10, within(1.0));
        assertThat(times.subList(2, times.size())).allSatisfy(t -> assertThat(t).isEmpty());
    }

    // --- what is not a group, and malformed tables -------------------------------------------

    @Test
    void kernelThreadsAndInitAreInNoGroup() {
        List<ProcessSample> p = shell();
        p.add(proc(70, 2).comm("kworker/u8:3").session(0).build());

        Snapshot s = analyze(0, p);

        assertThat(s.processes()).isEqualTo(7);
        assertThat(s.groups()).flatExtracting(Group::pids).doesNotContain(1, 2, 3, 4, 70);
        assertThat(commands(s)).noneMatch(c -> c.startsWith("["));
        assertThat(commands(s)).containsExactlyInAnyOrder("/usr/bin/bash", "/usr/bin/vim");
    }

    @Test
    @Timeout(5)
    void processThatIsItsOwnParentIsARoot() {
        List<ProcessSample> p = new ArrayList<>();
        p.add(proc(700, 700).binary("/tmp/odd").build());
        p.add(proc(701, 700).binary("/tmp/odd").session(700).build());

        analyze(0, p);
        Snapshot s = analyze(0.5, p);

        Group odd = group(s, "/tmp/odd");
        assertThat(odd.tasks()).isEqualTo(2);
        assertThat(chainOf(odd, 701).rootPid()).isEqualTo(700);
        assertThat(chainOf(odd, 701).pids()).containsExactly(700, 701);
    }

    @Test
    @Timeout(5)
    void parentCycleDoesNotHang() {
        List<ProcessSample> p = new ArrayList<>();
        p.add(proc(710, 711).binary("/tmp/loop").build());
        p.add(proc(711, 710).binary("/tmp/loop").build());

        analyze(0, p);
        Snapshot s = analyze(0.5, p);

        assertThat(group(s, "/tmp/loop").tasks()).isEqualTo(2);
    }

    @Test
    void forksPerSecondComesFromConsecutivePulses() {
        Snapshot first = analyzer.analyze(scan(0, with(List.of())), pulse(0, 500, 10_000));
        Snapshot second = analyzer.analyze(scan(0.5, with(List.of())), pulse(0.5, 500, 10_100));

        assertThat(first.forksPerSecond()).isZero();
        assertThat(second.forksPerSecond()).isCloseTo(200, within(1e-9));
    }
}
