// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop;

import dev.runaway.stop.run.GrowthFirst;
import dev.runaway.stop.act.Actuator;
import dev.runaway.stop.helper.HelperStarter;
import dev.runaway.stop.run.FirstLever;
import dev.runaway.stop.target.Exclusions;
import dev.runaway.sandbox.CgroupSandbox;
import dev.runaway.sandbox.NativeBinaries;
import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * runaway-rt's first lever, for real: the key's processes in a sandbox, runaway-rt run from
 * another one as the launcher runs it, and what it leaves for the JVM (its environment) and in
 * the cgroup (frozen, pids.max 0), then the JVM's adoption or undoing of it. Each refusal: the
 * cgroup is left exactly as it was.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
@Tag("process")
public class FirstLeverLaunchTest {
    /** Stands in for the launcher script: prints the lever's variables. */
    private static final String REPORT = "env | grep '^RUNAWAY_FIRST_LEVER_' | sort";
    private static final int CAP = 64;

    @TempDir
    Path temp;
    private Path key;
    private final List<Sandbox> sandboxes = new ArrayList<>();

    @BeforeEach
    void copyTheBinary() throws Exception {
        key = temp.resolve("cache/tool");
        Files.createDirectories(key.getParent());
        Files.copy(Path.of("/bin/sleep"), key);
        key.toFile().setExecutable(true);
    }

    @AfterEach
    void killTheSandboxes() throws Exception {
        for (Sandbox s : sandboxes) s.close();
    }

    private CgroupSandbox sandbox(String name) throws Exception {
        Sandbox s = Sandboxes.create(SandboxSpec.of("test-first-lever-" + name, CAP));
        sandboxes.add(s);
        return (CgroupSandbox) s;
    }

    /** N copies of the key, each started straight into the sandbox (no shell between). */
    private void keys(Sandbox s, int n) throws Exception {
        for (int i = 0; i < n; i++) s.start(new ProcessBuilder(key.toString(), "600"));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (countRunningKey(s) < n && System.nanoTime() < deadline) Thread.sleep(20);
        assertThat(countRunningKey(s)).isEqualTo(n);
    }

    private long countRunningKey(Sandbox s) {
        return s.memberPids().stream().filter(pid -> key.toString().equals(new dev.runaway.procfs.ProcReader(Path.of("/proc")).exe(pid))).count();
    }

    /** runaway-rt --first-lever run from inside {@code from}, as the launcher runs it; its variables. */
    private Map<String, String> lever(Sandbox from, String... stopArgs) throws Exception {
        return run(from, temp, stopArgs);
    }

    /**
     * runaway-rt --first-lever run from inside {@code from} as the launcher runs it (PROGRAM, then
     * a script, then the stop's arguments); the RUNAWAY_FIRST_LEVER_ variables it left for the
     * program, and its whole output under "output".
     */
    public static Map<String, String> run(Sandbox from, Path temp, String... stopArgs) throws Exception {
        return run(from, temp, false, stopArgs);
    }

    /** As {@link #run(Sandbox, Path, String...)}; with {@code rtMayKill} false its own kill is off (RUNAWAY_RT_KILL=0): the freeze alone. */
    public static Map<String, String> run(Sandbox from, Path temp, boolean rtMayKill, String... stopArgs) throws Exception {
        Path script = temp.resolve("launcher");
        Files.writeString(script, REPORT + "\n");
        List<String> command = new ArrayList<>(List.of(NativeBinaries.find("runaway-rt").toString(), "--first-lever", "/bin/sh",
                script.toString()));
        command.addAll(List.of(stopArgs));
        ProcessBuilder b = new ProcessBuilder(command).redirectErrorStream(true);
        if (!rtMayKill) b.environment().put("RUNAWAY_RT_KILL", "0");
        Process p = from.start(b);
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        Map<String, String> env = new HashMap<>();
        for (String line : out.split("\n")) {
            int eq = line.indexOf('=');
            if (line.startsWith("RUNAWAY_FIRST_LEVER_") && eq > 0) env.put(line.substring(0, eq), line.substring(eq + 1));
        }
        env.put("output", out);
        return env;
    }

    private static String cgroupOf(CgroupSandbox s) {
        return "/" + Path.of("/sys/fs/cgroup/unified").relativize(s.dirs().unified());
    }

    private static String pidsMax(CgroupSandbox s) throws Exception {
        return Files.readString(s.dirs().pids().resolve("pids.max")).trim();
    }

