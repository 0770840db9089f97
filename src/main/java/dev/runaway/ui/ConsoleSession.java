// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.ui;

import dev.runaway.analysis.LiveAnalysis;
import dev.runaway.analysis.Snapshot;
import dev.runaway.drill.Drill;
import dev.runaway.drill.Drills;
import dev.runaway.drill.Scenario;
import dev.runaway.procfs.PulseReader;
import dev.runaway.sandbox.TeardownReport;
import dev.runaway.stop.act.Actuator;
import dev.runaway.stop.plan.Disposable;
import dev.runaway.stop.helper.HelperKeeper;
import dev.runaway.sys.LibC;
import dev.runaway.timeline.GroupScan;
import dev.runaway.timeline.Incident;
import dev.runaway.timeline.IncidentReader;
import dev.runaway.timeline.IncidentRecorder;
import dev.runaway.timeline.RecordingWriter;
import dev.runaway.timeline.Timeline;
import dev.runaway.timeline.TimelineEvent;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * What one console window shows: a live machine (sampler, analyzer, recorder, the guided stop
 * with an actuator kept for the window's life) or a recorded incident read back. Both end in a
 * {@link Timeline}, which the charts and the header read the same way.
 */
public final class ConsoleSession implements AutoCloseable {
    static final Path PROC = Path.of("/proc");
    public static final Duration DRILL_LIFETIME = Duration.ofMinutes(10);

    private final Timeline timeline;
    private final LiveAnalysis live;
    private final IncidentRecorder recorder;
    private final Actuator actuator;
    private final GuidedStop stop;
    private final Incident replayed;
    private volatile Drill drill;
    private HelperKeeper keeper; // live sessions only
    private volatile TeardownReport lastTeardown;

    private ConsoleSession(Timeline timeline, LiveAnalysis live, IncidentRecorder recorder, Actuator actuator,
                           GuidedStop stop, Incident replayed) {
        this.timeline = timeline;
        this.live = live;
        this.recorder = recorder;
        this.actuator = actuator;
        this.stop = stop;
        this.replayed = replayed;
    }

    /** The live machine, recorded to {@code recordTo} when given. Sampling starts at once. */
    public static ConsoleSession live(Optional<Path> recordTo) throws IOException {
        Timeline timeline = Timeline.startingNow("console");
        Optional<RecordingWriter> writer = Optional.empty();
        if (recordTo.isPresent()) {
            writer = Optional.of(new RecordingWriter(recordTo.get(), dev.runaway.timeline.IncidentFiles.MAX_BYTES,
                    RecordingWriter.fields().put("source", "console").put("started", timeline.started().toString())));
        }
        IncidentRecorder recorder = new IncidentRecorder(timeline, writer);
        LiveAnalysis live = LiveAnalysis.live().sharingLineage(dev.runaway.procfs.LineageQuestion.Keeper.CONSOLE);
        recorder.attach(live);
        boolean root = LibC.INSTANCE.geteuid() == 0;
        Actuator actuator = dev.runaway.stop.Actuators.forThisUser(PROC);
        GuidedStop stop = new GuidedStop(PROC, new dev.runaway.stop.StopCore(PROC, PulseReader.live(), actuator,
                Disposable.forThisUser()).restingScans(live::restScans), timeline, recorder::event, command -> live.targets(command).samples());
        // The helper starts on the first spike, not only when a plan opens: once pids run out, pkexec cannot.
        HelperKeeper keeper = new HelperKeeper(actuator, root);
        live.onSnapshot(keeper::onSnapshot);
        live.start();
        ConsoleSession session = new ConsoleSession(timeline, live, recorder, actuator, stop, null);
        session.keeper = keeper;
        return session;
    }

    /** A recorded incident, shown as if live: charts from its timeline, groups from its last scan. */
    public static ConsoleSession replay(Path file) throws IOException {
        Incident incident = IncidentReader.read(file);
        return new ConsoleSession(incident.timeline(), null, null, null, null, incident);
    }

    public Timeline timeline() {
        return timeline;
    }

    public boolean isLive() {
        return live != null;
    }

    /** The live analysis, or empty in a replay. */
    public Optional<LiveAnalysis> live() {
        return Optional.ofNullable(live);
    }

    /** The helper's state in words for the status line; empty in a replay. */
    public Optional<String> helperStatus() {
        return Optional.ofNullable(keeper).map(HelperKeeper::describe);
    }

    /** The offer to prepare the privileged helper (made on a spike, never a dialog by itself); empty when none. */
    public Optional<String> helperOffer() {
        return Optional.ofNullable(keeper).flatMap(HelperKeeper::offer);
    }

    /** The user accepted the offer: pkexec asks for the password now. */
    public void prepareHelper() {
        if (keeper != null) keeper.prepare();
    }

    /** The user declined the offer: it is not made again this session. */
    public void declineHelper() {
        if (keeper != null) keeper.decline();
    }

    public Optional<GuidedStop> guidedStop() {
        return Optional.ofNullable(stop);
    }

    public Optional<Incident> replayed() {
        return Optional.ofNullable(replayed);
    }

    public Optional<IncidentRecorder> recorder() {
        return Optional.ofNullable(recorder);
    }

    /** The newest snapshot (live), or null. */
    public Snapshot latest() {
        return live == null ? null : live.latest();
    }

    /** The newest scan on the timeline (live or recorded), or null. */
    public GroupScan lastScan() {
        List<GroupScan> scans = timeline.scans();
        return scans.isEmpty() ? null : scans.get(scans.size() - 1);
    }

    public Optional<Drill> drill() {
        return Optional.ofNullable(drill);
    }

    /** Shows a drill this process started (it is torn down when the session closes). */
    public void adopt(Drill d) {
        drill = d;
        note("drill " + d.info().id() + " started: " + d.info().scenario().description());
    }

    /** Starts a drill from the menu: contained in its own sandbox, capped, with a lifetime. */
    public Drill startDrill(Scenario scenario) throws IOException {
        if (drill != null) throw new IOException("a drill is already running (" + drill.info().id() + "); stop it first");
        Drill d = Drills.start(scenario, scenario.defaultMaxTasks(), DRILL_LIFETIME, false);
        adopt(d);
        return d;
    }

    /** Tears the drill down (if any), returning its report. */
    public Optional<TeardownReport> stopDrill() {
        Drill d = drill;
        drill = null;
        if (d == null) return Optional.empty();
        TeardownReport report = d.teardown();
        lastTeardown = report;
        note("drill " + d.info().id() + " torn down: " + report.summary());
        return Optional.of(report);
    }

    /** The report of the last drill torn down in this session (menu, close), if any. */
    public Optional<TeardownReport> lastTeardown() {
        return Optional.ofNullable(lastTeardown);
    }

    private void note(String text) {
        if (recorder == null) return;
        java.time.Instant now = java.time.Instant.now();
        recorder.event(new TimelineEvent(timeline.secondsOf(System.nanoTime()), now, dev.runaway.timeline.EventKind.NOTE,
                text.length() > 40 ? text.substring(0, 40) : text, text, -1, -1, "", -1));
    }

    @Override
    public void close() {
        if (live != null) live.close();
        stopDrill();
        if (recorder != null) recorder.close();
        if (actuator != null) actuator.close();
    }
}
