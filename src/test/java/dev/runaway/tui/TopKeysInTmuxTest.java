// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.tui;

import dev.runaway.drill.Drill;
import dev.runaway.drill.Drills;
import dev.runaway.drill.Scenario;
import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code runaway top} driven in a real terminal (tmux) with the keys htop users have in their
 * fingers, on an orphans drill: F1 help, a click on the drill's row then F9 (its stop's plan,
 * cancelled: nothing done), / filter, F5 the chain tree, F6 sort, F10 quit with the terminal's mode given back. The JVM runs
 * under strace: from its start to its exit it starts no process (no stty, no infocmp), which is
 * what lets top open and read keys while a runaway holds the machine at a task cap.
 */
@Tag("process")
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class TopKeysInTmuxTest {
    private static final Duration LIFETIME = Duration.ofMinutes(3);

    @TempDir
    Path dir;

    private String topCommand() {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        return "stty -g > " + dir.resolve("before") + "; strace -f -qq --seccomp-bpf -e trace=execve,fork,vfork,clone,clone3 -o "
                + dir.resolve("strace") + " " + java + " -Xmx256m -XX:+UseSerialGC -XX:CICompilerCount=2 -cp " + classpath
                + " -Drunaway.native.dir=" + System.getProperty("runaway.native.dir") + " dev.runaway.cli.Main top; echo $? > "
                + dir.resolve("status") + "; stty -g > " + dir.resolve("after") + "; sleep 300";
    }

    @Test
    void f1HelpAClickF9PlanFilterF5TreeF6SortAndF10QuitStartingNoProcess() throws Exception {
        try (Drill drill = Drills.start(Scenario.ORPHANS, 120, LIFETIME, false);
             Sandbox pane = Sandboxes.create(SandboxSpec.of("test-top-keys-pane", 256).withLifetime(LIFETIME));
             Sandbox clients = Sandboxes.create(SandboxSpec.of("test-top-keys-clients", 32).withLifetime(LIFETIME));
             TmuxPane tmux = TmuxPane.start(pane, clients, 160, 50, topCommand())) {
            String id = drill.info().id();
            // Its row in the table, not the header's "DRILL <id> (contained practice)" above it.
            java.util.function.Predicate<String> drillRow = l -> l.contains("DRILL " + id) && !l.startsWith("RUNAWAY");
            tmux.await("the drill's group", s -> s.lines().anyMatch(drillRow), 90);

            tmux.keys("F1");
            String help = tmux.await("the help", s -> s.contains("RUNAWAY TOP: KEYS"), 20);
            assertThat(help).contains("F9  or k").contains("F10 or q").contains("F5  or t").doesNotContain("FLAGS T/Z");
            tmux.keys("Escape");
            tmux.await("the table again", s -> s.contains("F9/k stop the selected group"), 20);

            // A left click on the drill's row (SGR report: button 0, column 10, row from 1) selects it: F9 plans its stop.
            String plan = null;
            List<String> missed = new java.util.ArrayList<>(); // what each click that missed planned: the failure says
            for (int attempt = 0; attempt < 5 && plan == null; attempt++) {
                List<String> lines = tmux.screen().lines().toList();
                int row = 0;
                while (row < lines.size() && !drillRow.test(lines.get(row))) row++;
                assertThat(row).as("the drill's row is on screen").isLessThan(lines.size());
                tmux.raw(String.format("\033[<0;10;%dM\033[<0;10;%dm", row + 1, row + 1));
                tmux.keys("F9");
                String shown = tmux.await("a plan", s -> s.contains("Enter: stop these") || s.contains("Nothing to stop"), 60);
                if (shown.contains("GUIDED STOP  /tmp/runaway-" + id)) plan = shown;
                else missed.add("clicked row " + (row + 1) + " of: " + String.join(" | ", lines.subList(0, Math.min(lines.size(), row + 3)))
                        + "; planned: " + shown.lines().filter(l -> l.contains("GUIDED STOP") || l.contains("Nothing to stop")).findFirst().orElse("?"));
                tmux.keys("Escape"); // the rows moved between the capture and the click: again
                tmux.await("the table again", s -> s.contains("F9/k stop the selected group"), 20);
            }
            assertThat(plan).as("the click selected the drill's group; the clicks that missed: %s", missed).isNotNull().contains("Enter: stop these");
            assertThat(drill.sandbox().memberPids()).as("Esc cancelled: nothing was done").isNotEmpty();

            tmux.keys("/");
            tmux.type(id);
            tmux.keys("Enter");
            tmux.await("the filter", s -> s.contains("1 match \"" + id + "\""), 20);

            tmux.keys("F5");
            String tree = tmux.await("the chain tree", s -> s.contains(", tree.") && s.contains("chain from pid"), 20);
            assertThat(tree).contains("(parented to init)").contains("├─ chain from pid");

            tmux.keys("F6");
            tmux.await("the sort by tasks", s -> s.contains("by tasks, tree."), 20);

            tmux.keys("F10");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!Files.exists(dir.resolve("after")) && System.nanoTime() < deadline) Thread.sleep(100);
            assertThat(dir.resolve("after")).as("F10 quit top and the shell ran on").exists();
            assertThat(Files.readString(dir.resolve("status")).trim()).isEqualTo("0");
            assertThat(Files.readString(dir.resolve("after"))).as("the terminal's mode given back")
                    .isEqualTo(Files.readString(dir.resolve("before")));

            List<String> calls = Files.readAllLines(dir.resolve("strace"));
            assertThat(calls.stream().filter(l -> l.contains("execve(") && !l.contains("ENOENT")))
                    .as("one execve: the JVM itself; no stty, no infocmp").hasSize(1);
            assertThat(calls.stream().filter(l -> (l.contains("clone(") || l.contains("clone3(") || l.contains("fork("))
                    && !l.contains("CLONE_THREAD") && !l.contains("resumed>")))
                    .as("no process started (every clone is a thread)").isEmpty();
            assertThat(calls.stream().filter(l -> l.contains("clone")).count()).as("strace saw the JVM's threads").isPositive();
        }
    }
}
