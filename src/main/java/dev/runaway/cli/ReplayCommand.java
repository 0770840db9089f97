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

    @picocli.CommandLine.Option(names = "--by-cgroup", description = "the recorded cgroup lens (tasks, growth, cap and headroom per"
            + " cgroup, as 'runaway scan --by-cgroup'), at its most severe moment or at --at")
    boolean byCgroup;

    @picocli.CommandLine.Option(names = "--at", paramLabel = "SECONDS", description = "with --by-cgroup: the last scan at or"
            + " before this many seconds into the recording")
    Double at;

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
        if (byCgroup) return printCgroups(out, t);
        out.printf("%s: %d pulses, %d scans, %d events%s%n", SafeText.terminal(String.join(" + ", incident.files().stream().map(Path::toString).toList())),
                t.pulses().size(), t.scans().size(), t.events().size(),
                incident.tornLineSkipped() ? "; a torn last line was skipped (the recorder was killed while writing it)" : "");
        out.println();
        out.print(SafeText.lines(IncidentReport.text(IncidentSummary.of(t), ZoneId.systemDefault())));
        out.flush();
        return 0;
    }

    /** The cgroup lens of one recorded scan: the one at --at, or the one whose worst cgroup was most severe. */
    private int printCgroups(PrintWriter out, dev.runaway.timeline.Timeline t) {
        java.util.Comparator<dev.runaway.analysis.CgroupLoad> severity = dev.runaway.analysis.GroupOrder.severity();
        dev.runaway.timeline.GroupScan chosen = null;
        for (dev.runaway.timeline.GroupScan s : t.scans()) {
            if (s.cgroups().isEmpty()) continue;
            if (at != null) {
                if (s.seconds() <= at) chosen = s;
            } else if (chosen == null || severity.compare(s.cgroups().get(0), chosen.cgroups().get(0)) < 0) {
                chosen = s;
            }
        }
        if (chosen == null) {
            spec.commandLine().getErr().println("runaway replay: " + SafeText.terminal(file.toString()) + " keeps no cgroup lens"
                    + (at != null ? " at or before " + at + " s" : "") + " (recorded before recordings kept it, or by 'runaway run')");
            return 1;
        }
        String when = java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneId.systemDefault())
                .format(chosen.time());
        String header = String.format(java.util.Locale.ROOT, "recorded %s (%.1f s in): %d processes, %d cgroups kept",
                when, chosen.seconds(), chosen.processes(), chosen.cgroups().size());
        ScanCommand.printCgroups(out, header, chosen.cgroups(), Integer.MAX_VALUE, 120); // its rows escape the paths
        return 0;
    }
}
