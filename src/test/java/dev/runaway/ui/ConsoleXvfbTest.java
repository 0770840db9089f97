// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.ui;

import dev.runaway.cli.Main;
import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The console in a real window (GTK under Xvfb, no Monocle), started as a user would
 * ({@code runaway console --drill orphans}): the window opens, shows the DRILL banner and the
 * drill's chains and charts, and is kept as target/console-xvfb.png; Ctrl+Q closes it and the
 * drill is torn down. Everything it starts runs in a sandbox of its own.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("process")
@org.junit.jupiter.api.Tag("window")
class ConsoleXvfbTest {
    static final Path SHOT = Path.of("target", "console-xvfb.png");

    @Test
    void theRealWindowShowsADrillAndClosesCleanly() throws Exception {
        for (String tool : List.of("Xvfb", "xdotool", "import")) {
            assumeTrue(onPath(tool), tool + " is missing: install with src/main/sh/install-deps --test");
        }
        String display = freeDisplay();
        Path log = Path.of("target", "console-xvfb.log");
        try (Sandbox box = Sandboxes.create(SandboxSpec.of("test-console-xvfb", 400))) {
            Process xvfb = box.start(new ProcessBuilder("Xvfb", display, "-screen", "0", "1400x900x24", "-nolisten", "tcp")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD));
            Path socket = Path.of("/tmp/.X11-unix/X" + display.substring(1));
            waitFor(() -> Files.exists(socket), 20, "Xvfb to listen on " + socket);
            assumeTrue(xvfb.isAlive(), "Xvfb could not run here");

            String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            ProcessBuilder app = new ProcessBuilder(java, "-Xmx512m", "-cp", classpath,
                    "-Drunaway.native.dir=" + System.getProperty("runaway.native.dir"), Main.class.getName(),
                    "console", "--drill", "orphans", "--max-tasks", "150", "--no-record")
                    .redirectErrorStream(true).redirectOutput(log.toFile());
            app.environment().put("DISPLAY", display);
            Process console = box.start(app);
            try {
                String[] window = {""};
                waitFor(() -> {
                    window[0] = run(box, display, "xdotool", "search", "--name", "Runaway console: DRILL").trim();
                    return !window[0].isEmpty();
                }, 60, "the console window with a drill");
                String id = window[0].lines().findFirst().orElseThrow();
                waitFor(() -> Files.readString(log).contains("DRILL drill-orphans"), 30, "the drill to start");
                Thread.sleep(8000); // the drill grows to its cap; the charts fill
                run(box, display, "import", "-window", id, SHOT.toString());
                BufferedImage png = ImageIO.read(SHOT.toFile());
                assertThat(png.getWidth()).isGreaterThanOrEqualTo(1200);
                assertThat(colours(png)).as("distinct colours: a drawn window, not a blank one").isGreaterThan(200);
                assertThat(hasColour(png, 0xb35900)).as("the orange DRILL banner").isTrue();

                run(box, display, "xdotool", "key", "--window", id, "ctrl+q");
                assertThat(console.waitFor(40, TimeUnit.SECONDS)).as("the console exits after Ctrl+Q").isTrue();
                assertThat(console.exitValue()).isZero();
                assertThat(Files.readString(log)).contains("the window showed").contains("Tearing the drill down");
            } finally {
                console.destroyForcibly();
                xvfb.destroy();
            }
        }
    }

    /**
     * As root a console starts real-time (runaway-rt, as the package's launcher starts it), so
     * that one opened during a fire paints without waiting behind the fire; its X server is raised
     * with it. At its first scan status its window's threads and its X server are ordinary again,
     * or raised for the display if the machine is found overloaded (ui/BornRaised, OverloadRaise).
     */
    @Test
    void aConsoleStartedRealTimeIsOrdinaryFromItsFirstScan() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "real-time needs root");
        assumeTrue(onPath("Xvfb"), "Xvfb is missing: install with src/main/sh/install-deps --test");
        Path rt = Path.of(System.getProperty("runaway.native.dir"), "runaway-rt").toAbsolutePath();
        String display = freeDisplay();
        Path log = Path.of("target", "console-born-raised.log");
        try (Sandbox box = Sandboxes.create(SandboxSpec.of("test-console-born-raised", 400))) {
            Process xvfb = box.start(new ProcessBuilder("Xvfb", display, "-screen", "0", "1280x800x24", "-nolisten", "tcp")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD));
            Path socket = Path.of("/tmp/.X11-unix/X" + display.substring(1));
            waitFor(() -> Files.exists(socket), 20, "Xvfb to listen on " + socket);
            String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
            String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            ProcessBuilder app = new ProcessBuilder(rt.toString(), javaBin, "-Xmx512m", "-cp", classpath,
                    "-Drunaway.native.dir=" + System.getProperty("runaway.native.dir"), Main.class.getName(), "console", "--no-record")
                    .redirectErrorStream(true).redirectOutput(log.toFile());
            app.environment().put("DISPLAY", display);
            Process console = box.start(app);
            try {
                waitFor(() -> Files.readString(log).contains("ordinary from its first scan on"), 60, "the console's first scan");
                String said = Files.readString(log);
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\((\\d+) threads and its X server lowered\\)").matcher(said);
                assertThat(m.find()).as("the console and its X server started raised, then lowered: " + said).isTrue();
                assertThat(Integer.parseInt(m.group(1))).as("threads started real-time").isGreaterThan(10);
                // Ordinary, or (the suite's load can make the console find the machine overloaded) raised
                // again for the display at priority 2, never left at the start's inherited priority 1.
                try {
                    waitFor(() -> settled(scheduling(console.pid(), "JavaFX Applicat")) && settled(scheduling(console.pid(), "QuantumRenderer"))
                            && settled(scheduling(xvfb.pid(), "")), 20, "the window's threads and its X server ordinary again");
                } catch (AssertionError e) {
                    throw new AssertionError(e.getMessage() + ": JavaFX " + scheduling(console.pid(), "JavaFX Applicat") + ", renderer "
                            + scheduling(console.pid(), "QuantumRenderer") + ", X server " + scheduling(xvfb.pid(), "") + "; " + Files.readString(log), e);
                }
            } finally {
                console.destroyForcibly();
                xvfb.destroy();
            }
        }
    }

    /** Each thread ordinary (0) or raised for the display (round-robin at priority 2: 22); none at the start's priority 1. */
    private static boolean settled(List<Integer> scheduling) {
        return !scheduling.isEmpty() && scheduling.stream().allMatch(p -> p == 0 || p == 22);
    }

    /**
     * The scheduling of each thread whose name starts so, as policy x 10 + real-time priority
     * (0: ordinary, 21 and 22: round-robin at 1 and 2), from fields 40 and 41 of /proc/PID/task/TID/stat.
     */
    private static List<Integer> scheduling(long pid, String name) throws IOException {
        List<Integer> out = new java.util.ArrayList<>();
        try (var tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            for (Path task : tasks.toList()) {
                String stat = Files.readString(task.resolve("stat"));
                if (!stat.substring(stat.indexOf('(') + 1).startsWith(name)) continue;
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                out.add(Integer.parseInt(f[38]) * 10 + Integer.parseInt(f[37])); // policy, rt_priority
            }
        } catch (java.nio.file.NoSuchFileException gone) {
            // the process or a thread ended: what was read stands
        }
        return out;
    }

    private static String run(Sandbox box, String display, String... command) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put("DISPLAY", display);
        Process p = box.start(pb);
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(20, TimeUnit.SECONDS);
        return out;
    }

    private static int colours(BufferedImage img) {
        Set<Integer> seen = new HashSet<>();
        for (int y = 0; y < img.getHeight(); y += 3) for (int x = 0; x < img.getWidth(); x += 3) seen.add(img.getRGB(x, y) & 0xffffff);
        return seen.size();
    }

    private static boolean hasColour(BufferedImage img, int rgb) {
        for (int y = 0; y < img.getHeight(); y++) for (int x = 0; x < img.getWidth(); x++) if ((img.getRGB(x, y) & 0xffffff) == rgb) return true;
        return false;
    }

    private static String freeDisplay() {
        for (int n = 140; n < 200; n++) {
            if (!Files.exists(Path.of("/tmp/.X11-unix/X" + n)) && !Files.exists(Path.of("/tmp/.X" + n + "-lock"))) return ":" + n;
        }
        throw new IllegalStateException("no free X display number");
    }

    private static boolean onPath(String tool) {
        for (String dir : System.getenv("PATH").split(":")) if (Files.isExecutable(Path.of(dir, tool))) return true;
        return false;
    }

    interface Check {
        boolean ok() throws Exception;
    }

    private static void waitFor(Check check, int seconds, String what) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!check.ok()) {
            if (System.nanoTime() > deadline) throw new AssertionError("waited " + seconds + " s for " + what);
            Thread.sleep(250);
        }
    }
}
