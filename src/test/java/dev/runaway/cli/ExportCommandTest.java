// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.cli;

import dev.runaway.analysis.GrowthSeries;
import dev.runaway.analysis.Snapshot;
import dev.runaway.model.PulseSample;
import dev.runaway.timeline.EventKind;
import dev.runaway.timeline.SyntheticIncident;
import dev.runaway.timeline.IncidentRecorder;
import dev.runaway.timeline.RecordingWriter;
import dev.runaway.timeline.Timeline;
import dev.runaway.timeline.TimelineEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import javax.imageio.ImageIO;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code runaway export} on a recording written by the recorder (a linear runaway, 12 s). */
class ExportCommandTest {
    private static final long T0 = 1_000_000_000_000L;
    private static final Instant WALL = Instant.parse("2026-11-29T10:00:00Z");

    record Run(int status, String out, String err) {
    }

    static Run run(String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        CommandLine cli = Main.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return new Run(cli.execute(args), out.toString(), err.toString());
    }

    /** 12 s of a linear runaway, 32 tasks and 250 MiB a second, pulses at 10 Hz, a scan a second, a stop step. */
    static Path recording(Path dir) throws Exception {
        Path file = dir.resolve("incident.jsonl");
        Timeline timeline = new Timeline(WALL, T0, "test");
        GrowthSeries series = new GrowthSeries(10);
        try (IncidentRecorder r = new IncidentRecorder(timeline, Optional.of(new RecordingWriter(file, 1 << 20,
                RecordingWriter.fields().put("source", "test").put("started", WALL.toString()))))) {
            for (int s = 0; s < 12; s++) {
                for (int i = 0; i < 10; i++) r.pulse(pulse(s * 10 + i));
                r.snapshot(snapshot(s, series, s >= 10 ? 0 : 400 - 32 * s));
            }
            r.event(new TimelineEvent(11.5, WALL.plusMillis(11_500), EventKind.STOP_STEP, "stop growth",
                    "freeze: froze /runaway-sandbox.x", 353, -1, "/tmp/deploy.sh", 9));
        }
        return file;
    }

    private static PulseSample pulse(int i) {
        return SyntheticIncident.evenPulse(i);
    }

    private static Snapshot snapshot(int second, GrowthSeries series, long room) {
        return SyntheticIncident.snapshot(second, series, "/runaway-sandbox.x", room);
    }

    @Test
    void allFormatsWhenNoneIsNamed(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("out");
        Run r = run("export", recording(dir).toString(), "--out", out.toString());
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).contains("wrote tasks.png (1200x500, ", "wrote oom.svg", "wrote pulses.csv (120 rows",
                "wrote incident.json", "wrote report.html", "wrote report.md").containsPattern("14 files in .* \\(\\d+ ms\\)");
        var png = ImageIO.read(out.resolve("tasks.png").toFile());
        assertThat(png.getWidth()).isEqualTo(1200);
        assertThat(Files.readString(out.resolve("report.md"))).contains("linear, +32.0 tasks/s", "(pids.max 353)");
    }

    @Test
    void namedFormatsAndARange(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("out");
        Run r = run("export", recording(dir).toString(), "--out", out.toString(), "--csv", "--svg", "--from", "2", "--to", "4");
        assertThat(r.status()).as(r.err()).isZero();
        try (var files = Files.list(out)) {
            assertThat(files.map(p -> p.getFileName().toString()).sorted().toList()).containsExactly(
                    "events.csv", "groups.csv", "memory.svg", "oom.svg", "pressure.svg", "pulses.csv", "tasks.svg");
        }
        assertThat(Files.readAllLines(out.resolve("pulses.csv"))).hasSize(1 + 21); // seconds 2.0 to 4.0
        assertThat(Files.readAllLines(out.resolve("groups.csv"))).hasSize(1 + 2); // the scans at 2.0077 and 3.0077 s
    }

    @Test
    void aMissingRecordingOrAnUnwritableDirectoryIsToldInWords(@TempDir Path dir) throws Exception {
        Run missing = run("export", dir.resolve("nothing.jsonl").toString(), "--out", dir.toString());
        assertThat(missing.status()).isEqualTo(2);
        assertThat(missing.err()).startsWith("runaway export: " + dir.resolve("nothing.jsonl") + ": no such recording");
        Path file = recording(dir);
        Run unwritable = run("export", file.toString(), "--out", file.toString());
        assertThat(unwritable.status()).isEqualTo(2);
        assertThat(unwritable.err()).startsWith("runaway export: cannot export to " + file + ": it is a file, not a directory");
        Run usage = run("export", file.toString());
        assertThat(usage.status()).isEqualTo(2);
        assertThat(usage.err()).contains("Missing required option: '--out=DIR'");
    }
}