    private static boolean frozen(CgroupSandbox s) throws Exception {
        return Files.readString(s.dirs().unified().resolve("cgroup.events")).contains("frozen 1");
    }

    private static boolean freezeAsked(CgroupSandbox s) throws Exception {
        return Files.readString(s.dirs().unified().resolve("cgroup.freeze")).trim().equals("1");
    }

    /** Not frozen, and its pids.max as the sandbox set it. */
    private static void assertUntouched(CgroupSandbox s) throws Exception {
        assertThat(freezeAsked(s)).isFalse();
        assertThat(pidsMax(s)).isEqualTo(Integer.toString(CAP));
    }

    private FirstLever forThisJvm(Map<String, String> env) {
        Map<String, String> mine = new HashMap<>(env);
        mine.put("RUNAWAY_FIRST_LEVER_PID", Long.toString(ProcessHandle.current().pid()));
        return FirstLever.of(mine, ProcessHandle.current().pid()).orElseThrow();
    }

    private GrowthFirst.Attempt adopt(FirstLever lever, Actuator actuator) {
        return GrowthFirst.adopt(Path.of("/proc"), new Selector.Command(key.toString()), actuator,
                Exclusions.none((int) ProcessHandle.current().pid()), lever, System.nanoTime());
    }

    @Test
    void aCgroupOfTheKeyAloneIsCappedAndFrozenBeforeTheProgramRunsAndTheJvmAdoptsIt() throws Exception {
        CgroupSandbox runaway = sandbox("keys");
        keys(runaway, 20);
        Map<String, String> env = lever(sandbox("launcher"), "stop", "--command", key.toString(), "--yes", "--json");

        assertThat(env).as(env.get("output")).doesNotContainKey("RUNAWAY_FIRST_LEVER_REFUSED");
        assertThat(env.get("RUNAWAY_FIRST_LEVER_CGROUP")).isEqualTo(cgroupOf(runaway));
        assertThat(env.get("RUNAWAY_FIRST_LEVER_PIDS_MAX")).isEqualTo(runaway.dirs().pids().resolve("pids.max").toString());
        assertThat(env.get("RUNAWAY_FIRST_LEVER_PIDS_OLD")).isEqualTo(Integer.toString(CAP));
        assertThat(env.get("RUNAWAY_FIRST_LEVER_MEMBERS")).isEqualTo("20");
        assertThat(env.get("RUNAWAY_FIRST_LEVER_PHASES")).contains("readExe=").contains("capAndFreeze=");
        assertThat(pidsMax(runaway)).isEqualTo("0");
        assertThat(freezeAsked(runaway)).isTrue();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!frozen(runaway) && System.nanoTime() < deadline) Thread.sleep(10);
        assertThat(frozen(runaway)).isTrue();

