// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.export;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import dev.runaway.timeline.GroupScan;
import dev.runaway.timeline.PulsePoint;
import dev.runaway.timeline.Timeline;
import dev.runaway.timeline.TimelineEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The CSV files read back: the columns documented, one row per point, the figures as recorded. */
class SeriesCsvTest {

    static List<Map<String, String>> read(Path file, List<String> header) throws Exception {
        CsvMapper csv = new CsvMapper();
        List<Map<String, String>> rows = new ArrayList<>();
        try (MappingIterator<Map<String, String>> it = csv.readerForMapOf(String.class)
                .with(CsvSchema.emptySchema().withHeader()).readValues(file.toFile())) {
            while (it.hasNext()) rows.add(it.next());
        }
        assertThat(java.nio.file.Files.readAllLines(file).get(0)).isEqualTo(String.join(",", header));
        return rows;
    }

    @Test
    void everySeriesWithItsColumnsAndRows(@TempDir Path dir) throws Exception {
        Timeline t = IncidentFixtures.pidsCappedAndStopped();
        List<Path> files = SeriesCsv.write(t, dir);
        assertThat(files).extracting(p -> p.getFileName().toString()).containsExactly("pulses.csv", "groups.csv", "events.csv");

        List<Map<String, String>> pulses = read(files.get(0), SeriesCsv.PULSE_COLUMNS);
        assertThat(pulses).hasSize(t.pulses().size());
        for (int i = 0; i < pulses.size(); i++) {
            PulsePoint p = t.pulses().get(i);
            Map<String, String> row = pulses.get(i);
            assertThat(Instant.parse(row.get("time"))).isEqualTo(p.time());
            assertThat(Double.parseDouble(row.get("seconds"))).isEqualTo(p.seconds());
            assertThat(Integer.parseInt(row.get("tasks"))).isEqualTo(p.tasks());
            assertThat(Long.parseLong(row.get("memory_used_bytes"))).isEqualTo(p.memoryUsedBytes());
            assertThat(Double.parseDouble(row.get("pressure_some_avg10_percent"))).isEqualTo(p.pressureSome10());
        }

        List<Map<String, String>> groups = read(files.get(1), SeriesCsv.GROUP_COLUMNS);
        assertThat(groups).hasSize(t.scans().stream().mapToInt(s -> s.groups().size()).sum());
        GroupScan first = t.scans().get(0);
        assertThat(groups.get(0)).containsEntry("command", IncidentFixtures.DEPLOY).containsEntry("rank", "1")
                .containsEntry("tasks", Integer.toString(first.groups().get(0).tasks()))
                .containsEntry("rss_bytes_per_second", Long.toString(250 * IncidentFixtures.MIB))
                .containsEntry("seconds_to_exhaustion", "");
        assertThat(groups).filteredOn(r -> r.get("recursive").equals("true")).first()
                .satisfies(r -> assertThat(r.get("cycle")).isEqualTo(String.join(" -> ", IncidentFixtures.CYCLE)));

        List<Map<String, String>> events = read(files.get(2), SeriesCsv.EVENT_COLUMNS);
        assertThat(events).hasSize(t.events().size());
        TimelineEvent stop = t.events().stream().filter(e -> e.title().equals("kill")).findFirst().orElseThrow();
        assertThat(events).anySatisfy(r -> assertThat(r).containsEntry("kind", "stop-step").containsEntry("title", "kill")
                .containsEntry("count", Long.toString(stop.count())).containsEntry("millis", "40").containsEntry("pid", ""));
    }

    @Test
    void aTextWithCommasAndQuotesStaysOneCell(@TempDir Path dir) throws Exception {
        Timeline t = new Timeline(IncidentFixtures.STARTED, 0, "test");
        String detail = "killed \"bash -c 'a, b'\", then\nmore";
        t.add(new TimelineEvent(1, t.timeAt(1), dev.runaway.timeline.EventKind.NOTE, "note", detail, -1, -1, "", -1));
        List<Map<String, String>> events = read(SeriesCsv.write(t, dir).get(2), SeriesCsv.EVENT_COLUMNS);
        assertThat(events).singleElement().satisfies(r -> assertThat(r.get("detail")).isEqualTo(detail));
    }
}
