// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.tui;

import dev.runaway.analysis.LiveAnalysis;
import dev.runaway.analysis.Snapshot;
import dev.runaway.drill.Drills;
import dev.runaway.drill.RunningDrill;
import dev.runaway.procfs.PulseReader;
import dev.runaway.sandbox.CgroupSandbox;
import dev.runaway.stop.act.Actuator;
import dev.runaway.stop.plan.Disposable;
import dev.runaway.stop.Selector;
import dev.runaway.stop.StopCore;
import dev.runaway.stop.StopSession;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code runaway top}: the live groups, most severe first, redrawn in place; usable over SSH.
 * Arrows select a group, / filters, k opens the guided stop of the selected group (Enter runs
 * it, Esc cancels), q or Ctrl-C quits and gives the terminal back as it was. Nothing here
 * starts a process: the terminal's mode is set through termios, and the stop acts through
 * the same engine as {@code runaway stop}, by its own system calls.
 */
public final class TopScreen {
    private static final Path PROC = Path.of("/proc");
    private static final long DRILLS_EVERY_NANOS = 2_000_000_000L;
    /** Keys are answered at once; the screen is redrawn at least this often while a stop runs. */
    private static final long STOP_REDRAW_MILLIS = 200;

    private final LiveAnalysis live;
    private final PrintWriter out;
    private Map<String, String> drills = Map.of();
    private long drillsReadAt;
    private Map<String, dev.runaway.guard.HeldGroup> held = Map.of();

    public TopScreen(LiveAnalysis live, PrintWriter out) {
        this.live = live;
        this.out = out;
    }

    /** Full-screen until q; follows the terminal's size as it changes. */
    public void showInteractive(long refreshMillis) throws IOException, InterruptedException {
        PulseReader pulse = PulseReader.live();
        // One actuator for the view's life: a helper started for one stop stays for the next.
        java.util.concurrent.ExecutorService worker = TerminalStop.worker();
        try (Actuator actuator = dev.runaway.stop.Actuators.forThisUser(PROC);
             Terminal terminal = Terminal.raw()) {
            StopCore core = new StopCore(PROC, pulse, actuator, Disposable.forThisUser()).restingScans(live::restScans);
            // Planned from the group as this view holds it (its newest scan), not a new full scan: see GuidedStop.
            TopView view = new TopView(key -> new TerminalStop(key, () -> {
                StopSession s = core.open(new Selector.Command(key));
                var known = live.targets(key).samples();
                return known.isEmpty() ? s : s.prepareFromKnown(known);
            }, worker, core::confirmed).open(), ZoneId.systemDefault());
            long nextFrame = 0;
            while (true) {
                long now = System.nanoTime();
                if (now >= nextFrame) {
                    draw(view, terminal.size());
                    nextFrame = now + (view.stop() != null ? STOP_REDRAW_MILLIS : refreshMillis) * 1_000_000;
                }
                Keys.Key key = terminal.keys().next(Math.max(1, (nextFrame - System.nanoTime()) / 1_000_000));
                if (key == null) continue;
                if (view.key(key, live.latest()) == TopView.Outcome.QUIT) return;
                nextFrame = 0; // a key redraws at once
            }
        } finally {
            worker.shutdown();
        }
    }

    private void draw(TopView view, int[] size) {
        String frame = view.frame(live.latest(), live.scanStatus(), drillsAndHolds(view), size[1], size[0], true);
        out.print("\033[H" + frame.replace("\r\n", "\033[K\r\n") + "\033[J"); // overwrite in place: no flicker
        out.flush();
    }

    /** Batch: {@code iterations} frames of plain text, one every {@code delayMillis}. */
    public void showBatch(int iterations, long delayMillis) throws InterruptedException {
        TopView view = new TopView(key -> null, ZoneId.systemDefault());
        for (int i = 0; i < iterations; i++) {
            Thread.sleep(delayMillis);
            Snapshot s = live.awaitLatest();
            out.print(view.frame(s, live.scanStatus(), drillsAndHolds(view), 120, 40, false).replace("\r\n", "\n"));
            out.println();
            out.flush();
        }
    }

    private Map<String, String> drillsAndHolds(TopView view) {
        Map<String, String> d = drills();
        view.held(held);
        return d;
    }

    /** Running drills by their sandbox's cgroup name (one segment of a cgroup path), re-read every 2 s. */
    private Map<String, String> drills() {
        long now = System.nanoTime();
        if (drillsReadAt != 0 && now - drillsReadAt < DRILLS_EVERY_NANOS) return drills;
        drillsReadAt = now;
        held = dev.runaway.guard.GuardState.read(); // with the drills: the guard's holds, shown HELD and first
        Map<String, String> found = new LinkedHashMap<>();
        try {
            for (RunningDrill d : Drills.list()) {
                CgroupSandbox s = d.sandbox();
                found.put(s.name().format(), s.name().label());
            }
        } catch (RuntimeException unreadable) {
            // no cgroup tree to look in: no drill markers
        }
        drills = found;
        return drills;
    }
}
