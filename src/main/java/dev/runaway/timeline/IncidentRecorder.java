// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.timeline;

import dev.runaway.analysis.Group;
import dev.runaway.analysis.LiveAnalysis;
import dev.runaway.analysis.Snapshot;
import dev.runaway.model.PulseSample;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.List;
import java.util.Optional;

/**
 * Turns the live analysis into a timeline (pulses, scans, events) and, when given a writer,
 * appends every point to the incident file as it happens. A write that fails (disk full) ends
 * the recording and says why; the timeline in memory carries on.
 */
public final class IncidentRecorder implements AutoCloseable {
    /** A scan line with every group this often, so a file read from its middle (after rotation) is whole. */
    static final double FULL_SCAN_EVERY_SECONDS = 10;
    static final long ROTATION_MARGIN = 64 << 10;
    private final Timeline timeline;
    private final EventDetector detector = new EventDetector();
    private RecordingWriter writer;
    private volatile String failure = "";
    private PulsePoint lastPulse;
    /** Set by close(): nothing more reaches the file or the timeline. */
    private boolean closed;
    /** The groups as last written: a scan line holds only what changed (a full one every few seconds). */
    private final Map<String, GroupPoint> written = new HashMap<>();
    private final Map<String, dev.runaway.analysis.CgroupLoad> writtenCgroups = new HashMap<>();
    private double lastFullSeconds = Double.NEGATIVE_INFINITY;
    private int rotationsSeen;

    public IncidentRecorder(Timeline timeline, Optional<RecordingWriter> writer) {
        this.timeline = timeline;
        this.writer = writer.orElse(null);
    }

    public Timeline timeline() {
        return timeline;
    }

    /** Listens to the live analysis: every pulse and every snapshot from now on. */
    public IncidentRecorder attach(LiveAnalysis live) {
        live.onPulse(this::pulse);
        live.onSnapshot(this::snapshot);
        return this;
    }

    public void pulse(PulseSample p) {
        PulsePoint point;
        synchronized (this) {
            double seconds = timeline.secondsOf(p.monotonicNanos());
            double rate = lastPulse == null ? 0
                    : PulsePoint.forksPerSecond(lastPulse.seconds(), lastPulse.forksSinceBoot(), seconds, p.forksSinceBoot());
            point = new PulsePoint(seconds, p.time(), p.tasks(), p.forksSinceBoot(), rate, p.memoryTotalBytes(),
                    p.memoryAvailableBytes(), p.swapTotalBytes(), p.swapFreeBytes(),
                    p.pressure().map(x -> x.someAvg10()).orElse(Double.NaN),
                    p.pressure().map(x -> x.fullAvg10()).orElse(Double.NaN), p.pidMax());
            if (closed) return;
            lastPulse = point;
            write("pulse", point.seconds(), point.time(), IncidentFormat.pulse(point));
            timeline.add(point);
        }
    }

    public void snapshot(Snapshot s) {
        double seconds = timeline.secondsOf(s.monotonicNanos());
        List<GroupPoint> groups = new ArrayList<>();
        // The most severe, and the group shown now wherever it ranks: a replay charts what the console charted.
        for (Group g : s.groups()) {
            if (groups.size() < Timeline.GROUPS_PER_SCAN || s.watched().contains(g.command())) groups.add(GroupPoint.of(g));
        }
        List<dev.runaway.analysis.CgroupLoad> cgroups = s.cgroups().subList(0, Math.min(Timeline.GROUPS_PER_SCAN, s.cgroups().size()));
        GroupScan scan = new GroupScan(seconds, s.time(), s.monotonicNanos(), s.processes(), List.copyOf(groups),
                List.copyOf(cgroups));
        List<TimelineEvent> events = detector.events(s, seconds);
        synchronized (this) {
            if (closed) return;
            int rotations = writer == null ? 0 : writer.rotations();
            // Near the size limit every line is full, so the line that rotates starts the new file whole.
            boolean nearRotation = writer != null && writer.bytesWritten() + ROTATION_MARGIN > writer.maxBytes();
            boolean full = seconds - lastFullSeconds >= FULL_SCAN_EVERY_SECONDS || rotations != rotationsSeen || nearRotation;
            if (full) {
                lastFullSeconds = seconds;
                rotationsSeen = rotations;
                written.clear();
                writtenCgroups.clear();
            }
            write("scan", seconds, s.time(), IncidentFormat.scan(scan, written, writtenCgroups, full));
            timeline.add(scan); // under the same lock as the line: the file and the timeline hold the same scans
        }
        events.forEach(this::event);
    }

    /** An event from anywhere: a stop step, an OOM kill, a note. */
    public void event(TimelineEvent e) {
        synchronized (this) {
            if (closed) return;
            write("event", e.seconds(), e.time(), IncidentFormat.event(e));
            timeline.add(e);
        }
    }

    private void write(String type, double seconds, java.time.Instant time, com.fasterxml.jackson.databind.node.ObjectNode fields) {
        if (writer == null) return;
        try {
            writer.record(type, time, seconds, fields);
        } catch (IOException e) {
            failure = "recording stopped: " + e.getMessage();
            closeWriter();
        }
    }

    /** Whether points still go to a file. */
    public synchronized boolean recording() {
        return writer != null;
    }

    /** Why the recording stopped early, or "". */
    public String failure() {
        return failure;
    }

    public synchronized Optional<RecordingWriter> writer() {
        return Optional.ofNullable(writer);
    }

    private void closeWriter() {
        try {
            if (writer != null) writer.close();
        } catch (IOException ignored) {
            // Already failing: the first error is the one reported.
        }
        writer = null;
    }

    /**
     * Ends the recording and detaches from the timeline: a scan the sampler delivers after this
     * (its threads are not joined) goes nowhere, so the file and the timeline end alike. A
     * recording that stopped on a write error keeps feeding the timeline: the console still charts.
     */
    @Override
    public synchronized void close() {
        closed = true;
        closeWriter();
    }
}
