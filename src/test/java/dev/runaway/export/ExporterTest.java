// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.export;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runaway.timeline.PulsePoint;
import dev.runaway.timeline.Timeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The exporter end to end: every format, progress in words, a range, and refusals. */
class ExporterTest {

    private static ExportOptions options(Path dir) {
        return ExportOptions.to(dir).zone(ChartImagesTest.UTC);
    }

    @Test
    void everyFormatIntoOneDirectory(@TempDir Path dir) throws Exception {
        Timeline t = IncidentFixtures.pidsCappedAndStopped();
        List<String> progress = new ArrayList<>();
        List<Path> written = Exporter.export(t, options(dir).hiDpi(true), progress::add);

        assertThat(written).extracting(p -> p.getFileName().toString()).containsExactly(
                "tasks.png", "tasks@2x.png", "memory.png", "memory@2x.png", "pressure.png", "pressure@2x.png", "oom.png", "oom@2x.png",
                "tasks.svg", "memory.svg", "pressure.svg", "oom.svg", "pulses.csv", "groups.csv", "events.csv",
                "incident.json", "report.html", "report.md");
        assertThat(written).allSatisfy(p -> assertThat(p).isNotEmptyFile().hasParent(dir));
        assertThat(progress).hasSize(written.size());
        assertThat(progress.get(0)).matches("wrote tasks\\.png \\(1200x500, \\d+\\.\\d KiB\\)");
        assertThat(progress.get(1)).startsWith("wrote tasks@2x.png (2400x1000, ");
        assertThat(progress).contains("wrote pulses.csv (121 rows, " + dev.runaway.model.Units.bytes(Files.size(dir.resolve("pulses.csv"))) + ")");
        BufferedImage hi = ImageIO.read(dir.resolve("oom@2x.png").toFile());
        assertThat(hi.getWidth()).isEqualTo(2400);

        JsonNode json = IncidentJson.mapper().readTree(dir.resolve("incident.json").toFile());
        assertThat(json.path("format").asText()).isEqualTo(IncidentJson.FORMAT);
        assertThat(json.path("pulses")).hasSize(t.pulses().size());
        assertThat(json.path("scans")).hasSize(t.scans().size());
        assertThat(json.path("events")).hasSize(t.events().size());
        assertThat(json.path("summary").path("peakTasks").path("value").asInt())
                .isEqualTo(t.pulses().stream().mapToInt(PulsePoint::tasks).max().orElseThrow());
        assertThat(json.path("summary").path("worstGroup").path("growth").asText()).isEqualTo("linear");
        assertThat(json.path("summary").path("secondsToZero").asDouble()).isEqualTo(IncidentSummary.of(t).secondsToZero().getAsDouble());
        assertThat(json.path("scans").get(0).path("groups").get(0).path("secondsToExhaustion").isNull()).as("NaN as null").isTrue();
        assertThat(json.path("scans").get(0).path("groups").get(0).has("exhaustedBy")).as("empty text left out").isFalse();
    }

    @Test
    void aRangeKeepsOnlyWhatFallsInIt(@TempDir Path dir) throws Exception {
        Timeline t = IncidentFixtures.pidsCappedAndStopped();
        List<Path> written = Exporter.export(t, options(dir).formats(EnumSet.of(Format.CSV, Format.JSON)).range(new TimeRange(2, 4)), s -> { });
        assertThat(written).hasSize(4);
        long inRange = t.pulses().stream().filter(p -> p.seconds() >= 2 && p.seconds() <= 4).count();
        assertThat(Files.readAllLines(dir.resolve("pulses.csv"))).hasSize((int) inRange + 1);
        JsonNode json = IncidentJson.mapper().readTree(dir.resolve("incident.json").toFile());
        assertThat(json.path("range").path("from").asDouble()).isEqualTo(2);
        assertThat(json.path("summary").path("stopSteps")).isEmpty();
    }

    @Test
    void aFileInPlaceOfTheDirectoryIsRefusedInWords(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("charts"), "not a directory");
        assertThatThrownBy(() -> Exporter.export(IncidentFixtures.memoryCapped(), options(file), s -> { }))
                .hasMessage("cannot export to " + file + ": it is a file, not a directory");
        assertThatThrownBy(() -> Exporter.export(IncidentFixtures.memoryCapped(), options(file.resolve("below")), s -> { }))
                .hasMessageStartingWith("cannot write to " + file.resolve("below") + ": ");
    }

    @Test
    void aDirectoryNobodyMayWriteIsRefusedInWords() {
        Path proc = Path.of("/proc/runaway-export-test"); // not even root creates a directory in /proc
        assertThatThrownBy(() -> Exporter.export(IncidentFixtures.memoryCapped(), options(proc), s -> { }))
                .hasMessageStartingWith("cannot write to /proc/runaway-export-test: ");
    }

    @Test
    void theReportsNumbersAreTheTimelines(@TempDir Path dir) throws Exception {
        Timeline t = IncidentFixtures.pidsCappedAndStopped();
        Exporter.export(t, options(dir).formats(EnumSet.of(Format.REPORT)), s -> { });
        assertThat(dir.resolve("tasks.png")).as("the PNGs report.md shows").isNotEmptyFile();
        String html = Files.readString(dir.resolve("report.html"));
        String md = Files.readString(dir.resolve("report.md"));

        int peak = t.pulses().stream().mapToInt(PulsePoint::tasks).max().orElseThrow();
        long memory = t.pulses().stream().mapToLong(PulsePoint::memoryUsedBytes).max().orElseThrow();
        for (String report : List.of(html, md)) {
            assertThat(report).contains(String.format(Locale.ROOT, "%,d at 14:02:16.300", peak))
                    .contains(dev.runaway.model.Units.bytes(memory) + " of 24.0 GiB")
                    .contains("linear, +32.0 tasks/s, +250.0 MiB/s")
                    .contains("200 tasks at 14:02:16.500").contains("(pids.max 200)")
                    .contains("0.10 s (then confirmed over 2.0 s with no match)")
                    .contains("thaw: thawed /runaway-sandbox.drill-linear (1)")
                    .contains("pids.max deploy.sh at 14:02:16.500")
                    .contains("recursion", "python3 -m unittest");
        }
        assertThat(html).contains("<svg").doesNotContain("src=\"").contains("id='chart-oom'").contains("no OOM kills recorded");
        assertThat(html.split("<svg ", -1)).hasSize(5);
        assertThat(md).contains("![Tasks over time](tasks.png)", "![Out-of-memory kills](oom.png)")
                .contains("| 14:02:19.052 | 0.052 | kill | cgroup.kill: killed every member of /runaway-sandbox.drill-linear | 200 | 40 |");
    }

    @Test
    void theOomReportListsEachEventWithItsCount(@TempDir Path dir) throws Exception {
        Exporter.export(IncidentFixtures.oomHistory(), options(dir).formats(EnumSet.of(Format.REPORT)), s -> { });
        String md = Files.readString(dir.resolve("report.md"));
        assertThat(md).contains("| OOM kills | 4 systemd-oomd kills, 1,392 kernel kills; 96,525 processes killed |")
                .contains("| Sun 19 Oct 2025 10:14:22 |  | systemd-oomd (whole cgroup) | 1 | 18,705 | app-terminal-window-4101.scope |")
                .contains("| kernel | 1,392 | 1,392 | deploy.sh ");
    }
}
