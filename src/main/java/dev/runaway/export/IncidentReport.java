// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.export;

import dev.runaway.model.Units;
import dev.runaway.timeline.EventKind;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The one-page incident report: the key figures, the charts, then the findings, the OOM kills
 * and the guided stop step by step. The same content as self-contained HTML (charts inlined as
 * SVG) and as Markdown (charts as the PNGs beside it).
 */
public final class IncidentReport {
    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("EEE d MMM yyyy HH:mm:ss", Locale.ROOT);
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss.SSS", Locale.ROOT);

    private final IncidentSummary s;
    private final ZoneId zone;

    /** A table: its heading, column names and rows, as plain text. */
    record Table(String heading, List<String> columns, List<List<String>> rows, String none) {
    }

    private IncidentReport(IncidentSummary summary, ZoneId zone) {
        this.s = summary;
        this.zone = zone;
    }

    /** The figures a reader looks for first, in words: label and value. */
    static List<List<String>> keyFigures(IncidentSummary s, ZoneId zone) {
        IncidentReport r = new IncidentReport(s, zone);
        List<List<String>> rows = new ArrayList<>();
        rows.add(List.of("recorded", r.when(s.fromSeconds()) + " to " + r.when(s.toSeconds()) + " ("
                + Words.duration(s.toSeconds() - s.fromSeconds()) + ")"));
        s.peakTasks().ifPresent(p -> rows.add(List.of("peak tasks (machine)", Words.count(p.value()) + " at " + r.clock(p.seconds()))));
        s.worstGroup().ifPresent(g -> {
            rows.add(List.of("worst group", g.command()));
            rows.add(List.of("its peak", Words.count(g.peakTasks()) + " tasks at " + r.clock(g.peakTasksSeconds())
                    + (g.peakMemoryBytes() > 0 ? ", " + Units.bytes(g.peakMemoryBytes()) + " memory (" + g.memoryWords() + ")" : "")
                    + (g.capTasks() >= 0 ? " (pids.max " + Words.count(g.capTasks()) + ")" : "")));
            rows.add(List.of("growth", g.growthWords() + (Double.isNaN(g.bytesPerSecond()) || g.bytesPerSecond() == 0 ? ""
                    : ", " + Words.rate(g.bytesPerSecond() / (1024.0 * 1024), "MiB"))));
            rows.add(List.of("chains", Words.plural(g.chains(), "chain", "chains") + ", the deepest "
                    + Words.plural(g.deepestChain(), "level", "levels") + (g.parentedToInit() ? "; parented to init (orphans)" : "")));
        });
        s.peakMemoryUsed().ifPresent(p -> rows.add(List.of("peak memory used", Units.bytes(p.value()) + " of "
                + Units.bytes(s.memoryTotalBytes()) + " at " + r.clock(p.seconds()))));
        s.peakSwapUsed().ifPresent(p -> rows.add(List.of("peak swap used", s.swapTotalBytes() > 0
                ? Units.bytes(p.value()) + " of " + Units.bytes(s.swapTotalBytes()) + " at " + r.clock(p.seconds()) : "no swap")));
        s.peakPressureSome10().ifPresent(p -> rows.add(List.of("peak memory pressure", String.format(Locale.ROOT, "%.1f%% (some, avg10)", p))));
        rows.add(List.of("recursion", s.recursions().isEmpty() ? "none found"
                : String.join("; ", s.recursions().stream().map(f -> f.detail().isEmpty() ? f.title() : f.detail()).toList())));
        rows.add(List.of("caps reached", s.caps().isEmpty() ? "none" : String.join("; ",
                s.caps().stream().map(f -> f.title() + " at " + r.clock(f.seconds())).toList())));
        IncidentSummary.Oom o = s.oom();
        rows.add(List.of("OOM kills", o.events() == 0 ? "none recorded" : Words.plural(o.oomdKills(), "systemd-oomd kill", "systemd-oomd kills")
                + ", " + Words.plural(o.kernelKills(), "kernel kill", "kernel kills") + "; "
                + Words.count(o.processesKilled()) + " processes killed"));
        if (!s.stopSteps().isEmpty()) {
            rows.add(List.of("guided stop", "began at " + r.clock(s.stopStartedSeconds().orElse(0)) + ", "
                    + Words.plural(s.stopSteps().size(), "step", "steps")));
            rows.add(List.of("time to zero", s.secondsToZero().isPresent()
                    ? Words.duration(s.secondsToZero().getAsDouble()) + " (then confirmed over "
                    + Words.duration(dev.runaway.stop.run.StopEngine.STABLE_WINDOW.toMillis() / 1000.0) + " with no match)"
                    : "zero not confirmed"));
            rows.add(List.of("restored", s.restored().isEmpty() ? "nothing to restore" : String.join("; ", s.restored())));
        }
        return rows;
    }

