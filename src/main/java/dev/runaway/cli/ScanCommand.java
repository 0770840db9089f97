// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.cli;

import dev.runaway.analysis.CgroupColumn;
import dev.runaway.analysis.CgroupLoad;
import dev.runaway.analysis.GroupCap;
import dev.runaway.analysis.GroupColumn;
import dev.runaway.analysis.GroupOrder;
import dev.runaway.analysis.LiveAnalysis;
import dev.runaway.analysis.Snapshot;
import dev.runaway.analysis.SnapshotJson;
import dev.runaway.model.Json;
import dev.runaway.model.SafeText;
import dev.runaway.model.Units;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code runaway scan}: one analysed snapshot of the live process table. */
@Command(name = "scan", mixinStandardHelpOptions = true,
        description = {"Print one snapshot of the process table, grouped by command, with chains, recursion and growth.",
                "It watches for a short window first (--window, default 2 s) so that rates and growth shapes are real."})
public final class ScanCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--json", description = "print JSON: time, tasks, forksPerSecond, memory, swap, pressure, groups[]")
    boolean json;

    @Option(names = "--window", paramLabel = "DURATION", defaultValue = "2s", converter = Durations.class,
            description = "how long to watch before printing (default: ${DEFAULT-VALUE})")
    Duration window;

    @Option(names = "--all", description = "every group in the table view (default: the 25 most severe)")
    boolean all;

    @Option(names = "--by-cgroup", description = "the machine by cgroup: tasks, growth, cap and headroom per cgroup, "
            + "whatever the processes' commands (a runaway of copied or renamed binaries shows here as one cgroup)")
    boolean byCgroup;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Snapshot snapshot;
        java.util.Map<String, java.util.List<dev.runaway.model.ProcessIdentity>> targets = java.util.Map.of();
        dev.runaway.analysis.ScanStatus status;
        EarlyScan.Started early = EarlyScan.take();
        try (LiveAnalysis live = early.live()) {
            Thread.sleep(Math.max(0, window.toMillis() - early.millisAgo()));
            snapshot = live.awaitLatest();
            if (json) { // the targets of the very scan printed
                var targeted = live.latestTargeted();
                snapshot = targeted.snapshot();
                targets = targeted.targets();
            }
            status = live.scanStatus();
        }
        if (json) {
            var root = SnapshotJson.of(snapshot, targets);
            root.put("cmdlinesUnread", status.cmdlinesUnread()); // grouped by executable meanwhile
            root.put("statsUnread", status.statsUnread()); // new processes not in the table: their stat waits
            var held = dev.runaway.guard.GuardState.read();
            for (var g : root.withArray("groups")) {
                var h = held.get(g.path("command").asText());
                if (h == null) continue;
                ((com.fasterxml.jackson.databind.node.ObjectNode) g).putObject("held").put("rule", h.rule().name()).put("why", h.why())
                        .put("since", h.since().toString()).put("lever", h.lever()).put("dryRun", h.dryRun());
            }
            out.println(Json.PRETTY.writeValueAsString(root));
        } else if (byCgroup) {
            printCgroups(out, snapshot, all ? Integer.MAX_VALUE : 25, 120);
        } else {
            printTable(out, snapshot, all ? Integer.MAX_VALUE : 25, 120);
        }
        if (!json && (status.cmdlinesUnread() > 0 || status.statsUnread() > 0)) out.println("Note: " + status.describe());
        out.flush();
        return 0;
    }

    static void printTable(PrintWriter out, Snapshot s, int rows, int width) {
        out.println(Header.line(s));
        out.println(GroupColumn.row(null, width));
        int shown = 0;
        var held = dev.runaway.guard.GuardState.read();
        for (var g : s.groups()) {
            if (shown++ >= rows) {
                out.printf(Locale.ROOT, "... and %d more groups (--all)%n", s.groups().size() - rows);
                break;
            }
            var h = held.get(g.command());
            out.println(GroupColumn.row(g, width, h == null ? "" : h.dryRun() ? "WOULD HOLD " : "HELD "));
        }
        for (var h : held.values()) {
            out.println((h.dryRun() ? "WOULD HOLD " : "HELD ") + SafeText.terminal(h.key()) + " by the guard: " + SafeText.terminal(h.why()));
        }
        for (String line : cgroupsOfConcern(s)) out.println(line);
        out.flush();
    }

    static void printCgroups(PrintWriter out, Snapshot s, int rows, int width) {
        printCgroups(out, Header.line(s), s.cgroups(), rows, width);
    }

    /** The cgroup lens under a header line: live ({@code scan --by-cgroup}) or recorded ({@code replay --by-cgroup}). */
    static void printCgroups(PrintWriter out, String header, java.util.List<CgroupLoad> cgroups, int rows, int width) {
        out.println(header);
        out.println(CgroupColumn.row(null, width));
        int shown = 0;
        for (CgroupLoad c : cgroups) {
            if (shown++ >= rows) {
                out.printf(Locale.ROOT, "... and %d more cgroups (--all)%n", cgroups.size() - rows);
                break;
            }
            out.println(CgroupColumn.row(c, width));
        }
        out.flush();
    }

    /**
     * Cgroups at a cap or growing whose tasks are spread over several command groups: the
     * command table shows them as many small rows, so they are named here, under it.
     */
    static java.util.List<String> cgroupsOfConcern(Snapshot s) {
        java.util.List<String> lines = new java.util.ArrayList<>();
        for (CgroupLoad c : s.cgroups()) {
            GroupOrder.Tier tier = GroupOrder.tier(c);
            // The root cgroup holds whatever nothing else does: on most machines, everything.
            if (tier.compareTo(GroupOrder.Tier.GROWING) < 0 || c.groups() < 2 || c.path().equals("/") || lines.size() == 3) continue;
            String state = c.atCap() ? "AT CAP " + c.cap().map(GroupCap::text).orElse("")
                    : Double.isNaN(c.secondsLeft()) ? c.growthShape() + " " + Units.perSecond(c.rate())
                    : String.format(Locale.ROOT, "%.0f s to its cap", c.secondsLeft());
            lines.add(String.format(Locale.ROOT, "cgroup %s: %s, %d tasks in %d command groups (runaway scan --by-cgroup)",
                    SafeText.terminal(c.path()), state, c.tasks(), c.groups()));
        }
        return lines;
    }

    /** The one-line machine summary shared by scan and top. */
    static final class Header {
        private Header() {
        }

        static String line(Snapshot s) {
            var p = s.pulse();
            String pressure = p.pressure().map(x -> String.format(Locale.ROOT, "%.1f%% some, %.1f%% full", x.someAvg10(), x.fullAvg10()))
                    .orElse("n/a");
            return String.format(Locale.ROOT, "tasks %d (%s)  forks %.0f/s  memory %s of %s  swap %s of %s  pressure %s  processes %d, scan %d ms",
                    p.tasks(), s.totalGrowth().shape().json(), s.forksPerSecond(), Units.bytes(p.memoryUsedBytes()),
                    Units.bytes(p.memoryTotalBytes()), Units.bytes(p.swapUsedBytes()), Units.bytes(p.swapTotalBytes()),
                    pressure, s.processes(), s.scanNanos() / 1_000_000);
        }
    }
}
