// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.cli;

import dev.runaway.export.ExportOptions;
import dev.runaway.export.Exporter;
import dev.runaway.export.Format;
import dev.runaway.export.TimeRange;
import dev.runaway.timeline.Incident;
import dev.runaway.timeline.IncidentReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

/** {@code runaway export}: a recording's charts, series, JSON and report, headless. */
@Command(name = "export", mixinStandardHelpOptions = true,
        description = {"Exports a recorded incident: charts (PNG, SVG), every series as CSV, the JSON incident, and a"
                + " one-page report (HTML with the charts inlined, Markdown beside the PNGs).",
                "All formats when none is named. Needs no display: charts are drawn with Java2D."})
public final class ExportCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE", description = "a recording (runaway record, runaway run --record, the console)")
    Path file;

    @Option(names = "--out", paramLabel = "DIR", required = true, description = "the directory to write to (created when missing)")
    Path out;

    @Option(names = "--png", description = "each chart as PNG (1200x500)")
    boolean png;

    @Option(names = "--svg", description = "each chart as SVG")
    boolean svg;

    @Option(names = "--csv", description = "pulses.csv, groups.csv, events.csv")
    boolean csv;

    @Option(names = "--json", description = "incident.json: header, summary, every series and the events")
    boolean json;

    @Option(names = "--report", description = "report.html and report.md (with the PNGs it shows)")
    boolean report;

    @Option(names = "--from", paramLabel = "S", description = "only from this second of the recording on (negative: history before it)")
    Double from;

    @Option(names = "--to", paramLabel = "S", description = "only up to this second of the recording")
    Double to;

    @Option(names = "--hidpi", description = "also write each PNG at twice the size (NAME@2x.png)")
    boolean hiDpi;

    @Option(names = "--group", paramLabel = "KEY", description = "chart this command group (a key as scan shows it); "
            + "repeat for several. Default: the groups the guided stop stopped, else the largest")
    List<String> groups = new java.util.ArrayList<>();

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter outText = spec.commandLine().getOut();
        ExportOptions options = ExportOptions.to(out).formats(formats()).hiDpi(hiDpi).groups(groups);
        if (from != null || to != null) {
            try {
                options = options.range(new TimeRange(from != null ? from : Double.NEGATIVE_INFINITY, to != null ? to : Double.POSITIVE_INFINITY));
            } catch (IllegalArgumentException absurd) {
                err.println("runaway export: " + absurd.getMessage());
                return 2;
            }
        }
        Incident incident;
        try {
            incident = IncidentReader.read(file);
        } catch (java.io.IOException unreadable) {
            err.println("runaway export: " + dev.runaway.model.SafeText.terminal(unreadable.getMessage()));
            return 2;
        }
        if (incident.tornLineSkipped()) err.println("runaway export: the last line of " + file + " was torn (a recorder killed mid-write): skipped");
        long started = System.nanoTime();
        List<Path> written = Exporter.export(incident, options, line -> {
            outText.println(line);
            outText.flush();
        });
        outText.printf("%d files in %s (%d ms)%n", written.size(), out, (System.nanoTime() - started) / 1_000_000);
        return 0;
    }

    private Set<Format> formats() {
        Set<Format> chosen = EnumSet.noneOf(Format.class);
        if (png) chosen.add(Format.PNG);
        if (svg) chosen.add(Format.SVG);
        if (csv) chosen.add(Format.CSV);
        if (json) chosen.add(Format.JSON);
        if (report) chosen.add(Format.REPORT);
        return chosen;
    }
}
