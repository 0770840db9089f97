// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.timeline;

import dev.runaway.stoporder.StopStep;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A stop step's phase, action and result are written with its event and read back as types; a
 * recording written before they were (version 2 without them) still replays with them.
 */
class StepEventRecordingTest {
    private static final Instant WALL = Instant.parse("2026-12-05T12:00:00Z");

    /** A version 2 recording of these lines, as a writer of its time wrote them. */
    private static Path recording(Path file, String... lines) throws java.io.IOException {
        String header = "{\"type\":\"header\",\"format\":\"runaway-recording\",\"version\":2,\"started\":\"" + WALL + "\"}";
        return Files.writeString(file, header + "\n" + String.join("\n", lines) + "\n");
    }

    @Test
    void aStepsTypesTravelWithItsEventWhateverItsWordsSay(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("incident.jsonl");
        TimelineEvent.Step kill = new TimelineEvent.Step(StopStep.Phase.KILL, StopStep.Action.SIGKILL, StopStep.Result.FAILED);
        try (IncidentAppender stop = IncidentAppender.open(file, "stop")) {
            // Words reworded past recognition: the reader must not need them.
            stop.event(new TimelineEvent(1, WALL.plusSeconds(1), EventKind.STOP_STEP, "Kill them all", "no colon here", 3, -1,
                    "/tmp/x", 5, Optional.of(kill)));
        }
        TimelineEvent back = IncidentReader.read(file).timeline().events().get(0);
        assertThat(back.step()).contains(kill);
        assertThat(back.isStep(StopStep.Phase.KILL)).isTrue();
        assertThat(back.title()).isEqualTo("Kill them all");
    }

    @Test
    void aRecordingFromBeforeTheStepsTypesReadsThemFromItsWordsOnce(@TempDir Path dir) throws Exception {
        Path file = recording(dir.resolve("old.jsonl"),
                "{\"type\":\"event\",\"time\":\"2026-12-05T12:00:01Z\",\"seconds\":1.0,\"kind\":\"stop-step\",\"title\":\"stop growth\","
                        + "\"detail\":\"pids.max 0: capped /runaway.x\",\"count\":40,\"command\":\"/tmp/x\",\"millis\":3}",
                "{\"type\":\"event\",\"time\":\"2026-12-05T12:00:02Z\",\"seconds\":2.0,\"kind\":\"stop-step\",\"title\":\"kill\","
                        + "\"detail\":\"sigkill: failed: not permitted\",\"count\":2,\"command\":\"/tmp/x\",\"millis\":1}",
                "{\"type\":\"event\",\"time\":\"2026-12-05T12:00:03Z\",\"seconds\":3.0,\"kind\":\"stop-step\",\"title\":\"confirm zero\","
                        + "\"detail\":\"rescan\",\"count\":0,\"command\":\"/tmp/x\",\"millis\":2000}",
                "{\"type\":\"event\",\"time\":\"2026-12-05T12:00:04Z\",\"seconds\":4.0,\"kind\":\"note\",\"title\":\"stop growth\"}");
        var events = IncidentReader.read(file).timeline().events();
        assertThat(events.get(0).step()).contains(new TimelineEvent.Step(StopStep.Phase.STOP_GROWTH, StopStep.Action.PIDS_MAX_ZERO,
                StopStep.Result.DONE));
        assertThat(events.get(1).step()).contains(new TimelineEvent.Step(StopStep.Phase.KILL, StopStep.Action.SIGKILL,
                StopStep.Result.FAILED));
        assertThat(events.get(2).step()).contains(new TimelineEvent.Step(StopStep.Phase.CONFIRM_ZERO, StopStep.Action.RESCAN,
                StopStep.Result.DONE));
        assertThat(events.get(3).step()).as("only stop steps have a step").isEmpty();
    }

    @Test
    void aStepNamedByANewerWriterIsKeptAsAnEventWithoutTypes(@TempDir Path dir) throws Exception {
        Path file = recording(dir.resolve("newer.jsonl"),
                "{\"type\":\"event\",\"seconds\":1.0,\"kind\":\"stop-step\",\"title\":\"stop growth\",\"detail\":\"freeze: x\","
                        + "\"phase\":\"STOP_GROWTH\",\"action\":\"TELEPORT\",\"result\":\"DONE\"}");
        TimelineEvent e = IncidentReader.read(file).timeline().events().get(0);
        assertThat(e.kind()).isEqualTo(EventKind.STOP_STEP);
        assertThat(e.step()).isEmpty();
    }
}
