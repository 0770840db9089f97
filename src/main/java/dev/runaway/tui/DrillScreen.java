// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.tui;

import dev.runaway.drill.Drill;
import dev.runaway.model.Units;
import dev.runaway.sandbox.SampleRates;
import dev.runaway.sandbox.SandboxMonitor;
import dev.runaway.sandbox.SandboxSample;

import dev.runaway.procfs.PulseReader;
import dev.runaway.stop.act.Actuator;
import dev.runaway.stop.plan.Disposable;
import dev.runaway.stop.Selector;
import dev.runaway.stop.StopCore;
import dev.runaway.stop.StopSession;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The terminal face of a running drill, for a machine without a display or a session over
 * SSH: redraws a small screen four times a second until the user presses q (or Ctrl-C),
 * the drill's lifetime ends, or the input closes. Restores the terminal on every way out.
 */
public final class DrillScreen {
    private static final String CLEAR = "\033[H\033[2J";
    private static final String BOLD = "\033[1m";
    private static final String RESET = "\033[0m";
    private static final Path PROC = Path.of("/proc");
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss");
    private static final char[] BARS = "▁▂▃▄▅▆▇█".toCharArray();

    private final Drill drill;
    private final SandboxMonitor monitor;
    private final PrintWriter out;

    public DrillScreen(Drill drill, SandboxMonitor monitor, PrintWriter out) {
        this.drill = drill;
        this.monitor = monitor;
        this.out = out;
    }

    /**
     * Interactive: raw keys from the terminal, full-screen redraws. q tears the drill down; k opens
     * the guided stop of the drill's cgroup (Enter runs it, Esc cancels), as a user would stop a
     * real runaway. Blocks until done.
     */
    public void showInteractive() throws IOException, InterruptedException {
        boolean root = dev.runaway.sys.LibC.INSTANCE.geteuid() == 0;
        java.util.concurrent.ExecutorService worker = TerminalStop.worker();
        try (Actuator actuator = dev.runaway.stop.Actuators.forThisUser(PROC);
             Terminal terminal = Terminal.raw()) {
            TerminalStop stop = null;
            while (!expired() || stop != null && !stop.closable()) {
                int width = terminal.size()[1];
                String screen = stop == null ? render(width) : render(width).lines().limit(3)
                        .reduce("", (a, l) -> a + l + "\r\n") + "\r\n" + String.join("\r\n", stop.lines().stream()
                        .flatMap(l -> TopView.wrap(l, width).stream()).toList()) + "\r\n";
                out.print(CLEAR + screen);
                out.flush();
                Keys.Key key = terminal.keys().next(250);
                if (key == null) continue;
                if (stop != null) {
                    if (key.kind() == Keys.Kind.ENTER && !stop.confirm() && stop.closable()) stop = null;
                    else if ((key.kind() == Keys.Kind.ESCAPE || key.is('q')) && stop.closable()) {
                        stop.cancel();
                        stop = null;
                    }
                    continue;
                }
                if (quits(key)) return;
                if (key.is('k') || key.is('K')) stop = openStop(actuator, root, worker);
            }
        } finally {
            worker.shutdown();
        }
    }

    private static boolean quits(Keys.Key key) {
        return key.is('q') || key.is('Q') || key.kind() == Keys.Kind.INTERRUPT || key.kind() == Keys.Kind.CLOSED;
    }

    /**
     * The guided stop of everything in the drill's cgroup, as {@code runaway stop --cgroup} would
     * plan it; without a cgroup (the unprivileged sandbox), of its first process and all below it.
     */
    private TerminalStop openStop(Actuator actuator, boolean root, java.util.concurrent.Executor worker) {
        StopCore core = new StopCore(PROC, PulseReader.live(), actuator, Disposable.forThisUser());
        Selector selector;
        if (drill.sandbox() instanceof dev.runaway.sandbox.CgroupSandbox) {
            selector = new Selector.Cgroup(cgroupPath());
        } else {
            int pid = (int) drill.info().rootPid();
            var identity = StopSession.identityOf(PROC, pid);
            selector = new Selector.Process(identity == null ? new dev.runaway.model.ProcessIdentity(pid, 0) : identity);
        }
        return new TerminalStop("drill " + drill.info().id() + " (" + selector.label() + ")", () -> core.open(selector), worker, core::confirmed).open();
    }

