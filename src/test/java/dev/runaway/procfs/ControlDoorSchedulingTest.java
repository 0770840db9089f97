// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import dev.runaway.sys.Sched;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A root door answers a stop's question during a fire: root's question is decided ahead of
 * ordinary tasks (a sampler's lineage door did not answer a stop within 10 s beside a
 * 1,000-task daemonizer), a user's at the ordinary policy, and the accepting thread that anyone
 * can keep busy has a large share (nice -20) but is never real-time.
 */
@Tag("process")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ControlDoorSchedulingTest {
    @TempDir
    Path dir;

    @Test
    void rootsQuestionIsDecidedAheadOfOrdinaryTasksAUsersIsNotAndTheDoorIsNeverRealTime() throws Exception {
        assumeTrue(new com.sun.security.auth.module.UnixSystem().getUid() == 0, "the door is root's");
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/python3")), "python3 asks as nobody");
        List<String> decided = new CopyOnWriteArrayList<>();
        Files.setAttribute(dir, "unix:mode", 0755); // nobody passes through to the socket
        Path socket = dir.resolve("door").resolve("test.sock");
        try (ControlDoor door = ControlDoor.open(socket, "test", new ControlDoor.Answerer() {
            @Override
            public byte[] answer(byte[] line, int uid) {
                decided.add("uid " + uid + (Sched.ordinary(0) ? " ordinary" : " raised"));
                return ("OK " + uid + "\n").getBytes(StandardCharsets.US_ASCII);
            }

            @Override
            public byte[] refused(ControlDoor.Refusal why, String words) {
                return ("ERR " + why + "\n").getBytes(StandardCharsets.US_ASCII);
            }
        })) {
            String root = new String(ControlDoor.ask(socket, "Q\n".getBytes(StandardCharsets.US_ASCII), 100, Duration.ofSeconds(10)),
                    StandardCharsets.US_ASCII);
            assertThat(root).isEqualTo("OK 0\n");
            assertThat(decided).containsExactly("uid 0 raised");

            try (Sandbox box = Sandboxes.create(SandboxSpec.of("test-door-scheduling", 8))) {
                Process user = box.start(new ProcessBuilder("/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups",
                        "/usr/bin/python3", "-c", "import socket,sys\ns=socket.socket(socket.AF_UNIX)\ns.connect(sys.argv[1])\n"
                        + "s.sendall(b'Q\\n')\nprint(s.recv(100).decode().strip())", socket.toString()).redirectErrorStream(true));
                assertThat(user.waitFor(30, TimeUnit.SECONDS)).isTrue();
                String said = new String(user.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(said).as("nobody's answer").startsWith("OK ").doesNotContain("OK 0");
            }
            assertThat(decided).hasSize(2);
            assertThat(decided.get(1)).as("a user's question").endsWith(" ordinary").doesNotStartWith("uid 0");

            String doorThread = threadStat("runaway-test-door");
            assertThat(field(doorThread, 41)).as("the door's policy (0: ordinary)").isEqualTo("0");
            assertThat(field(doorThread, 19)).as("the door's nice").isEqualTo("-20");
        }
    }

    /** The stat line of this process's thread named {@code name}. */
    private static String threadStat(String name) throws Exception {
        try (var tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path t : tasks.toList()) {
                if (Files.readString(t.resolve("comm")).strip().equals(name.substring(0, Math.min(15, name.length())))) {
                    return Files.readString(t.resolve("stat"));
                }
            }
        }
        throw new AssertionError("no thread " + name);
    }

    /** Field N (1-based, as proc(5) counts) of a stat line; the command in parentheses may hold spaces. */
    private static String field(String stat, int n) {
        String[] after = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return after[n - 3];
    }
}
