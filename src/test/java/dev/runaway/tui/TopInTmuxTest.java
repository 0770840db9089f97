package dev.runaway.tui;

import dev.runaway.drill.Drill;
import dev.runaway.drill.Drills;
import dev.runaway.drill.Scenario;
import dev.runaway.sandbox.CgroupSandbox;
import dev.runaway.sandbox.NativeBinaries;
import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code runaway top} as a user meets it, in a real terminal (tmux): select the runaway's
 * group, k, read the plan, Enter, watch the steps to zero confirmed, quit, and find the
 * terminal's mode as it was. Once on a drill, once at the task cap: top was opened before the
 * fire inside the very cgroup the runaway fills, so no process and no thread can start.
 */
@Tag("process")
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class TopInTmuxTest {
    private static final Duration LIFETIME = Duration.ofMinutes(3);

    @TempDir
    Path dir;

    /** The pane's command: top, with the terminal's mode written down before and after. */
    private String topCommand() {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        return "stty -g > " + dir.resolve("before") + "; " + java + " -Xmx256m -XX:+UseSerialGC -XX:CICompilerCount=2 -cp "
                + classpath + " -Drunaway.native.dir=" + System.getProperty("runaway.native.dir")
                + " dev.runaway.cli.Main top; echo $? > " + dir.resolve("status") + "; stty -g > " + dir.resolve("after")
                + "; sleep 300";
    }

    @Test
    void theGuidedStopDrivenThroughTopReachesZeroConfirmedOnADrill() throws Exception {
        try (Drill drill = Drills.start(Scenario.PRESSING, 60, LIFETIME, false);
             Sandbox pane = Sandboxes.create(SandboxSpec.of("test-top-pane", 256).withLifetime(LIFETIME));
             Sandbox clients = Sandboxes.create(SandboxSpec.of("test-top-clients", 32).withLifetime(LIFETIME));
             TmuxPane tmux = TmuxPane.start(pane, clients, 160, 50, topCommand())) {
            dev.runaway.sandbox.Caps.awaitRefusedFork(drill.sandbox(), 30);
            String id = drill.info().id();
            tmux.await("the drill's group", s -> s.contains("DRILL " + id + " /tmp/runaway-" + id + "/cache/tool"), 60);
            tmux.keys("/");
            tmux.type(id);
            tmux.keys("Enter");
            tmux.await("the filter", s -> s.contains("1 match \"" + id + "\""), 20);
            tmux.keys("k");
            String plan = tmux.await("the plan", s -> s.contains("Enter: stop these"), 30);
            assertThat(plan).contains("GUIDED STOP  /tmp/runaway-" + id + "/cache/tool").contains("1. Stop growth: freeze the cgroup");
            assertThat(drill.sandbox().memberPids()).as("nothing is done before Enter").isNotEmpty();
            tmux.keys("Enter");
            String done = tmux.await("zero confirmed", s -> s.contains("ZERO CONFIRMED") || s.contains("ZERO NOT REACHED"), 60);
            assertThat(done).contains("ZERO CONFIRMED").contains("stop growth   freeze").contains("confirm zero");
            assertThat(drill.sandbox().memberPids()).isEmpty();
            quitAndCheckTheTerminal(tmux);
        }
    }

    @Test
    void topOpenedBeforeTheFireStopsARunawayAtTheTaskCapAndGivesTheTerminalBack() throws Exception {
        Path tool = Files.createDirectories(dir.resolve("cache")).resolve("tool");
        Files.copy(NativeBinaries.find(NativeBinaries.DRILL_WORKER), tool, StandardCopyOption.REPLACE_EXISTING);
        try (Sandbox fire = Sandboxes.create(SandboxSpec.of("test-top-at-cap", 300).withLifetime(LIFETIME));
             Sandbox clients = Sandboxes.create(SandboxSpec.of("test-top-clients", 32).withLifetime(LIFETIME));
             TmuxPane tmux = TmuxPane.start(fire, clients, 160, 50, topCommand())) {
            tmux.await("top's first frame", s -> s.contains("k stop the selected group"), 60);
            fire.start(new ProcessBuilder(tool.toString(), "pressing", "50").redirectError(ProcessBuilder.Redirect.DISCARD));
            dev.runaway.sandbox.Caps.awaitRefusedFork(fire, 30);
            Path cap = ((CgroupSandbox) fire).dirs().capDir();
            long refused = fire.failedForks();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (fire.failedForks() < refused + 100 && System.nanoTime() < deadline) Thread.sleep(50);
            assertThat(fire.failedForks()).as("every fork in the cgroup is refused now").isGreaterThanOrEqualTo(refused + 100);
            assertThat(Files.readString(cap.resolve("pids.current")).trim()).isEqualTo("300");

            tmux.keys("/");
            tmux.type(dir.getFileName().toString());
            tmux.keys("Enter");
            tmux.await("the runaway's group at the cap", s -> s.contains(tool.toString()) && s.contains("1 match"), 60);
            tmux.keys("k");
            tmux.await("the plan", s -> s.contains("Enter: stop these"), 60);
            assertThat(Files.readString(cap.resolve("pids.current")).trim()).as("still at the cap when Enter is pressed")
                    .isEqualTo("300");
            tmux.keys("Enter");
            String done = tmux.await("the outcome", s -> s.contains("ZERO CONFIRMED") || s.contains("ZERO NOT REACHED"), 90);
            assertThat(done).contains("ZERO CONFIRMED");
            for (int pid : fire.memberPids()) {
                assertThat(Files.readSymbolicLink(Path.of("/proc", Integer.toString(pid), "exe")).toString())
                        .as("pid %d is not the runaway", pid).isNotEqualTo(tool.toString());
            }
            quitAndCheckTheTerminal(tmux);
        }
    }

    /** Esc back to the table, q: top exits 0 and the terminal's mode is what it was before. */
    private void quitAndCheckTheTerminal(TmuxPane tmux) throws Exception {
        tmux.keys("Escape");
        tmux.await("the table again", s -> s.contains("k stop the selected group"), 20);
        tmux.keys("q");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!Files.exists(dir.resolve("after")) && System.nanoTime() < deadline) Thread.sleep(100);
        assertThat(dir.resolve("after")).as("top quit and the shell ran on").exists();
        assertThat(Files.readString(dir.resolve("status")).trim()).isEqualTo("0");
        assertThat(Files.readString(dir.resolve("after"))).as("the terminal's mode given back")
                .isEqualTo(Files.readString(dir.resolve("before")));
    }
}
