// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.guard;

import dev.runaway.analysis.LiveAnalysis;
import dev.runaway.drill.Drill;
import dev.runaway.drill.Drills;
import dev.runaway.drill.Scenario;
import dev.runaway.procfs.PulseReader;
import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import dev.runaway.stop.act.Actuator;
import dev.runaway.stop.plan.Disposable;
import dev.runaway.stop.StopCore;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * No false holds: with the default policy watching, a real parallel build ({@code make -j8} of
 * this repository's C programs, compiled again and again), a burst of 2,000 short-lived {@code
 * /bin/true} processes and a run of this repository's unit tests (Maven and its forked JVM) are
 * never held; then a guard of the same policy holds the recursive drill (the control: the policy does see a runaway).
 * Then the deep and wide work users run beside it, each under its own guard: a kernel-style
 * recursive make nine levels deep (make[8], each level compiling before it descends), nested
 * {@code npm run} nine packages deep, {@code git submodule foreach --recursive} over submodules
 * seven deep, and a browser-like pool of 150 children replaced continuously beside {@code xargs -P
 * 64} over 3,000 short jobs: nothing held. The seed shapes as controls: the recursive and linear
 * drills (the second incident's loop) held before they use a tenth of the machine's memory, the
 * orphans drill (the first incident's chains parented to init) before 1,000 processes.
 */
@Tag("process")
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class GuardOrdinaryWorkTest {
    private static final Path PROC = Path.of("/proc");

    @Test
    void aBuildABurstAndATestSuiteAreNeverHeldAndARunawayBesideThemIs(@TempDir Path dir) throws Exception {
        assumeTrue(new com.sun.security.auth.module.UnixSystem().getUid() == 0, "the guard holds as root");
        String before = System.getProperty("runaway.guard.dir");
        System.setProperty("runaway.guard.dir", dir.resolve("guard").toString());
        StringWriter journal = new StringWriter();
        List<String> everHeld = new CopyOnWriteArrayList<>();
        try (LiveAnalysis live = LiveAnalysis.live().start();
             Sandbox work = Sandboxes.create(SandboxSpec.of("test-guard-ordinary", 1024))) {
            live.awaitLatest();
            String cgroup = cgroupOf(work.start(new ProcessBuilder("sleep", "600")).pid());
            StopCore core = new StopCore(PROC, PulseReader.live(), new Actuator(PROC, forStop -> null), Disposable.forThisUser());
            Guard.Notices record = new Guard.Notices() {
                @Override
                public void held(HeldGroup held, Guard guard) {
                    everHeld.add(held.key() + ": " + held.why());
                }

                @Override
                public void ended(HeldGroup held, String how) {
                }
            };
            Path project = cProject(dir.resolve("project"));
            try (Guard guard = new Guard(live, core, GuardPolicy.DEFAULTS.watchingOnly(List.of(cgroup)), false, record,
                    new PrintWriter(journal, true)).start()) {
                // A parallel build and a burst of short-lived processes, side by side.
                Process make = work.start(new ProcessBuilder("make", "-j8", "-C", project.toString()).redirectErrorStream(true)
                        .redirectOutput(dir.resolve("make.log").toFile()));
                Process burst = work.start(new ProcessBuilder("bash", "-c", "for i in $(seq 2000); do /bin/true & done; wait")
                        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD));
                assertThat(burst.waitFor(120, TimeUnit.SECONDS)).isTrue();
                assertThat(make.waitFor(240, TimeUnit.SECONDS)).isTrue();
                assertThat(make.exitValue()).as(Files.readString(dir.resolve("make.log"))).isZero();
                // This repository's unit tests: Maven, its forked test JVM and their threads.
                Process suite = work.start(new ProcessBuilder(mvn(), "-o", "-q", "-B", "surefire:test", "-Pfast",
                        "-Dtest=WatchTest,GuardPolicyTest,ForkLogTest,ForkLineageTest", "-DreportsDirectory=" + dir.resolve("reports"),
                        "-Dsurefire.failIfNoSpecifiedTests=false").directory(Path.of("").toAbsolutePath().toFile())
                        .redirectErrorStream(true).redirectOutput(dir.resolve("suite.log").toFile()));
                assertThat(suite.waitFor(240, TimeUnit.SECONDS)).isTrue();
                assertThat(suite.exitValue()).as(Files.readString(dir.resolve("suite.log"))).isZero();
                assertThat(everHeld).as("no false hold: " + journal).isEmpty();

                // The control: the same policy on a runaway.
                try (Drill drill = Drills.start(Scenario.RECURSIVE, 200, Duration.ofMinutes(2), false)) {
                    String drillCgroup = cgroupOf(drill.sandbox().memberPids().iterator().next());
                    try (Guard control = new Guard(live, core, GuardPolicy.DEFAULTS.watchingOnly(List.of(drillCgroup)), false, record,
                            new PrintWriter(journal, true)).start()) {
                        await().atMost(Duration.ofSeconds(60)).until(() -> !everHeld.isEmpty());
                        assertThat(everHeld.get(0)).contains("deploy.sh");
                    }
                }
            }
        } finally {
            if (before == null) System.clearProperty("runaway.guard.dir");
            else System.setProperty("runaway.guard.dir", before);
        }
    }

    @Test
    void aBrowserLikePoolAndXargsOverThousandsOfJobsAreNeverHeld(@TempDir Path dir) throws Exception {
        assumeTrue(new com.sun.security.auth.module.UnixSystem().getUid() == 0, "the guard holds as root");
        List<HeldGroup> held = heldWhile(dir, "test-guard-wide-work", (work, journal, everHeld) -> {
            // A browser: one parent keeping 150 children, each replaced as it exits, for 20 s.
            Process pool = work.start(new ProcessBuilder("bash", "-c", "end=$((SECONDS + 20)); "
                    + "for i in $(seq 150); do sleep 0.$((RANDOM % 9 + 1)) & done; "
                    + "while [ $SECONDS -lt $end ]; do wait -n; sleep 0.$((RANDOM % 9 + 1)) & done; wait")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD));
            Process xargs = work.start(new ProcessBuilder("bash", "-c",
                    "seq 3000 | xargs -P 64 -n 1 sh -c 'echo \"$0\" | md5sum > /dev/null'")
                    .redirectErrorStream(true).redirectOutput(dir.resolve("xargs.log").toFile()));
            // A held process never ends: wait for both to end or a hold, whichever comes first.
            await().atMost(Duration.ofSeconds(240)).until(() -> !(pool.isAlive() || xargs.isAlive()) || !everHeld.isEmpty());
            assertThat(everHeld).as("no false hold: " + journal).isEmpty();
            assertThat(pool.exitValue()).isZero();
            assertThat(xargs.exitValue()).as(Files.readString(dir.resolve("xargs.log"))).isZero();
        });
        assertThat(held).isEmpty();
    }

    /**
     * The seed shapes, each in a drill of its own under a guard of the packaged defaults: the
     * second incident's loop as the recursive drill (deploy.sh runs the tests, a test runs
     * deploy.sh: the same words in the same directory at every level) and as the linear drill
     * (one chain, ~16 MiB a level, a counter among its arguments: only its depth tells it), each
     * held before it uses a tenth of the machine's memory; the first incident's orphan chains
     * (parented to init, a counter among their arguments) held before 1,000 processes. Prints
     * each one's time from its start to its hold and its size then.
     */
    @Test
    void theSeedShapesAreHeldEarly(@TempDir Path dir) throws Exception {
        assumeTrue(new com.sun.security.auth.module.UnixSystem().getUid() == 0, "the guard holds as root");
        long tenthOfMemory = memTotalBytes() / 10;
        String before = System.getProperty("runaway.guard.dir");
        System.setProperty("runaway.guard.dir", dir.resolve("control-guard").toString());
        try (LiveAnalysis live = LiveAnalysis.live().start()) {
            live.awaitLatest();
            Control recursive = control(live, Scenario.RECURSIVE, 200, Duration.ofSeconds(60));
            assertThat(recursive.held().key()).contains("deploy.sh");
            assertThat(recursive.pss()).as(recursive.toString()).isLessThan(tenthOfMemory);
            Control linear = control(live, Scenario.LINEAR, 400, Duration.ofSeconds(60));
            assertThat(linear.held().key()).contains("runaway-drill-worker");
            assertThat(linear.pss()).as(linear.toString()).isLessThan(tenthOfMemory);
            Control orphans = control(live, Scenario.ORPHANS, 600, Duration.ofSeconds(90));
            assertThat(orphans.tasks()).as(orphans.toString()).isLessThan(1000);
        } finally {
            if (before == null) System.clearProperty("runaway.guard.dir");
            else System.setProperty("runaway.guard.dir", before);
        }
    }

    /** A seed shape's hold: when, how big (its sandbox's processes and their Pss just after the hold froze it), and why. */
    private record Control(Scenario scenario, HeldGroup held, double seconds, int tasks, long pss) {
        @Override
        public String toString() {
            return String.format("%s drill held %.1f s after its start, at %d processes and %d MiB (Pss): %s", scenario.key(), seconds,
                    tasks, pss >> 20, held.why());
        }
    }

    private static Control control(LiveAnalysis live, Scenario scenario, int maxTasks, Duration within) throws Exception {
        java.time.Instant started = java.time.Instant.now();
        try (Drill drill = Drills.start(scenario, maxTasks, Duration.ofMinutes(2), false)) {
            HeldGroup first = firstHold(live, drill, within);
            double seconds = Duration.between(started, first.since()).toMillis() / 1e3;
            Set<Integer> members = drill.sandbox().memberPids();
            Control c = new Control(scenario, first, seconds, members.size(), pssBytes(members));
            System.out.println("GuardOrdinaryWorkTest control: " + c);
            return c;
        }
    }

    /**
     * A kernel build's recursion: make inside make for every directory level, nine deep (make[8]),
     * each level a real make exec'd by the one above with the same words ({@code $(MAKE) -C sub}) in
     * another directory. Held by the guard before issue 39 ("its command recurs 6 times along one
     * line (/usr/bin/make, /usr/bin/make) and is still deepening", 2.5 s in).
     */
    @Test
    void aKernelStyleRecursiveMakeNineLevelsDeepIsNeverHeld(@TempDir Path dir) throws Exception {
        assumeTrue(new com.sun.security.auth.module.UnixSystem().getUid() == 0, "the guard holds as root");
        Path tree = kernelStyleTree(dir.resolve("tree"), 9);
        neverHeld(dir, "test-guard-deep-make", new ProcessBuilder("make", "-C", tree.toString()), "make[8]: Entering directory");
    }

    /**
     * A monorepo's task runner: {@code npm run build} in a package whose build runs {@code npm run
     * build} in its sub-package, nine packages deep (npm, then sh, then npm at every level, the same
     * words in another directory); each level waits a moment, so the line stands nine deep for
     * seconds.
     */
    @Test
    void nestedNpmRunNinePackagesDeepIsNeverHeld(@TempDir Path dir) throws Exception {
        assumeTrue(new com.sun.security.auth.module.UnixSystem().getUid() == 0, "the guard holds as root");
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/npm")), "npm is installed");
        Path top = nestedPackages(dir.resolve("repo"), 9);
        ProcessBuilder npm = new ProcessBuilder("npm", "run", "build").directory(top.toFile());
        npm.environment().put("npm_config_cache", dir.resolve("npm-cache").toString());
        npm.environment().put("npm_config_update_notifier", "false");
        neverHeld(dir, "test-guard-npm-run", npm, "package level 9");
    }

    /**
     * {@code git submodule foreach --recursive} over a real tree of nested submodules, seven deep
     * (each a git repository with the next as its submodule, cloned with {@code --recurse-submodules}):
     * git runs the command and then itself again in each submodule, the line standing seven
     * submodules deep while the command waits.
     */
    @Test
    void gitSubmoduleForeachRecursiveOverANestedTreeIsNeverHeld(@TempDir Path dir) throws Exception {
        assumeTrue(new com.sun.security.auth.module.UnixSystem().getUid() == 0, "the guard holds as root");
        Path clone = nestedSubmodules(dir, 7);
        neverHeld(dir, "test-guard-submodules", git(clone, "submodule", "foreach", "--recursive", "sleep 0.4; git rev-parse --short HEAD"),
                "Entering 'm/m/m/m/m/m/m'");
    }

    /**
     * Runs WORK to its end in a sandbox of its own under a guard of the packaged defaults: never
     * held, it ends with 0, and its output shows it went as deep as meant (DEEPEST).
     */
    private static void neverHeld(Path dir, String sandboxName, ProcessBuilder work, String deepest) throws Exception {
        Path log = dir.resolve(sandboxName + ".log");
        List<HeldGroup> held = heldWhile(dir, sandboxName, (box, journal, everHeld) -> {
            Process p = box.start(work.redirectErrorStream(true).redirectOutput(log.toFile()));
            // A held process never ends: wait for its end or a hold, whichever comes first.
            await().atMost(Duration.ofSeconds(240)).until(() -> !p.isAlive() || !everHeld.isEmpty());
            assertThat(everHeld).as("no false hold of " + String.join(" ", work.command()) + ": " + journal).isEmpty();
            String out = Files.readString(log);
            assertThat(p.exitValue()).as(out).isZero();
            assertThat(out).as("it went as deep as meant").contains(deepest);
        });
        assertThat(held).isEmpty();
    }

    /** Packages LEVELS deep, each one's build printing its level, then running its sub-package's build. */
    private static Path nestedPackages(Path at, int levels) throws IOException {
        Path pkg = at;
        for (int i = 1; i <= levels; i++) {
            Files.createDirectories(pkg);
            String build = "echo package level " + i + " && sleep 0.4" + (i < levels ? " && cd sub && npm run build" : "");
            Files.writeString(pkg.resolve("package.json"), "{\"name\": \"level-" + i + "\", \"version\": \"1.0.0\", \"private\": true, "
                    + "\"scripts\": {\"build\": \"" + build + "\"}}\n");
            pkg = pkg.resolve("sub");
        }
        return at;
    }

    /**
     * Repositories r0..rLEVELS, each (but the last) with the next as its submodule at {@code m},
     * committed; then a clone of r0 with every submodule checked out, LEVELS deep.
     */
    private static Path nestedSubmodules(Path dir, int levels) throws Exception {
        for (int i = levels; i >= 0; i--) {
            Path repo = dir.resolve("r" + i);
            Files.createDirectories(repo);
            run(git(repo, "init", "-q", "-b", "main"));
            Files.writeString(repo.resolve("README"), "level " + i + "\n");
            run(git(repo, "add", "README"));
            if (i < levels) run(git(repo, "submodule", "add", "-q", dir.resolve("r" + (i + 1)).toString(), "m"));
            run(git(repo, "commit", "-q", "-m", "level " + i));
        }
        Path clone = dir.resolve("clone");
        run(git(dir, "clone", "-q", "--recurse-submodules", dir.resolve("r0").toString(), clone.toString()));
        return clone;
    }

    /** git in DIR, as a test's own: its identity given, local submodules allowed (git 2.38.1 refuses file:// by default). */
    private static ProcessBuilder git(Path in, String... args) {
        List<String> command = new ArrayList<>(List.of("git", "-c", "protocol.file.allow=always", "-c", "user.name=test", "-c",
                "user.email=test@example.invalid", "-c", "init.defaultBranch=main"));
        command.addAll(List.of(args));
        ProcessBuilder b = new ProcessBuilder(command).directory(in.toFile());
        b.environment().put("GIT_CONFIG_GLOBAL", "/dev/null");
        b.environment().put("GIT_CONFIG_NOSYSTEM", "1");
        return b;
    }

    private static void run(ProcessBuilder b) throws Exception {
        Process p = b.redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(String.join(" ", b.command()) + ": " + out).isZero();
    }

    /** Work started in a sandbox the test owns, with the guard watching only that sandbox. */
    private interface Work {
        void run(Sandbox work, StringWriter journal, List<HeldGroup> everHeld) throws Exception;
    }

    /** Runs WORK in a sandbox of its own (pids cap 1024) under a guard of the packaged default policy; what it held. */
    private static List<HeldGroup> heldWhile(Path dir, String sandboxName, Work body) throws Exception {
        String before = System.getProperty("runaway.guard.dir");
        System.setProperty("runaway.guard.dir", dir.resolve("guard").toString());
        StringWriter journal = new StringWriter();
        List<HeldGroup> everHeld = new CopyOnWriteArrayList<>();
        try (LiveAnalysis live = LiveAnalysis.live().start();
             Sandbox work = Sandboxes.create(SandboxSpec.of(sandboxName, 1024))) {
            live.awaitLatest();
            String cgroup = cgroupOf(work.start(new ProcessBuilder("sleep", "600")).pid());
            try (Guard guard = new Guard(live, core(), GuardPolicy.DEFAULTS.watchingOnly(List.of(cgroup)), false, recording(everHeld),
                    new PrintWriter(journal, true)).start()) {
                body.run(work, journal, everHeld);
            }
            return List.copyOf(everHeld);
        } finally {
            if (before == null) System.clearProperty("runaway.guard.dir");
            else System.setProperty("runaway.guard.dir", before);
        }
    }

    /** The first hold a guard of the packaged default policy, watching only DRILL's cgroup, makes. */
    private static HeldGroup firstHold(LiveAnalysis live, Drill drill, Duration within) throws Exception {
        String drillCgroup = cgroupOf(drill.sandbox().memberPids().iterator().next());
        List<HeldGroup> held = new CopyOnWriteArrayList<>();
        StringWriter journal = new StringWriter();
        try (Guard control = new Guard(live, core(), GuardPolicy.DEFAULTS.watchingOnly(List.of(drillCgroup)), false, recording(held),
                new PrintWriter(journal, true)).start()) {
            await().atMost(within).until(() -> !held.isEmpty());
            return held.get(0);
        }
    }

    private static StopCore core() {
        return new StopCore(PROC, PulseReader.live(), new Actuator(PROC, forStop -> null), Disposable.forThisUser());
    }

    private static Guard.Notices recording(List<HeldGroup> into) {
        return new Guard.Notices() {
            @Override
            public void held(HeldGroup held, Guard guard) {
                into.add(held);
            }

            @Override
            public void ended(HeldGroup held, String how) {
            }
        };
    }

    /**
     * A kernel-style tree LEVELS directories deep: each level compiles a real C file, then runs
     * {@code $(MAKE) -C sub} (make inside make, as Makefile.build recurses per directory), so the
     * make line deepens one level at a time for several seconds and then unwinds.
     */
    private static Path kernelStyleTree(Path at, int levels) throws Exception {
        Path source = Path.of("src/main/c/runaway-stat-reader.c").toAbsolutePath();
        Path level = at;
        for (int i = 0; i < levels; i++) {
            Files.createDirectories(level);
            String descend = i + 1 < levels ? "\t$(MAKE) -C sub\n" : "";
            Files.writeString(level.resolve("Makefile"), "all:\n\tcc -O2 -c " + source + " -o level.o\n" + descend);
            level = level.resolve("sub");
        }
        return at;
    }

    private static long memTotalBytes() throws Exception {
        for (String line : Files.readAllLines(PROC.resolve("meminfo"))) {
            if (line.startsWith("MemTotal:")) return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
        }
        throw new AssertionError("no MemTotal in /proc/meminfo");
    }

    /** The proportional set size of these processes (shared pages split between their users). */
    private static long pssBytes(Set<Integer> pids) {
        long kb = 0;
        for (int pid : pids) {
            try {
                for (String line : Files.readAllLines(PROC.resolve(pid + "/smaps_rollup"))) {
                    if (line.startsWith("Pss:")) kb += Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            } catch (IOException gone) {
                // exited between the listing and the read: nothing to count
            }
        }
        return kb * 1024;
    }

    /** This repository's C programs, each compiled six times (40 compilations, a real cc1 each), as make -j8 runs them. */
    private static Path cProject(Path at) throws Exception {
        Files.createDirectories(at);
        Path sources = Path.of("src/main/c").toAbsolutePath();
        Path generated = Path.of(System.getProperty("runaway.native.dir", "target/native"), "include").toAbsolutePath(); // build.sh's headers
        List<String> objects = new ArrayList<>();
        StringBuilder rules = new StringBuilder();
        int n = 0;
        for (String c : List.of("runaway-helper.c", "runaway-rt.c", "runaway-sandbox.c", "runaway-drill-worker.c", "runaway-stat-reader.c")) {
            for (int variant = 0; variant < 8; variant++) {
                String o = "o" + n++ + ".o";
                objects.add(o);
                rules.append(o).append(": ").append(sources.resolve(c)).append("\n\tcc -O2 -DVARIANT=").append(variant)
                        .append(" -I").append(generated).append(" -c $< -o $@\n");
            }
        }
        Files.writeString(at.resolve("Makefile"), "all: " + String.join(" ", objects) + "\n" + rules);
        return at;
    }

    private static String mvn() {
        for (String dir : System.getenv("PATH").split(":")) if (Files.isExecutable(Path.of(dir, "mvn"))) return Path.of(dir, "mvn").toString();
        return "mvn";
    }

    private static String cgroupOf(long pid) throws Exception {
        for (String line : Files.readAllLines(PROC.resolve(pid + "/cgroup"))) if (line.startsWith("0::")) return line.substring(3);
        throw new AssertionError("no v2 cgroup for " + pid);
    }
}