        try (Actuator actuator = new Actuator(Path.of("/proc"), () -> null)) {
            GrowthFirst.Attempt attempt = adopt(forThisJvm(env), actuator);
            assertThat(attempt.frozen()).as(attempt.why()).isPresent();
            assertThat(attempt.frozen().get().cgroup()).isEqualTo(cgroupOf(runaway));
            assertThat(attempt.frozen().get().pidsCapped()).isTrue();
            // The stop's restore puts back what runaway-rt changed, as for its own levers.
            actuator.uncapPids(cgroupOf(runaway));
            assertThat(pidsMax(runaway)).isEqualTo(Integer.toString(CAP));
        }
    }

    @Test
    void aStrangerTheFirstReadingAllowedIsFoundAfterTheFreezeAndBothAreUndoneAtOnce() throws Exception {
        CgroupSandbox runaway = sandbox("stranger");
        keys(runaway, 20);
        Process other = runaway.start(new ProcessBuilder("/bin/sleep", "600")); // not the key, no key's child
        Map<String, String> env = lever(sandbox("launcher"), "stop", "--command", key.toString(), "--yes");
        assertThat(env).as(env.get("output")).containsKey("RUNAWAY_FIRST_LEVER_CGROUP"); // one stranger: within the allowance

        try (Actuator actuator = new Actuator(Path.of("/proc"), () -> null)) {
            GrowthFirst.Attempt attempt = adopt(forThisJvm(env), actuator);
            assertThat(attempt.frozen()).isEmpty();
            assertThat(attempt.why()).contains("pid " + other.pid()).contains("thawed at once");
        }
        assertUntouched(runaway);
    }

    @Test
    void moreStrangersThanTheAllowanceAndNothingIsTouched() throws Exception {
        CgroupSandbox runaway = sandbox("crowded");
        keys(runaway, 4);
        for (int i = 0; i < 17; i++) runaway.start(new ProcessBuilder("/bin/sleep", "600"));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (runaway.memberPids().size() < 21 && System.nanoTime() < deadline) Thread.sleep(20);
        Map<String, String> env = lever(sandbox("launcher"), "stop", "--command", key.toString(), "--yes");
        assertThat(env.get("RUNAWAY_FIRST_LEVER_REFUSED")).isEqualTo("17 processes in " + cgroupOf(runaway) + " do not run the key (by the first reading)");
        assertThat(env).doesNotContainKey("RUNAWAY_FIRST_LEVER_CGROUP");
        assertThat(env.get("output")).contains("runaway: no growth lever before the plan: 17 processes in");
        assertUntouched(runaway);
    }

    @Test
    void neverTheCgroupThatHoldsTheStopItself() throws Exception {
        CgroupSandbox runaway = sandbox("own");
        keys(runaway, 5);
        Map<String, String> env = lever(runaway, "stop", "--command", key.toString(), "--yes");
        assertThat(env.get("RUNAWAY_FIRST_LEVER_REFUSED")).isEqualTo("the cgroup " + cgroupOf(runaway) + " holds this stop too");
        assertUntouched(runaway);
    }

    @Test
    void aKeyInTwoCgroupsIsNotStoppedByFreezingOne() throws Exception {
        CgroupSandbox first = sandbox("first");
        CgroupSandbox second = sandbox("second");
        keys(first, 5);
        keys(second, 5);
        Map<String, String> env = lever(sandbox("launcher"), "stop", "--command", key.toString(), "--yes");
        assertThat(env.get("RUNAWAY_FIRST_LEVER_REFUSED")).contains("of the same key runs outside");
        assertThat(freezeAsked(first)).isFalse();
        assertThat(freezeAsked(second)).isFalse();
    }

    /** runaway-rt names the cgroup from a sample of the key's processes: the JVM finds the ones outside it and thaws. */
    @Test
    void theJvmThawsWhenTheKeyAlsoRunsOutsideTheFrozenCgroup() throws Exception {
        CgroupSandbox first = sandbox("frozen");
        CgroupSandbox second = sandbox("elsewhere");
        keys(first, 5);
        keys(second, 1);
        Files.writeString(first.dirs().unified().resolve("cgroup.freeze"), "1"); // as runaway-rt would have, from its sample
        Map<String, String> env = new HashMap<>();
        env.put("RUNAWAY_FIRST_LEVER_PID", Long.toString(ProcessHandle.current().pid()));
        env.put("RUNAWAY_FIRST_LEVER_CGROUP", cgroupOf(first));
        env.put("RUNAWAY_FIRST_LEVER_AT", "1796083343.123456");
        env.put("RUNAWAY_FIRST_LEVER_SELECTOR", "command:" + key);
        try (Actuator actuator = new Actuator(Path.of("/proc"), () -> null)) {
            GrowthFirst.Attempt attempt = adopt(FirstLever.of(env, ProcessHandle.current().pid()).orElseThrow(), actuator);
            assertThat(attempt.frozen()).isEmpty();
            assertThat(attempt.why()).contains("of the same key runs outside " + cgroupOf(first)).contains("thawed at once");
        }
        assertThat(freezeAsked(first)).isFalse();
    }

    @Test
    void withoutYesOrWithAnOptionItDoesNotKnowNothingIsDone() throws Exception {
        CgroupSandbox runaway = sandbox("unconfirmed");
        keys(runaway, 5);
        Sandbox launcher = sandbox("launcher");
        for (String[] args : List.of(new String[] {"stop", "--command", key.toString()},
                new String[] {"stop", "--command", key.toString(), "--yes", "--unknown"},
                new String[] {"stop", "--command", "tool", "--yes"},
                new String[] {"stop", "--command", key.toString(), "--pid", "4242", "--yes"},
                new String[] {"stop", "--pid", "0042", "--yes"},
                new String[] {"stop", "--pid", "1", "--yes"},
                new String[] {"stop", "--cgroup", "relative/path", "--yes"},
                new String[] {"scan", "--command", key.toString(), "--yes"})) {
            Map<String, String> env = lever(launcher, args);
            assertThat(env.get("RUNAWAY_FIRST_LEVER_REFUSED")).as(String.join(" ", args))
                    .isEqualTo("not a confirmed stop (stop --command /KEY, --pid PID, --chain PID or --cgroup /PATH, with --yes)");
        }
        assertUntouched(runaway);
    }

    /** Started straight into the sandbox: a shell running SCRIPT, once its cgroup holds MEMBERS processes; its pid. */
    private int tree(Sandbox s, String script, int members) throws Exception {
        Process root = s.start(new ProcessBuilder("/bin/sh", "-c", script));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (s.memberPids().size() != members && System.nanoTime() < deadline) Thread.sleep(20);
        assertThat(s.memberPids()).hasSize(members);
        return (int) root.pid();
    }

    private GrowthFirst.Attempt adopt(FirstLever lever, Actuator actuator, Selector selector) {
        return GrowthFirst.adopt(Path.of("/proc"), selector, actuator, Exclusions.none((int) ProcessHandle.current().pid()), lever, System.nanoTime());
    }

    private static dev.runaway.model.ProcessIdentity identity(int pid) {
        return dev.runaway.procfs.ProcStat.read(Path.of("/proc"), pid).orElseThrow().identity();
    }

    @Test
    void aCgroupIsFrozenForItsOwnStopAndAdoptedOnlyForIt() throws Exception {
        CgroupSandbox runaway = sandbox("by-cgroup");
        keys(runaway, 3);
        tree(runaway, "/bin/sleep 600 & exec /bin/sleep 600", 5);
        Map<String, String> env = lever(sandbox("launcher"), "stop", "--cgroup", cgroupOf(runaway), "--yes");
        assertThat(env).as(env.get("output")).doesNotContainKey("RUNAWAY_FIRST_LEVER_REFUSED");
        assertThat(env.get("RUNAWAY_FIRST_LEVER_SELECTOR")).isEqualTo("cgroup:" + cgroupOf(runaway));
        assertThat(env.get("RUNAWAY_FIRST_LEVER_MEMBERS")).isEqualTo("5");
        assertThat(pidsMax(runaway)).isEqualTo("0");
        assertThat(freezeAsked(runaway)).isTrue();
        try (Actuator actuator = new Actuator(Path.of("/proc"), () -> null)) {
            GrowthFirst.Attempt other = adopt(forThisJvm(env), actuator, new Selector.Cgroup(cgroupOf(runaway) + "-other"));
            assertThat(other.frozen()).isEmpty();
            assertThat(other.why()).contains("runaway-rt froze for cgroup " + cgroupOf(runaway)).contains("thawed at once");
        }
        assertUntouched(runaway);
        env = lever(sandbox("launcher-again"), "stop", "--cgroup", cgroupOf(runaway), "--yes");
        adoptsAndPutsBack(env, new Selector.Cgroup(cgroupOf(runaway)), runaway);
        assertUntouched(runaway);
    }

    @Test
    void aProcessAndItsDescendantsAloneInTheirCgroupAreFrozenByPidAndByChain() throws Exception {
        CgroupSandbox runaway = sandbox("by-pid");
        int root = tree(runaway, "/bin/sleep 600 & /bin/sleep 600 & /bin/sleep 600 & wait", 4);
        for (String option : List.of("--pid", "--chain")) {
            Map<String, String> env = lever(sandbox("launcher" + option), "stop", option, Integer.toString(root), "--yes", "--json");
            assertThat(env).as(env.get("output")).doesNotContainKey("RUNAWAY_FIRST_LEVER_REFUSED");
            var id = identity(root);
            assertThat(env.get("RUNAWAY_FIRST_LEVER_SELECTOR")).isEqualTo(option.substring(2) + ":" + root + ":" + id.startTicks());
            assertThat(freezeAsked(runaway)).isTrue();
            Selector selector = option.equals("--pid") ? new Selector.Process(id) : new Selector.Chain(id);
            adoptsAndPutsBack(env, selector, runaway);
            assertUntouched(runaway);
        }
    }

    /** A daemonizer's level: adopted (its parent is no member) and running the root's program: the evidence placement takes. */
    @Test
    void anAdoptedProcessOfTheRootsProgramIsTakenWithTheRoot() throws Exception {
        CgroupSandbox runaway = sandbox("adopted");
        int root = tree(runaway, "( /bin/sleep 600 & ) ; exec /bin/sleep 600", 2);
        Map<String, String> env = lever(sandbox("launcher"), "stop", "--pid", Integer.toString(root), "--yes");
        assertThat(env).as(env.get("output")).doesNotContainKey("RUNAWAY_FIRST_LEVER_REFUSED");
        adoptsAndPutsBack(env, new Selector.Process(identity(root)), runaway);
        assertUntouched(runaway);
    }

    @Test
    void aStrangerBesideTheRootsTreeAndNothingIsTouched() throws Exception {
        CgroupSandbox runaway = sandbox("pid-stranger");
        int root = tree(runaway, "/bin/sleep 600 & wait", 2);
        Process other = runaway.start(new ProcessBuilder(key.toString(), "600")); // started by this JVM: no descendant, another program
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (runaway.memberPids().size() < 3 && System.nanoTime() < deadline) Thread.sleep(20);
        Map<String, String> env = lever(sandbox("launcher"), "stop", "--pid", Integer.toString(root), "--yes");
        assertThat(env.get("RUNAWAY_FIRST_LEVER_REFUSED")).as(env.get("output"))
                .isEqualTo("pid " + other.pid() + " in " + cgroupOf(runaway) + " does not descend from pid " + root + " (adopted, runs " + key + ")");
        assertUntouched(runaway);
        // The JVM's own check finds it too, had runaway-rt sampled past it.
        Files.writeString(runaway.dirs().unified().resolve("cgroup.freeze"), "1");
        Map<String, String> made = new HashMap<>();
        made.put("RUNAWAY_FIRST_LEVER_PID", Long.toString(ProcessHandle.current().pid()));
        made.put("RUNAWAY_FIRST_LEVER_CGROUP", cgroupOf(runaway));
        made.put("RUNAWAY_FIRST_LEVER_AT", "1796083343.123456");
        made.put("RUNAWAY_FIRST_LEVER_SELECTOR", "pid:" + root + ":" + identity(root).startTicks());
        try (Actuator actuator = new Actuator(Path.of("/proc"), () -> null)) {
            GrowthFirst.Attempt attempt = adopt(FirstLever.of(made, ProcessHandle.current().pid()).orElseThrow(), actuator,
                    new Selector.Process(identity(root)));
            assertThat(attempt.frozen()).isEmpty();
            assertThat(attempt.why()).contains("pid " + other.pid() + " in " + cgroupOf(runaway) + " does not descend from pid " + root)
                    .contains("thawed at once");
        }
        assertUntouched(runaway);
    }

    /** Installed as /usr/bin/runaway it is the package's launcher, with the same first lever (here without the app it runs). */
    @Test
    void asThePackagesLauncherItTakesTheLeverAndUndoesItWhenTheAppIsMissing() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeFalse(Files.exists(Path.of("/opt/runaway/bin/runaway")), "the package is installed here");
        CgroupSandbox runaway = sandbox("front");
        keys(runaway, 5);
        Path front = temp.resolve("bin/runaway");
        Files.createDirectories(front.getParent());
        Files.copy(NativeBinaries.find("runaway-rt"), front);
        front.toFile().setExecutable(true);
        Process p = sandbox("launcher").start(new ProcessBuilder(front.toString(), "stop", "--command", key.toString(), "--yes", "--json")
                .redirectErrorStream(true));
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(127);
        assertThat(out).contains("growth stopped before the plan: pids.max 0 and froze " + cgroupOf(runaway))
                .contains("thawed").contains("runaway: cannot run /opt/runaway/bin/runaway");
        assertUntouched(runaway);
    }

    @Test
    void whenTheProgramCannotRunTheLeverIsUndoneBeforeItExits() throws Exception {
        CgroupSandbox runaway = sandbox("no-program");
        keys(runaway, 5);
        Process p = sandbox("launcher").start(new ProcessBuilder(NativeBinaries.find("runaway-rt").toString(), "--first-lever",
                temp.resolve("missing").toString(), "stop", "--command", key.toString(), "--yes").redirectErrorStream(true));
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(127);
        assertThat(out).contains("growth stopped before the plan").contains("thawed").contains("cannot run");
        assertUntouched(runaway);
    }

    /** The JVM adopts the lever's freeze for {@code selector}; then the cgroup is put back as the test found it. */
    private void adoptsAndPutsBack(Map<String, String> env, Selector selector, CgroupSandbox runaway) throws Exception {
        try (Actuator actuator = new Actuator(Path.of("/proc"), HelperStarter.NONE)) {
            GrowthFirst.Attempt attempt = adopt(forThisJvm(env), actuator, selector);
            assertThat(attempt.frozen()).as(attempt.why()).isPresent();
            actuator.uncapPids(cgroupOf(runaway));
            actuator.freeze(cgroupOf(runaway), false);
        }
    }
}
