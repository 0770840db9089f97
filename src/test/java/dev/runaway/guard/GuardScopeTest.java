// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.guard;

import dev.runaway.analysis.LiveAnalysis;
import dev.runaway.procfs.ProcStat;
import dev.runaway.procfs.PulseReader;
import dev.runaway.sandbox.CgroupLayout;
import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import dev.runaway.stop.act.Actuator;
import dev.runaway.stop.plan.Disposable;
import dev.runaway.stop.StopCore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The guard's hold is one user's runaway, driven by unprivileged users: {@code nobody} runs an
 * idle copy of a shared tool, a second uid (65533, no account needed) a recursion of the same
 * tool. The guard holds the recursion; nobody's copy is never stopped, frozen or killed, by the
 * hold, its release or kill-after, and never decides whose runaway it is. And no command line
 * exempts a runaway: one carrying this JVM's {@code --owner PID:START} is held all the same.
 * The guard's policy watches only this test's sandboxes.
 */
@Tag("process")
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class GuardScopeTest {
    private static final Path PROC = Path.of("/proc");
    private static final int NOBODY = 65534;
    private static final int ATTACKER = 65533;
    /** A shared tool: "idle" waits forever; otherwise it runs itself one level deeper every 0.3 s. */
    private static final String TOOL = """
            #!/bin/bash
            if [ "$1" = idle ]; then while :; do sleep 1; done; fi
            sleep 0.3
            /bin/bash "$0" $(( $1 + 1 )) "${@:2}"
            """;
    private final StringWriter journal = new StringWriter();
    private final Map<String, String> endedHow = new ConcurrentHashMap<>();
    private LiveAnalysis live;
    private String guardDirBefore;
    private Path tool;

    @BeforeEach
    void watch(@TempDir Path dir) throws Exception {
        assumeTrue(new com.sun.security.auth.module.UnixSystem().getUid() == 0, "the guard holds as root");
        guardDirBefore = System.getProperty("runaway.guard.dir");
        System.setProperty("runaway.guard.dir", dir.resolve("guard").toString());
        // Readable by both users: a folder of its own under /tmp (the test's temp folder is root's alone).
        Path shared = Files.createTempDirectory(Path.of("/tmp"), "runaway-guardscope-");
        Files.setAttribute(shared, "unix:mode", 0755);
        tool = shared.resolve("tool.sh");
        Files.writeString(tool, TOOL);
        Files.setAttribute(tool, "unix:mode", 0755);
        live = LiveAnalysis.live();
        live.start();
        live.awaitLatest();
    }

    @AfterEach
    void stop() throws Exception {
        if (live != null) live.close();
        if (guardDirBefore == null) System.clearProperty("runaway.guard.dir");
        else System.setProperty("runaway.guard.dir", guardDirBefore);
        if (tool != null) {
            Files.deleteIfExists(tool);
            Files.deleteIfExists(tool.getParent());
        }
    }

    private Guard guard(List<String> cgroups, GuardPolicy policy) {
        Actuator actuator = new Actuator(PROC, forStop -> null);
        StopCore core = new StopCore(PROC, PulseReader.live(), actuator, Disposable.forThisUser());
        Guard.Notices timed = new Guard.Notices() {
            @Override
            public void held(HeldGroup held, Guard guard) {
            }

            @Override
            public void ended(HeldGroup held, String how) {
                endedHow.put(held.key(), how);
            }
        };
        return new Guard(live, core, policy.watchingOnly(cgroups), false, timed, new PrintWriter(journal, true)).start();
    }

    /** The tool with ARGS, run as UID in BOX; returns the bash's pid. */
    private int run(Sandbox box, int uid, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("/usr/bin/setpriv", "--reuid=" + uid, "--regid=" + uid, "--clear-groups",
                "/bin/bash", tool.toString()));
        command.addAll(List.of(args));
        int pid = (int) box.start(new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)).pid();
        await().atMost(Duration.ofSeconds(10)).until(() -> comm(pid).equals("bash"));
        return pid;
    }

    /** Returns once the live analysis groups PID under the tool's key (its command line read): the key spans users from then on. */
    private void awaitKeyed(int pid) {
        await().atMost(Duration.ofSeconds(30)).until(() -> live.latest().groups().stream()
                .anyMatch(g -> g.command().equals(tool.toString()) && g.pids().contains(pid)));
    }

    private static String comm(int pid) {
        return ProcStat.read(PROC, pid).map(ProcStat::comm).orElse("");
    }

    private static String cgroupOf(int pid) throws Exception {
        for (String line : Files.readAllLines(PROC.resolve(pid + "/cgroup"))) if (line.startsWith("0::")) return line.substring(3);
        throw new AssertionError("no v2 cgroup for " + pid);
    }

    private static String read(String cgroup, String file) throws Exception {
        return Files.readString(CgroupLayout.detect().unified().orElseThrow().resolve(cgroup.substring(1)).resolve(file)).trim();
    }

    /** Samples a process's state every 10 ms from now until closed: every state it was seen in. */
    private static final class States implements AutoCloseable {
        final Set<Character> seen = ConcurrentHashMap.newKeySet();
        private final Thread thread;
        private volatile boolean done;

        States(int pid) {
            thread = new Thread(() -> {
                while (!done) {
                    ProcStat.read(PROC, pid).ifPresentOrElse(s -> seen.add(s.state()), () -> seen.add('-'));
                    try {
                        Thread.sleep(10);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "states-" + pid);
            thread.setDaemon(true);
            thread.start();
        }

        @Override
        public void close() throws InterruptedException {
            done = true;
            thread.join();
        }
    }

    private static String heldKey(int seconds) {
        await().atMost(Duration.ofSeconds(seconds)).pollInterval(Duration.ofMillis(50)).until(() -> !GuardState.read().isEmpty());
        return GuardState.read().keySet().iterator().next();
    }

    @Test
    void anotherUsersIdleCopyInTheSameCgroupIsNeitherStoppedByTheHoldNorKilledByKillAfter() throws Exception {
        try (Sandbox box = Sandboxes.create(SandboxSpec.of("test-guardscope-shared", 100))) {
            int victim = run(box, NOBODY, "idle");
            awaitKeyed(victim);
            String cgroup = cgroupOf(victim);
            try (States states = new States(victim);
                 Guard g = guard(List.of(cgroup), GuardPolicy.parse(List.of("kill-after = 3s")))) {
                run(box, ATTACKER, "0");
                String key = heldKey(60);
                assertThat(key).isEqualTo(tool.toString());
                HeldGroup held = GuardState.read().get(key);
                String frozen = read(cgroup, "cgroup.freeze");
                await().atMost(Duration.ofSeconds(60)).until(() -> endedHow.containsKey(key));
                states.close();
                assertThat(states.seen).as("nobody's copy, sampled every 10 ms through hold and kill-after: " + journal)
                        .doesNotContain('T', 't', '-');
                assertThat(held.owner()).as("the recursion's user decides, not the lowest pid's").isEqualTo(ATTACKER);
                assertThat(frozen).as("a cgroup nobody's copy shares is not frozen").isEqualTo("0");
                assertThat(endedHow.get(key)).as(journal.toString()).startsWith("stopped to zero");
                assertThat(comm(victim)).as("alive").isEqualTo("bash");
                assertThat(box.memberPids().stream().map(GuardScopeTest::uidOf).filter(uid -> uid >= 0).toList())
                        .as("every process of uid " + ATTACKER + " killed, nobody's copy left").isNotEmpty().containsOnly(NOBODY);
            }
        }
    }

    @Test
    void aRecursionBesideAnotherUsersCopyInACgroupOfItsOwnIsHeldAndReleasedAlone() throws Exception {
        try (Sandbox mine = Sandboxes.create(SandboxSpec.of("test-guardscope-victim", 16));
             Sandbox theirs = Sandboxes.create(SandboxSpec.of("test-guardscope-attacker", 100))) {
            int victim = run(mine, NOBODY, "idle");
            awaitKeyed(victim);
            String victimCgroup = cgroupOf(victim);
            int top = run(theirs, ATTACKER, "0");
            String attackerCgroup = cgroupOf(top);
            try (States states = new States(victim);
                 Guard g = guard(List.of(victimCgroup, attackerCgroup), GuardPolicy.DEFAULTS)) {
                String key = heldKey(60);
                HeldGroup held = GuardState.read().get(key);
                assertThat(held.owner()).isEqualTo(ATTACKER);
                assertThat(held.lever()).as("the recursion has its cgroup to itself").isEqualTo("FREEZE_CGROUP");
                assertThat(held.cgroup()).isEqualTo(attackerCgroup);
                assertThat(journal.toString()).contains("HELD " + key + " of uid " + ATTACKER).contains("the key spans 2 users");
                assertThat(read(victimCgroup, "cgroup.events")).contains("frozen 0");
                assertThat(g.release(key, "the test")).isPresent();
                assertThat(read(attackerCgroup, "cgroup.freeze")).isEqualTo("0");
                states.close();
                assertThat(states.seen).as("nobody's copy through hold and release: " + journal).doesNotContain('T', 't', '-');
                assertThat(comm(victim)).isEqualTo("bash");
            }
        }
    }

    @Test
    void aRecursionCarryingThisProcesssOwnerArgumentIsHeldAllTheSame() throws Exception {
        ProcStat me = ProcStat.read(PROC, (int) ProcessHandle.current().pid()).orElseThrow();
        try (Sandbox box = Sandboxes.create(SandboxSpec.of("test-guardscope-owner", 100))) {
            // As a sandbox watchdog of this JVM names it: on the code before, it made the recursion "this console".
            int top = run(box, ATTACKER, "0", "--owner", me.pid() + ":" + me.startTicks());
            try (Guard g = guard(List.of(cgroupOf(top)), GuardPolicy.DEFAULTS)) {
                String key = heldKey(60);
                assertThat(key).isEqualTo(tool.toString());
                assertThat(GuardState.read().get(key).owner()).isEqualTo(ATTACKER);
                // The sandbox's own watchdog, which this JVM started, is still its own: by pid and start time as recorded.
                int watchdog = ((dev.runaway.sandbox.CgroupSandbox) box).watchdogPid();
                await().atMost(Duration.ofSeconds(10)).until(() -> live.latest().groups().stream()
                        .anyMatch(gr -> gr.command().equals("this console") && gr.pids().contains(watchdog)));
            }
        }
    }

    /** The owner of /proc/PID; -1 when gone. */
    private static int uidOf(int pid) {
        try {
            return (Integer) Files.getAttribute(PROC.resolve(Integer.toString(pid)), "unix:uid");
        } catch (java.io.IOException e) {
            return -1;
        }
    }
}
