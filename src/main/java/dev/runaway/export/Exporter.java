// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.export;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.runaway.timeline.Incident;
import dev.runaway.timeline.Timeline;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The export's entry point, for the command line and the console's export menu: an incident (or
 * a live timeline) to charts (PNG, SVG), CSV, the JSON incident and the report, in one directory.
 * Progress is told line by line ("wrote tasks.png (1200x500, 61 KiB)"); the files written are
 * returned. Headless: nothing here needs a display or JavaFX.
 */
public final class Exporter {
    private Exporter() {
    }

    /**
     * A recorded incident. Its header's {@code memoryMax} (bytes), when present, is the memory cap
     * marked on the memory chart unless the options name one.
     */
    public static List<Path> export(Incident incident, ExportOptions options, Consumer<String> progress) throws IOException {
        ExportOptions o = options;
        JsonNode cap = incident.header().path("memoryMax");
        if (o.memoryCapBytes().isEmpty() && cap.canConvertToLong() && cap.asLong() > 0) o = o.memoryCap(cap.asLong());
        return export(incident.timeline(), incident.header(), o, progress);
    }

    /** A timeline in memory (the console's live one). */
    public static List<Path> export(Timeline timeline, ExportOptions options, Consumer<String> progress) throws IOException {
        JsonNode header = JsonNodeFactory.instance.objectNode().put("source", timeline.source())
                .put("started", timeline.started().toString());
        return export(timeline, header, options, progress);
    }

    private static List<Path> export(Timeline whole, JsonNode header, ExportOptions o, Consumer<String> progress) throws IOException {
        Path dir = writableDirectory(o.out());
        Timeline timeline = o.range().map(r -> r.slice(whole)).orElse(whole);
        IncidentSummary summary = IncidentSummary.of(timeline, o.groups());
        List<Chart> charts = Charts.of(timeline, summary, o.range(), o.zone(), o.memoryCapBytes());
        List<Path> written = new ArrayList<>();
        boolean pngsForReport = o.wants(Format.REPORT) && !o.wants(Format.PNG);
        if (o.wants(Format.PNG) || pngsForReport) {
            for (Chart c : charts) {
                written.add(write(dir.resolve(c.name() + ".png"), ChartImages.png(c, o.width(), o.height(), 1),
                        o.width() + "x" + o.height() + (pngsForReport ? ", for report.md" : ""), progress));
                if (o.hiDpi()) {
                    written.add(write(dir.resolve(c.name() + "@2x.png"), ChartImages.png(c, o.width(), o.height(), 2),
                            2 * o.width() + "x" + 2 * o.height(), progress));
                }
            }
        }
        if (o.wants(Format.SVG)) {
            for (Chart c : charts) {
                written.add(write(dir.resolve(c.name() + ".svg"), ChartImages.svg(c, o.width(), o.height()).getBytes(StandardCharsets.UTF_8),
                        o.width() + "x" + o.height(), progress));
            }
        }
        if (o.wants(Format.CSV)) {
            List<Path> files = SeriesCsv.write(timeline, dir);
            long[] rows = {timeline.pulses().size(), timeline.scans().stream().mapToLong(sc -> sc.groups().size()).sum(),
                    timeline.events().size()};
            for (int i = 0; i < files.size(); i++) {
                written.add(files.get(i));
                progress.accept("wrote " + files.get(i).getFileName() + " (" + Words.count(rows[i]) + " rows, " + size(files.get(i)) + ")");
            }
        }
        if (o.wants(Format.JSON)) {
            Path p = dir.resolve("incident.json");
            IncidentJson.write(IncidentJson.document(timeline, header, summary, o.range()), p);
            written.add(p);
            progress.accept("wrote incident.json (" + size(p) + ")");
        }
        if (o.wants(Format.REPORT)) {
            String html = IncidentReport.html(summary, o.zone(), charts, c -> ChartImages.svgElement(c, o.width(), o.height()));
            written.add(write(dir.resolve("report.html"), html.getBytes(StandardCharsets.UTF_8), "charts inlined", progress));
            written.add(write(dir.resolve("report.md"), IncidentReport.markdown(summary, o.zone(), charts)
                    .getBytes(StandardCharsets.UTF_8), "beside the PNGs", progress));
        }
        return List.copyOf(written);
    }

    /** The directory, created when missing; an unwritable one is refused in words. */
    static Path writableDirectory(Path dir) throws IOException {
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new IOException("cannot export to " + dir + ": it is a file, not a directory");
        }
        try {
            Files.createDirectories(dir);
            Path probe = Files.createTempFile(dir, ".runaway-export-", ".probe");
            Files.delete(probe);
        } catch (FileSystemException e) {
            String why = e.getReason() != null ? e.getReason() : e.getClass().getSimpleName();
            throw new IOException("cannot write to " + dir + ": " + why.toLowerCase(java.util.Locale.ROOT)
                    + (e.getFile() != null && !e.getFile().equals(dir.toString()) ? " (" + e.getFile() + ")" : ""), e);
        }
        return dir;
    }

    private static Path write(Path file, byte[] bytes, String what, Consumer<String> progress) throws IOException {
        Files.write(file, bytes);
        progress.accept("wrote " + file.getFileName() + " (" + what + ", " + dev.runaway.model.Units.bytes(bytes.length) + ")");
        return file;
    }

    private static String size(Path p) throws IOException {
        return dev.runaway.model.Units.bytes(Files.size(p));
    }
}
