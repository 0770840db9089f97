// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.view;

import dev.runaway.analysis.ScanStatus;
import dev.runaway.model.Units;
import dev.runaway.timeline.IncidentRecorder;

import java.util.Optional;

/** The status line's words: how the console keeps up, or what recording is shown; and whether it records. */
public final class StatusLine {
    private StatusLine() {
    }

    /**
     * @param health       the sampler's and the console's own figures (scan time, pulses, CPU, RSS)
     * @param scan         how the scans keep up, when the analysis is running
     * @param displayRaise what the X server's threads got while overloaded ("" for nothing)
     * @param helper       the privileged helper's state, when there is one to tell
     * @param lastOutcome  the last export's or snapshot's outcome ("" for none)
     */
    public static String live(String health, Optional<ScanStatus> scan, String displayRaise, Optional<String> helper, String lastOutcome) {
        StringBuilder b = new StringBuilder(health);
        scan.ifPresent(s -> {
            if (s.worthSaying()) b.append(s.late() ? " · SCAN LATE: " : " · ").append(s.describe());
            if (!displayRaise.isEmpty()) b.append(" · X server raised with the window (").append(displayRaise).append(")");
        });
        helper.ifPresent(h -> b.append(" · ").append(h));
        return withOutcome(lastOutcome, b.toString());
    }

    public static String replay(String source, double seconds, int events, String lastOutcome) {
        return withOutcome(lastOutcome, "replay of " + source + " · " + Units.seconds(seconds) + " recorded · " + events + " events");
    }

    private static String withOutcome(String outcome, String status) {
        return outcome.isEmpty() ? status : outcome + "  ·  " + status;
    }

    /** Where the incident is recorded and how big it is, or why it is not; "" when the console does not record. */
    public static String recording(Optional<IncidentRecorder> recorder) {
        return recorder.map(r -> {
            if (!r.failure().isEmpty()) return "recording OFF: " + r.failure();
            return r.writer().map(w -> "recording " + w.file() + " (" + Units.bytes(w.bytesWritten()) + ")").orElse("recording off");
        }).orElse("");
    }
}
