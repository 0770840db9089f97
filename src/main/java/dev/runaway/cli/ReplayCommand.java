// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.cli;

import dev.runaway.export.IncidentReport;
import dev.runaway.export.IncidentSummary;
import dev.runaway.model.SafeText;
import dev.runaway.timeline.Incident;
import dev.runaway.timeline.IncidentReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.concurrent.Callable;

/** {@code runaway replay FILE}: what a recorded incident comes to, as text. */
@Command(name = "replay", mixinStandardHelpOptions = true,
        description = {"Reads a recorded incident and tells what happened: peaks, the worst group's growth, chains and"
                + " recursion, caps, OOM kills, the guided stop's steps and time to zero.",
                "Rates are derived again from the raw samples, so they equal what the live console showed."
                + " 'runaway console --replay FILE' shows the same file in the window;"
                + " 'runaway export FILE --out DIR' makes its charts and report."})
public final class ReplayCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "FILE", description = "an incident file (runaway record, the console, runaway run --record)")
    Path file;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Incident incident;
        try {
            incident = IncidentReader.read(file);
        } catch (java.io.IOException unreadable) {
            spec.commandLine().getErr().println("runaway replay: " + SafeText.terminal(unreadable.getMessage()));
            return 2;
        }
        var t = incident.timeline();
        out.printf("%s: %d pulses, %d scans, %d events%s%n", SafeText.terminal(String.join(" + ", incident.files().stream().map(Path::toString).toList())),
                t.pulses().size(), t.scans().size(), t.events().size(),
                incident.tornLineSkipped() ? "; a torn last line was skipped (the recorder was killed while writing it)" : "");
        out.println();
        out.print(SafeText.lines(IncidentReport.text(IncidentSummary.of(t), ZoneId.systemDefault())));
        out.flush();
        return 0;
    }
}
