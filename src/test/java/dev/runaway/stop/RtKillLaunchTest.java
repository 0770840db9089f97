// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop;

import dev.runaway.model.ProcessIdentity;
import dev.runaway.stop.act.Actuator;
import dev.runaway.stop.helper.HelperStarter;
import dev.runaway.stop.run.FirstLever;
import dev.runaway.stop.run.GrowthFirst;
import dev.runaway.stop.run.RtKill;
import dev.runaway.stop.run.RtKillZero;
import dev.runaway.stop.target.Exclusions;
import dev.runaway.procfs.ProcStat;
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

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * runaway-rt's own kill, for real, per selector: taken when the frozen cgroup holds only the
 * selector's members (then the JVM's part confirms zero and puts the cgroup back), and not taken
 * when anything else sits in it: a process of another user ({@code nobody}), a process the rule
 * does not name, an ancestor of the stop. Then it is handed to the JVM, and what is not the
 * stop's survives.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@Tag("process")
class RtKillLaunchTest {
    private static final int CAP = 64;
    private static final Path PROC = Path.of("/proc");

    @TempDir
    Path temp;
    private Path key;
    private final List<Sandbox> sandboxes = new ArrayList<>();

    @BeforeEach
    void copyTheBinary() throws Exception {
        assumeTrue(new com.sun.security.auth.module.UnixSystem().getUid() == 0, "needs root: cgroups and a user to switch to");
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")), "needs setpriv (util-linux)");
        key = temp.resolve("cache/tool");
        Files.createDirectories(key.getParent());
        Files.copy(Path.of("/bin/sleep"), key);
        for (Path p : List.of(temp, key.getParent())) Files.setAttribute(p, "unix:mode", 0755);
        Files.setAttribute(key, "unix:mode", 0755); // nobody may run it too
    }

    @AfterEach
    void killTheSandboxes() throws Exception {
        for (Sandbox s : sandboxes) s.close();
    }

    private CgroupSandbox sandbox(String name) throws Exception {
        Sandbox s = Sandboxes.create(SandboxSpec.of("test-rt-kill-" + name, CAP));
        sandboxes.add(s);
        return (CgroupSandbox) s;
    }

    private static String cgroupOf(CgroupSandbox s) {
        return "/" + Path.of("/sys/fs/cgroup/unified").relativize(s.dirs().unified());
    }

    private void awaitMembers(Sandbox s, int n) {
        await().atMost(Duration.ofSeconds(20)).until(() -> s.memberPids().size() == n);
    }

    private void keys(Sandbox s, int n) throws Exception {
        for (int i = 0; i < n; i++) s.start(new ProcessBuilder(key.toString(), "600"));
        awaitMembers(s, n);
    }

    /** A process of another user in {@code s}: {@code nobody} running ARGS. */
    private static Process asNobody(Sandbox s, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"));
        command.addAll(List.of(args));
        return s.start(new ProcessBuilder(command));
    }

    private int tree(Sandbox s, String script, int members) throws Exception {
        Process root = s.start(new ProcessBuilder("/bin/sh", "-c", script));
        awaitMembers(s, members);
        return (int) root.pid();
    }

    private static ProcessIdentity identity(int pid) {
        return ProcStat.read(PROC, pid).orElseThrow().identity();
    }

    /** The lever and the kill as runaway-rt left them, read as this JVM reads its own. */
    private static Map<String, String> forThisJvm(Map<String, String> env) {
        Map<String, String> mine = new HashMap<>(env);
        mine.put("RUNAWAY_FIRST_LEVER_PID", Long.toString(ProcessHandle.current().pid()));
        return mine;
    }

    private static FirstLever lever(Map<String, String> env) {
        return FirstLever.of(forThisJvm(env), ProcessHandle.current().pid()).orElseThrow();
    }

    private static RtKill rtKill(Map<String, String> env) {
        return RtKill.of(forThisJvm(env), Optional.of(lever(env)));
    }

    /** Killed by runaway-rt: the cgroup empties, and the JVM's part confirms zero and puts the cgroup back. */
    private void killedAndConfirmed(Map<String, String> env, CgroupSandbox runaway, Selector selector) throws Exception {
        assertThat(env).as(env.get("output")).containsKey("RUNAWAY_FIRST_LEVER_KILLED_AT").doesNotContainKey("RUNAWAY_FIRST_LEVER_KILL_REFUSED");
        assertThat(rtKill(env).killed()).isTrue();
        // runaway-rt waited for the cgroup to empty before it started the program after it (the JVM)
        assertThat(rtKill(env).emptiedMicros()).as(env.get("output")).isGreaterThanOrEqualTo(rtKill(env).atMicros());
        assertThat(runaway.memberPids()).isEmpty();
        await().atMost(Duration.ofSeconds(20)).until(() -> runaway.memberPids().isEmpty());
        try (Actuator actuator = new Actuator(PROC, HelperStarter.NONE)) {
            RtKillZero zero = RtKillZero.confirm(PROC, selector, actuator, Exclusions.none((int) ProcessHandle.current().pid()), lever(env));
            assertThat(zero.zeroConfirmed()).as(zero.note()).isTrue();
        }
        assertThat(Files.readString(runaway.dirs().unified().resolve("cgroup.freeze")).trim()).isEqualTo("0");
        assertThat(Files.readString(runaway.dirs().pids().resolve("pids.max")).trim()).isEqualTo(Integer.toString(CAP));
    }

