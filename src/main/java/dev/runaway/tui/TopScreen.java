// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.tui;

import dev.runaway.analysis.Group;
import dev.runaway.analysis.GroupColumn;
import dev.runaway.analysis.LiveAnalysis;
import dev.runaway.analysis.Snapshot;
import dev.runaway.model.Units;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.util.Locale;

/**
 * {@code runaway top}: the live groups, most severe first, redrawn in place; usable over SSH.
 * Quits on q or Ctrl-C and gives the terminal back as it was.
 */
public final class TopScreen {
    private static final String HOME_CLEAR = "\033[H\033[2J";
    private static final String BOLD = "\033[1m";
    private static final String RED = "\033[31m";
    private static final String RESET = "\033[0m";

    private final LiveAnalysis live;
    private final PrintWriter out;

    public TopScreen(LiveAnalysis live, PrintWriter out) {
        this.live = live;
        this.out = out;
    }

    /** Full-screen until q; the terminal's size is read once at the start. */
    public void showInteractive(long refreshMillis) throws IOException, InterruptedException {
        int[] size = Terminal.size();
        try (Terminal terminal = Terminal.raw()) {
            InputStream keys = terminal.input();
            while (true) {
                Snapshot s = live.latest();
                out.print(HOME_CLEAR + (s == null ? "runaway top: first scan...\r\n" : frame(s, size[1], size[0] - 1, true)));
                out.flush();
                if (DrillScreen.waitForQuit(keys, refreshMillis)) return;
            }
        }
    }

    /** Batch: {@code iterations} frames of plain text, one every {@code delayMillis}. */
    public void showBatch(int iterations, long delayMillis) throws InterruptedException {
        for (int i = 0; i < iterations; i++) {
            Thread.sleep(delayMillis);
            Snapshot s = live.latest();
            while (s == null) {
                Thread.sleep(50);
                s = live.latest();
            }
            out.print(frame(s, 120, 40, false).replace("\r\n", "\n"));
            out.println();
            out.flush();
        }
    }

    /** One screen: the machine line, the header, then as many groups as fit. */
    static String frame(Snapshot s, int width, int height, boolean colour) {
        StringBuilder b = new StringBuilder();
        var p = s.pulse();
        b.append(colour ? BOLD : "").append("RUNAWAY").append(colour ? RESET : "")
                .append(String.format(Locale.ROOT, "  %s  tasks %d (%s %s)  forks %.0f/s%n", s.time(), p.tasks(),
                        s.totalGrowth().shape().json(), Units.perSecond(s.totalGrowth().perSecond()), s.forksPerSecond()))
                .append(String.format(Locale.ROOT, "memory %s / %s   swap %s / %s   pressure %s   scan %d processes in %d ms%n",
                        Units.bytes(p.memoryUsedBytes()), Units.bytes(p.memoryTotalBytes()), Units.bytes(p.swapUsedBytes()),
                        Units.bytes(p.swapTotalBytes()),
                        p.pressure().map(x -> String.format(Locale.ROOT, "%.1f%%", x.someAvg10())).orElse("n/a"),
                        s.processes(), s.scanNanos() / 1_000_000));
        b.append('\n');
        b.append(colour ? BOLD : "").append(GroupColumn.row(null, width)).append(colour ? RESET : "").append('\n');
        int room = Math.max(1, height - 6);
        int shown = 0;
        for (Group g : s.groups()) {
            if (shown++ >= room) break;
            boolean alarming = g.recursive() || g.secondsToExhaustion().isPresent();
            b.append(colour && alarming ? RED : "").append(GroupColumn.row(g, width)).append(colour && alarming ? RESET : "").append('\n');
        }
        b.append(String.format(Locale.ROOT, "%d groups; R recursive, I all parented to init.  q quits%n", s.groups().size()));
        return b.toString().replace("\n", "\r\n");
    }
}