    /** The drill's v2 cgroup as /proc/PID/cgroup names it (its path below the v2 mount). */
    private String cgroupPath() {
        Path dir = ((dev.runaway.sandbox.CgroupSandbox) drill.sandbox()).dirs().memberDir();
        Path mount = dev.runaway.sandbox.CgroupLayout.detect().unified().orElse(dev.runaway.sandbox.CgroupLayout.SYS_FS_CGROUP);
        return "/" + mount.relativize(dir);
    }

    /** Plain lines (no terminal): one status line a second until the lifetime ends or interrupted. */
    public void showLines() throws InterruptedException {
        out.println(drill.describe());
        while (!expired()) {
            SandboxSample s = monitor.sample();
            out.println(statusLine(s));
            out.flush();
            Thread.sleep(1000);
        }
    }

    private boolean expired() {
        return Instant.now().isAfter(drill.info().startedAt().plusSeconds(drill.info().lifetimeSeconds()));
    }

    String statusLine(SandboxSample s) {
        return String.format("%6.1f s  tasks %5d / %d  %s  memory %s  forks refused %d",
                s.secondsSinceStart(), s.tasks(), drill.info().maxTasks(),
                Units.perSecond(SampleRates.tasksPerSecond(monitor.history(), 1.0)), Units.bytes(s.rssBytes()),
                Math.max(0, s.failedForks()));
    }

    /** The whole screen as text, {@code width} columns wide. */
    String render(int width) {
        List<SandboxSample> history = monitor.history();
        SandboxSample s = history.isEmpty() ? monitor.sample() : history.get(history.size() - 1);
        int cap = drill.info().maxTasks();
        long left = Math.max(0, Duration.between(Instant.now(),
                drill.info().startedAt().plusSeconds(drill.info().lifetimeSeconds())).toSeconds());
        StringBuilder b = new StringBuilder();
        b.append(BOLD).append("RUNAWAY  DRILL ").append(drill.info().id()).append(RESET)
                .append("  (a contained practice incident)  ").append(LocalTime.now().format(CLOCK)).append("\r\n");
        b.append(drill.info().scenario().description()).append("\r\n\r\n");
        b.append(String.format("  tasks   %5d / %d  %s  %s\r\n", s.tasks(), cap, bar(s.tasks(), cap, 30),
                Units.perSecond(SampleRates.tasksPerSecond(history, 1.0))));
        b.append(String.format("  memory  %s\r\n", Units.bytes(s.rssBytes())));
        b.append(String.format("  forks refused by the cap: %d%s\r\n", Math.max(0, s.failedForks()),
                s.failedForks() > 0 ? "  (the cap is holding)" : ""));
        b.append(String.format("  elapsed %s, lifetime left %d s\r\n\r\n", Units.seconds(s.secondsSinceStart()), left));
        b.append("  tasks over time  ").append(sparkline(history, width - 20)).append("\r\n\r\n");
        b.append("  sandbox: ").append(drill.sandbox().containment()).append("\r\n\r\n");
        b.append(BOLD).append("  k").append(RESET).append(": the guided stop of the drill, as you would stop a real runaway (plan, Enter, steps)\r\n");
        b.append(BOLD).append("  q").append(RESET).append(": tear the drill down (stop growth, kill, confirm zero) and quit\r\n");
        return b.toString();
    }

    static String bar(int value, int max, int width) {
        int filled = max <= 0 ? 0 : (int) Math.min(width, Math.round((double) value * width / max));
        return "[" + "#".repeat(filled) + ".".repeat(width - filled) + "]";
    }

    /**
     * The whole drill so far in {@code width} bars, newest right: each bar is the highest task
     * count in its slice of time, scaled to the highest count overall.
     */
    static String sparkline(List<SandboxSample> history, int width) {
        if (history.isEmpty() || width <= 0) return "";
        int n = Math.min(width, history.size());
        int[] values = new int[n];
        for (int i = 0; i < history.size(); i++) {
            int bucket = (int) ((long) i * n / history.size());
            values[bucket] = Math.max(values[bucket], history.get(i).tasks());
        }
        int max = 1;
        for (int v : values) max = Math.max(max, v);
        StringBuilder b = new StringBuilder(n);
        for (int v : values) b.append(BARS[(int) ((long) v * (BARS.length - 1) / max)]);
        return b.toString();
    }
}
