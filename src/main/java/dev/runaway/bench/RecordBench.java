// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.bench;

import dev.runaway.analysis.LiveAnalysis;
import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import dev.runaway.timeline.IncidentRecorder;
import dev.runaway.timeline.RecordingWriter;
import dev.runaway.timeline.Timeline;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * How fast an incident file grows: N sleepers in a sandbox (on top of whatever the machine
 * runs), the console's recorder attached to the live analysis for a while, the bytes counted
 * and scaled to an hour.
 */
public final class RecordBench {
    public record Result(int sleepers, double seconds, long bytes, int pulses, int scans, int events, double bytesPerHour,
                         double pulseBytes, double scanBytes) {
    }

    private final int sleepers;
    private final Duration duration;
    private final PrintWriter progress;

    public RecordBench(int sleepers, Duration duration, PrintWriter progress) {
        this.sleepers = sleepers;
        this.duration = duration;
        this.progress = progress;
    }

    public Result run() throws Exception {
        Path file = Files.createTempFile("runaway-bench-record", ".jsonl");
        try (PidMax pidMax = PidMax.atLeast(sleepers + 16_384, progress);
             Sandbox sandbox = Sandboxes.create(SandboxSpec.of("bench-record", sleepers + 64)
                     .withLifetime(duration.plusMinutes(10)))) {
            if (sleepers > 0) {
                progress.printf("starting %,d sleepers in %s%n", sleepers, sandbox.containment());
                progress.flush();
                ScanBench.startSleepers(sandbox, sleepers);
            }
            Timeline timeline = Timeline.startingNow("bench record");
            try (LiveAnalysis live = LiveAnalysis.live();
                 IncidentRecorder recorder = new IncidentRecorder(timeline, Optional.of(new RecordingWriter(file, Long.MAX_VALUE,
                         RecordingWriter.fields().put("source", "bench")))).attach(live)) {
                live.start();
                progress.printf("recording for %d s to %s%n", duration.toSeconds(), file);
                progress.flush();
                Thread.sleep(duration.toMillis());
            }
            long bytes = Files.size(file);
            long pulseBytes = 0, scanBytes = 0, pulses = 0, scans = 0;
            for (String line : Files.readAllLines(file)) {
                if (line.startsWith("{\"type\":\"pulse\"")) { pulseBytes += line.length() + 1; pulses++; }
                if (line.startsWith("{\"type\":\"scan\"")) { scanBytes += line.length() + 1; scans++; }
            }
            double seconds = timeline.endSeconds();
            return new Result(sleepers, seconds, bytes, timeline.pulses().size(), timeline.scans().size(),
                    timeline.events().size(), bytes * 3600.0 / seconds, pulses == 0 ? 0 : (double) pulseBytes / pulses,
                    scans == 0 ? 0 : (double) scanBytes / scans);
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
