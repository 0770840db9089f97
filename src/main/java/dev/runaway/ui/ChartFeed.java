// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.ui;

import dev.runaway.timeline.GroupPoint;
import dev.runaway.timeline.GroupScan;
import dev.runaway.timeline.PulsePoint;
import dev.runaway.timeline.Timeline;
import dev.runaway.timeline.TimelineEvent;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Carries a timeline's points to the charts on one thread of its own, never the JavaFX thread
 * (ChartFX 11.3 read-locks data sets during a frame's layout; a write from the JavaFX thread
 * before the first frame deadlocks). What the timeline already holds goes first, then what it
 * is told from now on, so a live incident and a replayed file take the same path. Points are
 * handed over in batches, at most one a second (the rate a person reads a chart): one write per
 * series however many points arrived since the last, then {@link Sink#batchDone} so the time
 * axes move in the same frame as the data.
 */
public final class ChartFeed implements AutoCloseable {

    /** What the charts draw, series by series, each batch as parallel arrays. */
    public interface Sink {
        void pulses(double[] seconds, double[] tasks, double[] memoryGiB, double[] swapGiB, double[] someP, double[] fullP);

        /** The selected group's tasks: {@code replace} starts the series afresh (a new selection). */
        void groupTasks(String command, double[] seconds, double[] tasks, boolean replace);

        void event(TimelineEvent e);

        /** A batch was written (on the feed's thread): the charts move their time axes now, in the frame that draws it. */
        default void batchDone() {
        }
    }

    private record Select(String command) {
    }

    /** Charts redraw at most this often: software rendering (no GPU) pays for every redraw. */
    static final long BATCH_MILLIS = 1000;
    private static final Object STOP = new Object();
    /** How often a held feed looks whether it was released. */
    private static final long HELD_LOOK_MILLIS = 50;
    private final Timeline timeline;
    private final Sink sink;
    private final BlockingQueue<Object> queue = new LinkedBlockingQueue<>();
    private final Thread thread;
    private volatile String selected;
    private volatile long lastBatchNanos;
    private volatile boolean held;

    public ChartFeed(Timeline timeline, Sink sink) {
        this.timeline = timeline;
        this.sink = sink;
        this.thread = new Thread(this::run, "runaway-chart-feed");
        thread.setDaemon(true);
    }

    public ChartFeed start() {
        // Listeners first, then the backlog, on the feed thread: a point told meanwhile is queued, none lost;
        // one told both ways is dropped by time (the backlog ends where the queue begins).
        timeline.onPulse(queue::add);
        timeline.onScan(queue::add);
        timeline.onEvent(queue::add);
        thread.start();
        return this;
    }

    /** Shows this group's tasks beside the total (null: none). */
    public void select(String command) {
        queue.add(new Select(command == null ? "" : command));
    }

    /**
     * Held, nothing reaches the charts (no redraw); what arrives meanwhile waits in the queue and
     * is drawn in one batch on release, none lost.
     */
    public void hold(boolean held) {
        this.held = held;
    }

    /** When the newest batch reached the sink (System.nanoTime), for the responsiveness bench. */
    public long lastBatchNanos() {
        return lastBatchNanos;
    }

    private void run() {
        double[] backlogEnd = {Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY};
        List<PulsePoint> pulses = timeline.pulses();
        List<GroupScan> scans = timeline.scans();
        if (!pulses.isEmpty()) backlogEnd[0] = pulses.get(pulses.size() - 1).seconds();
        if (!scans.isEmpty()) backlogEnd[1] = scans.get(scans.size() - 1).seconds();
        sendPulses(pulses);
        timeline.events().forEach(sink::event);
        sink.batchDone();
        double eventsEnd = timeline.events().stream().mapToDouble(TimelineEvent::seconds).max().orElse(Double.NEGATIVE_INFINITY);
        List<Object> batch = new ArrayList<>();
        try {
            while (true) {
                Object first = queue.poll(1, TimeUnit.SECONDS);
                if (first == null) continue;
                while (held) Thread.sleep(HELD_LOOK_MILLIS); // what came is drawn on release, with all that comes meanwhile
                batch.add(first);
                queue.drainTo(batch);
                List<PulsePoint> newPulses = new ArrayList<>();
                List<GroupScan> newScans = new ArrayList<>();
                for (Object o : batch) {
                    if (o == STOP) return;
                    if (o instanceof PulsePoint p && p.seconds() > backlogEnd[0]) newPulses.add(p);
                    else if (o instanceof GroupScan s && s.seconds() > backlogEnd[1]) newScans.add(s);
                    else if (o instanceof TimelineEvent e && e.seconds() > eventsEnd) sink.event(e);
                    else if (o instanceof Select s) {
                        sendPulses(newPulses);
                        newPulses.clear();
                        newScans.clear();
                        selected = s.command();
                        sendGroup(timeline.scans(), true);
                    }
                }
                sendPulses(newPulses);
                sendGroup(newScans, false);
                batch.clear();
                sink.batchDone();
                lastBatchNanos = System.nanoTime();
                Thread.sleep(BATCH_MILLIS); // what arrives meanwhile is drawn in one go: 1 redraw a second, not 10

            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void sendPulses(List<PulsePoint> pulses) {
        if (pulses.isEmpty()) return;
        int n = pulses.size();
        double[] x = new double[n], tasks = new double[n], mem = new double[n], swap = new double[n], some = new double[n], full = new double[n];
        for (int i = 0; i < n; i++) {
            PulsePoint p = pulses.get(i);
            x[i] = p.seconds();
            tasks[i] = p.tasks();
            mem[i] = p.memoryUsedBytes() / (double) (1L << 30);
            swap[i] = p.swapUsedBytes() / (double) (1L << 30);
            some[i] = p.pressureSome10();
            full[i] = p.pressureFull10();
        }
        sink.pulses(x, tasks, mem, swap, some, full);
    }

    /** The last scan second the group series holds: a scan both read afresh and queued is sent once. */
    private double groupEnd = Double.NEGATIVE_INFINITY;

    private void sendGroup(List<GroupScan> scans, boolean replace) {
        String command = selected;
        if (command == null || (command.isEmpty() && !replace) || (scans.isEmpty() && !replace)) return;
        if (replace) groupEnd = Double.NEGATIVE_INFINITY;
        List<double[]> points = new ArrayList<>();
        for (GroupScan s : scans) {
            if (s.seconds() <= groupEnd) continue;
            groupEnd = s.seconds();
            GroupPoint g = s.group(command);
            points.add(new double[] {s.seconds(), g == null ? 0 : g.tasks()});
        }
        double[] x = new double[points.size()], y = new double[points.size()];
        for (int i = 0; i < x.length; i++) {
            x[i] = points.get(i)[0];
            y[i] = points.get(i)[1];
        }
        sink.groupTasks(command, x, y, replace);
    }

    @Override
    public void close() {
        held = false;
        queue.add(STOP);
    }

}