    List<Table> tables() {
        List<Table> out = new ArrayList<>();
        out.add(new Table("Chains and recursion", List.of("time", "found", "detail"),
                s.recursions().stream().map(f -> List.of(clockOrDash(f.seconds(), f.time()), f.title(), f.detail())).toList(),
                "No recursion found."));
        List<List<String>> caps = new ArrayList<>();
        s.caps().forEach(f -> caps.add(List.of(clock(f.seconds()), f.title(), f.detail())));
        s.reparenting().forEach(f -> caps.add(List.of(clock(f.seconds()), f.title(), f.detail())));
        out.add(new Table("Caps reached and reparenting", List.of("time", "what", "detail"), caps, "No cap reached, no burst of reparenting."));
        out.add(new Table("Out-of-memory kills", List.of("from", "to", "killer", "kills", "processes", "who"),
                s.oom().episodes().stream().map(this::episode).toList(), "No OOM kills recorded."));
        double start = s.stopStartedSeconds().orElse(0);
        out.add(new Table("Guided stop", List.of("time", "+s", "step", "what was done", "processes", "ms"),
                s.stopSteps().stream().map(f -> List.of(clock(f.seconds()), String.format(Locale.ROOT, "%.3f", f.seconds() - start),
                        f.title(), f.detail(), f.count() >= 0 ? Words.count(f.count()) : "", f.millis() >= 0 ? Long.toString(f.millis()) : ""))
                        .toList(), "No guided stop recorded."));
        return out;
    }

    private List<String> episode(OomEpisode e) {
        String who = String.join(", ", e.commands().entrySet().stream().limit(4)
                .map((Map.Entry<String, Long> c) -> e.kind() == EventKind.OOMD_KILL ? c.getKey() : c.getKey() + " " + Words.count(c.getValue()))
                .toList()) + (e.commands().size() > 4 ? ", +" + (e.commands().size() - 4) + " more" : "");
        return List.of(when(e.fromSeconds()), e.kills() > 1 ? when(e.toSeconds()) + " (" + Words.duration(e.seconds()) + ")" : "",
                e.kind() == EventKind.OOMD_KILL ? "systemd-oomd (whole cgroup)" : "kernel", Words.count(e.kills()),
                e.processes() >= 0 ? Words.count(e.processes()) : "?", who);
    }

    private String when(double seconds) {
        return s.started().plusNanos(Math.round(seconds * 1e9)).atZone(zone).format(WHEN);
    }

    private String clock(double seconds) {
        return s.started().plusNanos(Math.round(seconds * 1e9)).atZone(zone).format(CLOCK);
    }

    private String clockOrDash(double seconds, Instant time) {
        return time.equals(Instant.EPOCH) ? "-" : clock(seconds);
    }

    private String title() {
        return "Incident report: " + s.source();
    }

    // ---- HTML ----

