// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.cli;

import dev.runaway.analysis.LiveAnalysis;
import dev.runaway.model.Units;
import dev.runaway.timeline.IncidentFiles;
import dev.runaway.timeline.IncidentRecorder;
import dev.runaway.timeline.RecordingWriter;
import dev.runaway.timeline.Timeline;
import dev.runaway.timeline.oom.OomTimeline;
import dev.runaway.timeline.oom.OomWatcher;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** {@code runaway record}: the live machine's timeline to an incident file, without a window. */
@Command(name = "record", mixinStandardHelpOptions = true,
        description = {"Records the machine's timeline to an incident file: every pulse (10 Hz), every scan's groups, events.",
                "Stops after --duration, or on Ctrl-C; the file is readable at any moment, even after a kill -9.",
                "Read it back with 'runaway replay FILE' or 'runaway export FILE'."})
public final class RecordCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--out", paramLabel = "FILE",
            description = "incident file (default: $XDG_STATE_HOME/runaway/incidents/incident-<local time>.jsonl)")
    Path out;

    @Option(names = "--duration", paramLabel = "DURATION", converter = Durations.class,
            description = "how long to record, e.g. 90s, 10m, 1h (default: until Ctrl-C)")
    Duration duration;

    @Option(names = "--max-size", paramLabel = "MiB", defaultValue = "64",
            description = "rotate to FILE.1 past this size; the incident keeps at most twice it (default: ${DEFAULT-VALUE})")
    long maxMiB;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        Path file = out != null ? out : IncidentFiles.fresh();
        var header = RecordingWriter.fields().put("source", "record").put("host", host());
        CountDownLatch done = new CountDownLatch(1);
        // Ctrl-C runs the hook, and the JVM halts when the hook returns: it waits until the
        // recording is closed and its closing line printed.
        CountDownLatch closed = new CountDownLatch(1);
        Timeline timeline = Timeline.startingNow("record");
        try (LiveAnalysis live = LiveAnalysis.live();
             IncidentRecorder recorder = new IncidentRecorder(timeline,
                     Optional.of(new RecordingWriter(file, maxMiB << 20, header)))) {
            recorder.attach(live);
            live.start();
            Thread interrupted = new Thread(() -> {
                done.countDown();
                try {
                    closed.await(5, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "record-ctrl-c");
            Runtime.getRuntime().addShutdownHook(interrupted);
            err.println("runaway record: recording to " + file + (duration == null ? " until Ctrl-C" : " for " + duration.toSeconds() + " s"));
            try (OomWatcher oom = OomTimeline.watch(recorder)) {
                err.println("runaway record: out-of-memory kills from " + oom.source());
                return recordUntilDone(recorder, timeline, done, interrupted, file, err);
            }
        } finally {
            err.flush();
            closed.countDown();
        }
    }

    private Integer recordUntilDone(IncidentRecorder recorder, Timeline timeline, CountDownLatch done, Thread interrupted,
                                    Path file, PrintWriter err) throws InterruptedException {
        long deadline = duration == null ? Long.MAX_VALUE : System.nanoTime() + duration.toNanos();
        while (System.nanoTime() < deadline && recorder.recording()) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (done.await(Math.min(5_000, Math.max(1, left)), TimeUnit.MILLISECONDS)) break;
            err.println(progress(recorder, timeline));
            err.flush();
        }
        boolean ctrlC = false;
        try {
            Runtime.getRuntime().removeShutdownHook(interrupted);
        } catch (IllegalStateException shuttingDown) {
            ctrlC = true; // the JVM is on its way out; the hook waits for the closing line
        }
        if (!recorder.failure().isEmpty()) {
            err.println("runaway record: " + recorder.failure());
            return 1;
        }
        err.println(progress(recorder, timeline) + (ctrlC ? "; stopped by Ctrl-C" : "") + "; done: " + file);
        return 0;
    }

    private static String progress(IncidentRecorder recorder, Timeline timeline) {
        var pulses = timeline.pulses();
        String tasks = pulses.isEmpty() ? "-" : Integer.toString(pulses.get(pulses.size() - 1).tasks());
        long bytes = recorder.writer().map(RecordingWriter::bytesWritten).orElse(0L);
        return String.format("runaway record: %.0f s, %d pulses, %d scans, %d events, %s tasks now, %s written",
                timeline.endSeconds(), pulses.size(), timeline.scans().size(), timeline.events().size(), tasks,
                Units.bytes(bytes));
    }

    private static String host() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            return "";
        }
    }
}
