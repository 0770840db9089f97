// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.tui;

import dev.runaway.drill.Drill;
import dev.runaway.model.Units;
import dev.runaway.sandbox.SampleRates;
import dev.runaway.sandbox.SandboxMonitor;
import dev.runaway.sandbox.SandboxSample;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
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
    private static final char[] BARS = "▁▂▃▄▅▆▇█".toCharArray();

    private final Drill drill;
    private final SandboxMonitor monitor;
    private final PrintWriter out;

    public DrillScreen(Drill drill, SandboxMonitor monitor, PrintWriter out) {
        this.drill = drill;
        this.monitor = monitor;
        this.out = out;
    }

    /** Interactive: raw keys from the terminal, full-screen redraws. Blocks until done. */
    public void showInteractive() throws IOException, InterruptedException {
        try (Terminal terminal = Terminal.raw()) {
            InputStream keys = terminal.input();
            while (!expired()) {
                out.print(CLEAR + render(80));
                out.flush();
                if (waitForQuit(keys, 250)) return;
            }
        }
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

    static boolean waitForQuit(InputStream keys, long millis) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMillis(millis).toNanos();
        while (System.nanoTime() < deadline) {
            while (keys.available() > 0) {
                int key = keys.read();
                if (key == 'q' || key == 'Q' || key == 3 || key == -1) return true;
            }
            Thread.sleep(20);
        }
        return false;
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
                .append("  (a contained practice incident)\r\n");
        b.append(drill.info().scenario().description()).append("\r\n\r\n");
        b.append(String.format("  tasks   %5d / %d  %s  %s\r\n", s.tasks(), cap, bar(s.tasks(), cap, 30),
                Units.perSecond(SampleRates.tasksPerSecond(history, 1.0))));
        b.append(String.format("  memory  %s\r\n", Units.bytes(s.rssBytes())));
        b.append(String.format("  forks refused by the cap: %d%s\r\n", Math.max(0, s.failedForks()),
                s.failedForks() > 0 ? "  (the cap is holding)" : ""));
        b.append(String.format("  elapsed %s, lifetime left %d s\r\n\r\n", Units.seconds(s.secondsSinceStart()), left));
        b.append("  tasks over time  ").append(sparkline(history, width - 20)).append("\r\n\r\n");
        b.append("  sandbox: ").append(drill.sandbox().containment()).append("\r\n\r\n");
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