    /** Not killed by runaway-rt, for REASON: the kill is left to the JVM, whose adoption then decides (thaws, or keeps the freeze). */
    private static void handedOver(Map<String, String> env, RtKill.Reason reason, String words) {
        assertThat(env).as(env.get("output")).containsKey("RUNAWAY_FIRST_LEVER_CGROUP").doesNotContainKey("RUNAWAY_FIRST_LEVER_KILLED_AT");
        RtKill k = rtKill(env);
        assertThat(k.reason()).as(env.get("output")).isEqualTo(reason);
        assertThat(k.words()).contains(words);
        assertThat(env.get("output")).contains("runaway-rt did not kill, the JVM decides");
    }

    private static void thaw(CgroupSandbox s) throws Exception {
        Files.writeString(s.dirs().pids().resolve("pids.max"), Integer.toString(CAP));
        Files.writeString(s.dirs().unified().resolve("cgroup.freeze"), "0");
    }

    @Test
    void aKeysCgroupOfItsProcessesAloneIsKilledBeforeTheJvmWhichConfirmsZero() throws Exception {
        CgroupSandbox runaway = sandbox("keys");
        keys(runaway, 20);
        Map<String, String> env = FirstLeverLaunchTest.run(sandbox("launcher"), temp, true, "stop", "--command", key.toString(), "--yes", "--json");
        assertThat(env.get("RUNAWAY_FIRST_LEVER_PHASES")).contains("killCheck=").contains("kill=");
        // pids.max 0 held every member: checked at once and killed without the wait for "frozen 1"
        // (every task scheduled once: as long as the kill itself at 20,000 pressing tasks)
        assertThat(env.get("RUNAWAY_FIRST_LEVER_PHASES")).as(env.get("output")).contains(",capAndFreeze=").contains(",killCheck=")
                .doesNotContain("frozenHeld").doesNotContain("killCheckEarly");
        killedAndConfirmed(env, runaway, new Selector.Command(key.toString()));
    }

    /**
     * A member outside the pids cgroup that was capped could still fork into the cgroup: the set is
     * not fixed by pids.max 0, so runaway-rt waits for "frozen 1" and checks the whole set again
     * before its kill.
     */
    @Test
    void aCapThatDoesNotHoldEveryMemberIsFollowedByTheFreezeBeforeTheKill() throws Exception {
        CgroupSandbox runaway = sandbox("uncapped");
        keys(runaway, 5);
        // one member's pids cgroup is another test sandbox's (capped, torn down whole like every
        // sandbox here): no one pids.max governs them all; its cgroup v2 is still the runaway's
        CgroupSandbox holder = sandbox("holder");
        Files.writeString(holder.dirs().pids().resolve("cgroup.procs"), Integer.toString(runaway.memberPids().iterator().next()));
        Map<String, String> env = FirstLeverLaunchTest.run(sandbox("launcher"), temp, true, "stop", "--command", key.toString(), "--yes");
        assertThat(env.get("RUNAWAY_FIRST_LEVER_PHASES")).as(env.get("output")).contains(",killCheckEarly=").contains(",frozenHeld=");
        assertThat(env).as(env.get("output")).containsKey("RUNAWAY_FIRST_LEVER_KILLED_AT");
        await().atMost(Duration.ofSeconds(20)).until(() -> runaway.memberPids().isEmpty() && holder.memberPids().isEmpty());
    }

    @Test
    void aStrangerOfAnotherUserInTheKeysCgroupIsNotKilledTheJvmDecidesAndItSurvives() throws Exception {
        CgroupSandbox runaway = sandbox("key-stranger");
        keys(runaway, 20);
        Process stranger = asNobody(runaway, "/bin/sleep", "600"); // within the freeze's allowance, never the kill's
        awaitMembers(runaway, 21);
        Map<String, String> env = FirstLeverLaunchTest.run(sandbox("launcher"), temp, true, "stop", "--command", key.toString(), "--yes");
        handedOver(env, RtKill.Reason.STRANGER, "pid " + stranger.pid() + " runs /usr/bin/sleep");
        // refused before the wait for "frozen 1": the freeze is the JVM's to adopt, as before
        assertThat(Files.readString(runaway.dirs().unified().resolve("cgroup.freeze")).trim()).isEqualTo("1");
        try (Actuator actuator = new Actuator(PROC, HelperStarter.NONE)) {
            GrowthFirst.Attempt attempt = GrowthFirst.adopt(PROC, new Selector.Command(key.toString()), actuator,
                    Exclusions.none((int) ProcessHandle.current().pid()), lever(env), System.nanoTime());
            assertThat(attempt.frozen()).isEmpty();
            assertThat(attempt.why()).contains("pid " + stranger.pid()).contains("thawed at once");
        }
        assertThat(stranger.isAlive()).isTrue();
        assertThat(runaway.memberPids()).hasSize(21).contains((int) stranger.pid());
    }