    /** A self-contained page: the charts are the SVG elements given, inlined. */
    public static String html(IncidentSummary summary, ZoneId zone, List<Chart> charts, Function<Chart, String> svgElement) {
        IncidentReport r = new IncidentReport(summary, zone);
        StringBuilder b = new StringBuilder();
        b.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>").append(esc(r.title()))
                .append("</title>\n<style>\n")
                .append("body{font-family:system-ui,-apple-system,'DejaVu Sans',sans-serif;max-width:1240px;margin:24px auto;padding:0 16px;color:#222}\n")
                .append("h1{font-size:1.5em;margin-bottom:4px}h2{font-size:1.15em;margin-top:28px;border-bottom:1px solid #ddd}\n")
                .append("table{border-collapse:collapse;margin:8px 0}td,th{padding:3px 10px;text-align:left;vertical-align:top;border-bottom:1px solid #eee}\n")
                .append("th{background:#f4f4f4}.key td:first-child{color:#555;white-space:nowrap}.muted{color:#666}\n")
                .append(".chart svg{width:100%;height:auto;border:1px solid #eee;margin:8px 0}\n")
                .append("</style></head><body>\n");
        b.append("<h1>").append(esc(r.title())).append("</h1>\n<p class=\"muted\">Times in ").append(esc(zone.getId()))
                .append(". Made by <code>runaway export</code>.</p>\n<table class=\"key\">\n");
        for (List<String> row : keyFigures(summary, zone)) {
            b.append("<tr><td>").append(esc(row.get(0))).append("</td><td>").append(esc(row.get(1))).append("</td></tr>\n");
        }
        b.append("</table>\n");
        for (Chart c : charts) b.append("<div class=\"chart\">").append(svgElement.apply(c)).append("</div>\n");
        for (Table t : r.tables()) {
            b.append("<h2>").append(esc(t.heading())).append("</h2>\n");
            if (t.rows().isEmpty()) {
                b.append("<p class=\"muted\">").append(esc(t.none())).append("</p>\n");
                continue;
            }
            b.append("<table><tr>");
            t.columns().forEach(c -> b.append("<th>").append(esc(c)).append("</th>"));
            b.append("</tr>\n");
            for (List<String> row : t.rows()) {
                b.append("<tr>");
                row.forEach(c -> b.append("<td>").append(esc(c)).append("</td>"));
                b.append("</tr>\n");
            }
            b.append("</table>\n");
        }
        return b.append("</body></html>\n").toString();
    }

    static String esc(String s) {
        return dev.runaway.model.SafeText.markup(s);
    }

    // ---- Markdown ----

    /** The same report in Markdown; the charts are the PNG files beside it, by name. */
    public static String markdown(IncidentSummary summary, ZoneId zone, List<Chart> charts) {
        IncidentReport r = new IncidentReport(summary, zone);
        StringBuilder b = new StringBuilder();
        b.append("# ").append(r.title()).append("\n\nTimes in ").append(zone.getId()).append(". Made by `runaway export`.\n\n");
        b.append("| | |\n|---|---|\n");
        for (List<String> row : keyFigures(summary, zone)) b.append("| ").append(cell(row.get(0))).append(" | ").append(cell(row.get(1))).append(" |\n");
        b.append('\n');
        for (Chart c : charts) b.append("![").append(c.title()).append("](").append(c.name()).append(".png)\n\n");
        for (Table t : r.tables()) {
            b.append("## ").append(t.heading()).append("\n\n");
            if (t.rows().isEmpty()) {
                b.append(t.none()).append("\n\n");
                continue;
            }
            b.append("| ").append(String.join(" | ", t.columns())).append(" |\n|");
            t.columns().forEach(c -> b.append("---|"));
            b.append('\n');
            for (List<String> row : t.rows()) b.append("| ").append(String.join(" | ", row.stream().map(IncidentReport::cell).toList())).append(" |\n");
            b.append('\n');
        }
        return b.toString();
    }

    // ---- Plain text ----

    /** The same report for a terminal: key figures aligned, then each table as indented lines. */
    public static String text(IncidentSummary summary, ZoneId zone) {
        IncidentReport r = new IncidentReport(summary, zone);
        StringBuilder b = new StringBuilder(r.title()).append(" (times in ").append(zone.getId()).append(")\n\n");
        List<List<String>> figures = keyFigures(summary, zone);
        int width = figures.stream().mapToInt(row -> row.get(0).length()).max().orElse(0);
        for (List<String> row : figures) b.append(String.format(Locale.ROOT, "  %-" + width + "s  %s%n", row.get(0), row.get(1)));
        for (Table t : r.tables()) {
            b.append('\n').append(t.heading()).append('\n');
            if (t.rows().isEmpty()) {
                b.append("  ").append(t.none()).append('\n');
                continue;
            }
            for (List<String> row : t.rows()) {
                b.append("  ").append(String.join("  ", row.stream().filter(c -> !c.isEmpty()).toList())).append('\n');
            }
        }
        return b.toString();
    }

    private static String cell(String s) {
        return dev.runaway.model.SafeText.terminal(s.replace("\n", " ")).replace("|", "\\|");
    }
}