    @Test
    void aCgroupIsKilledWholeBeforeTheJvm() throws Exception {
        CgroupSandbox runaway = sandbox("cgroup");
        keys(runaway, 3);
        asNobody(runaway, "/bin/sleep", "600"); // in the cgroup the stop names: a member whoever runs it
        awaitMembers(runaway, 4);
        Map<String, String> env = FirstLeverLaunchTest.run(sandbox("launcher"), temp, true, "stop", "--cgroup", cgroupOf(runaway), "--yes");
        killedAndConfirmed(env, runaway, new Selector.Cgroup(cgroupOf(runaway)));
    }

    /** The stop's own parent shell sits in the cgroup it names: never killed (Exclusions.Why.ANCESTOR), left to the JVM. */
    @Test
    void aCgroupHoldingAnAncestorOfTheStopIsNotKilled() throws Exception {
        CgroupSandbox runaway = sandbox("ancestor");
        CgroupSandbox launcher = sandbox("launcher");
        keys(runaway, 3);
        Path script = temp.resolve("report");
        Files.writeString(script, "env | grep '^RUNAWAY_FIRST_LEVER_' | sort; echo END\n");
        // The outer shell stays in the runaway's cgroup; its child moves to the launcher's v2 cgroup and becomes runaway-rt.
        String inner = "echo $$ > " + launcher.dirs().unified().resolve("cgroup.procs") + " && exec " + NativeBinaries.find("runaway-rt")
                + " --first-lever /bin/sh " + script + " stop --cgroup " + cgroupOf(runaway) + " --yes";
        Process outer = runaway.start(new ProcessBuilder("/bin/sh", "-c", "/bin/sh -c '" + inner + "' 2>&1; exec /bin/sleep 600")
                .redirectErrorStream(true));
        Map<String, String> env = new HashMap<>();
        StringBuilder out = new StringBuilder();
        BufferedReader lines = new BufferedReader(new InputStreamReader(outer.getInputStream(), StandardCharsets.UTF_8));
        for (String line; (line = lines.readLine()) != null && !line.equals("END"); ) { // the outer shell is frozen: no end of file
            out.append(line).append('\n');
            int eq = line.indexOf('=');
            if (line.startsWith("RUNAWAY_FIRST_LEVER_") && eq > 0) env.put(line.substring(0, eq), line.substring(eq + 1));
        }
        env.put("output", out.toString());
        try {
            handedOver(env, RtKill.Reason.EXCLUDED, "pid " + outer.pid());
            assertThat(outer.isAlive()).isTrue();
            assertThat(runaway.memberPids()).contains((int) outer.pid()).hasSize(4);
        } finally {
            thaw(runaway);
        }
    }

    @Test
    void aRootAndItsDescendantsAloneAreKilledByPidAndByChain() throws Exception {
        for (String option : List.of("--pid", "--chain")) {
            CgroupSandbox runaway = sandbox("tree" + option);
            int root = tree(runaway, "/bin/sleep 600 & /bin/sleep 600 & wait", 3);
            ProcessIdentity id = identity(root);
            Map<String, String> env = FirstLeverLaunchTest.run(sandbox("launcher" + option), temp, true, "stop", option, Integer.toString(root), "--yes");
            killedAndConfirmed(env, runaway, option.equals("--pid") ? new Selector.Process(id) : new Selector.Chain(id));
        }
    }

    /** Another user's process of the root's program, not its descendant: the freeze's evidence takes it, the kill never. */
    @Test
    void aProcessOfTheRootsProgramThatDoesNotDescendFromItIsNotKilledAndSurvives() throws Exception {
        for (String option : List.of("--pid", "--chain")) {
            CgroupSandbox runaway = sandbox("root-stranger" + option);
            Process root = runaway.start(new ProcessBuilder(key.toString(), "600"));
            Process stranger = asNobody(runaway, key.toString(), "600");
            awaitMembers(runaway, 2);
            ProcessIdentity id = identity((int) root.pid());
            Map<String, String> env = FirstLeverLaunchTest.run(sandbox("launcher" + option), temp, true, "stop", option,
                    Long.toString(root.pid()), "--yes");
            try {
                handedOver(env, RtKill.Reason.STRANGER, "pid " + stranger.pid() + " does not descend from pid " + root.pid());
                assertThat(stranger.isAlive()).isTrue();
                assertThat(root.isAlive()).isTrue();
                assertThat(ProcStat.read(PROC, (int) root.pid()).map(ProcStat::identity)).contains(id);
            } finally {
                thaw(runaway);
            }
        }
    }
}
