// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.export;

import dev.runaway.stop.StepEvents;
import dev.runaway.timeline.EventKind;
import dev.runaway.timeline.GroupPoint;
import dev.runaway.timeline.GroupScan;
import dev.runaway.timeline.PulsePoint;
import dev.runaway.timeline.Timeline;
import dev.runaway.timeline.TimelineEvent;

import java.awt.Color;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.ToDoubleFunction;

/**
 * The four incident charts built from a timeline: tasks (the machine's and the top groups', caps
 * and stop steps marked), memory and swap (limits marked), memory pressure, and the OOM kills.
 * A group keeps its colour in every chart.
 */
public final class Charts {
    /** A limit is drawn inside the chart when it is at most this many times the data's peak. */
    static final double LIMIT_IN_VIEW = 1.6;
    /** The machine's figures share the groups' axis unless they would flatten them (more than this many times higher). */
    static final double SHARED_AXIS = 2.5;
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss", Locale.ROOT);

    private final Timeline timeline;
    private final IncidentSummary summary;
    private final Optional<TimeRange> range;
    private final ZoneId zone;
    private final OptionalLong memoryCap;
    private final Map<String, Color> colours = new HashMap<>();

    private Charts(Timeline timeline, IncidentSummary summary, Optional<TimeRange> range, ZoneId zone, OptionalLong memoryCap) {
        this.timeline = timeline;
        this.summary = summary;
        this.range = range.filter(TimeRange::bounded);
        this.zone = zone;
        this.memoryCap = memoryCap;
        for (GroupHistory g : summary.topGroups()) colour(g.command());
    }

    /** The four charts, in the order the report shows them. */
    public static List<Chart> of(Timeline timeline, IncidentSummary summary, Optional<TimeRange> range, ZoneId zone,
                                 OptionalLong memoryCap) {
        Charts c = new Charts(timeline, summary, range, zone, memoryCap);
        return List.of(c.tasks(), c.memory(), c.pressure(), c.oom());
    }

    private Color colour(String command) {
        return colours.computeIfAbsent(command, k -> Chart.PALETTE[colours.size() % Chart.PALETTE.length]);
    }

    /** The span of the samples (pulses and scans), or the range asked for. */
    private TimeAxis sampleAxis() {
        if (range.isPresent()) return new TimeAxis(timeline.started(), range.get().from(), range.get().to(), zone);
        double from = Double.POSITIVE_INFINITY, to = Double.NEGATIVE_INFINITY;
        for (PulsePoint p : timeline.pulses()) {
            from = Math.min(from, p.seconds());
            to = Math.max(to, p.seconds());
        }
        for (GroupScan s : timeline.scans()) {
            from = Math.min(from, s.seconds());
            to = Math.max(to, s.seconds());
        }
        for (TimelineEvent e : timeline.events()) {
            if (e.kind() == EventKind.STOP_STEP || e.kind() == EventKind.CAP_REACHED) {
                from = Math.min(from, e.seconds());
                to = Math.max(to, e.seconds());
            }
        }
        if (from > to) return new TimeAxis(timeline.started(), 0, 1, zone);
        return new TimeAxis(timeline.started(), from, to, zone);
    }

    // ---- tasks ----

    Chart tasks() {
        TimeAxis axis = sampleAxis();
        List<PulsePoint> pulses = timeline.pulses();
        List<Chart.Line> lines = new ArrayList<>();
        List<Chart.Level> levels = new ArrayList<>();
        List<GroupHistory> groups = subjectOr(shown(summary.topGroups(), GroupHistory::peakTasks));
        double groupPeak = 0;
        boolean first = true;
        for (GroupHistory g : groups) {
            lines.add(groupLine(g.command(), ellipsis(Words.shortName(g.command()), 40) + " (" + g.stateWords() + ")", colour(g.command()),
                    first, p -> p.tasks()));
            groupPeak = Math.max(groupPeak, g.peakTasks());
            first = false;
        }
        for (GroupHistory g : groups) {
            if (g.capTasks() < 0 || levels.stream().anyMatch(l -> l.value() == g.capTasks())) continue;
            levels.add(new Chart.Level("pids.max " + Words.count(g.capTasks()) + " (" + Words.shortName(g.command()) + ")",
                    g.capTasks(), colour(g.command()), false));
        }
        double top = groupPeak;
        for (Chart.Level l : levels) if (l.value() <= groupPeak * LIMIT_IN_VIEW) top = Math.max(top, l.value());
        Optional<ValueAxis> right = Optional.empty();
        if (!pulses.isEmpty()) {
            int low = pulses.stream().mapToInt(PulsePoint::tasks).min().orElse(0);
            int high = pulses.stream().mapToInt(PulsePoint::tasks).max().orElse(0);
            int pidMax = pulses.stream().mapToInt(PulsePoint::pidMax).max().orElse(0);
            boolean apart = !groups.isEmpty() && high > SHARED_AXIS * groupPeak;
            lines.add(pulseLine("all tasks (machine" + (apart ? ", right axis)" : ")"), Chart.TOTAL, false, groups.isEmpty(),
                    apart, pulses, p -> p.tasks()));
            double machineTop = high;
            if (pidMax > 0 && high >= pidMax / 2.0) {
                levels.add(new Chart.Level("pid_max " + Words.count(pidMax), pidMax, Chart.CAP, apart));
                machineTop = Math.max(high, pidMax);
            }
            if (apart) right = Optional.of(ValueAxis.around("all tasks (machine)", ValueAxis.Unit.COUNT, low, machineTop));
            else top = Math.max(top, machineTop);
        }
        List<Chart.Mark> marks = marks(axis, groups.stream().map(GroupHistory::command).collect(java.util.stream.Collectors.toSet()));
        String story = summary.worstGroup().map(g -> Words.shortName(g.command()) + ": " + g.stateWords() + ", peak "
                + Words.count(g.peakTasks()) + " tasks at " + clock(g.peakTasksSeconds())).orElse("");
        String machine = summary.peakTasks().map(p -> "machine peak " + Words.count(p.value()) + " tasks at " + clock(p.seconds())).orElse("");
        return new Chart("tasks", "Tasks over time", join(story, machine, source()), axis,
                ValueAxis.linear(groups.isEmpty() ? "tasks" : "tasks in the group", ValueAxis.Unit.COUNT, top), right, lines,
                levels, marks, List.of(), lines.isEmpty() ? "no tasks recorded" : "");
    }

    /** The incident's subject (the stopped groups, or those asked for) when it has one: a chart about the incident. */
    private List<GroupHistory> subjectOr(List<GroupHistory> otherwise) {
        return summary.subjects().isEmpty() ? otherwise : summary.subjects();
    }

    /** Groups worth a line: up to five, none smaller than a fifth of the largest (daemons at rest). */
    private static List<GroupHistory> shown(List<GroupHistory> groups, java.util.function.ToLongFunction<GroupHistory> size) {
        long largest = groups.stream().mapToLong(size).max().orElse(0);
        return groups.stream().filter(g -> size.applyAsLong(g) > 0 && size.applyAsLong(g) * 5 >= largest).toList();
    }

    /**
     * A group's figure at each scan, and nothing where it did not exist: before it was first seen
     * and while it was absent the line has a gap. At the first scan without it, when that scan
     * lists fewer groups than it keeps (so it had no task left, not merely dropped out of the
     * top), the line drops to 0 once: a stopped group is seen to end.
     */
    private Chart.Line groupLine(String command, String label, Color colour, boolean annotate, ToDoubleFunction<GroupPoint> value) {
        List<GroupScan> scans = timeline.scans();
        double[] xs = new double[scans.size()], ys = new double[scans.size()];
        boolean present = false;
        for (int i = 0; i < scans.size(); i++) {
            GroupScan s = scans.get(i);
            GroupPoint g = s.group(command);
            xs[i] = s.seconds();
            ys[i] = g != null ? value.applyAsDouble(g) : present && s.groups().size() < Timeline.GROUPS_PER_SCAN ? 0 : Double.NaN;
            present = g != null;
        }
        return new Chart.Line(label, colour, xs, ys, false, annotate, false);
    }

    /** The machine's memory used at the pulse nearest {@code seconds}; NaN without pulses. */
    private double machineUsedAt(double seconds) {
        List<PulsePoint> pulses = timeline.pulses();
        if (pulses.isEmpty()) return Double.NaN;
        int lo = 0, hi = pulses.size() - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (pulses.get(mid).seconds() < seconds) lo = mid + 1;
            else hi = mid;
        }
        PulsePoint best = pulses.get(lo);
        if (lo > 0 && Math.abs(pulses.get(lo - 1).seconds() - seconds) < Math.abs(best.seconds() - seconds)) best = pulses.get(lo - 1);
        return best.memoryUsedBytes();
    }

    private static Chart.Line pulseLine(String label, Color colour, boolean dashed, boolean annotate, boolean right,
                                        List<PulsePoint> pulses, ToDoubleFunction<PulsePoint> value) {
        double[] xs = new double[pulses.size()], ys = new double[pulses.size()];
        for (int i = 0; i < pulses.size(); i++) {
            xs[i] = pulses.get(i).seconds();
            ys[i] = value.applyAsDouble(pulses.get(i));
        }
        return new Chart.Line(label, colour, xs, ys, dashed, annotate, right);
    }

    /**
     * Caps reached and recursion found for the {@code plotted} groups (and pid_max), the first of
     * each stop step and the OOM kills inside the axis: each a labelled vertical line.
     */
    private List<Chart.Mark> marks(TimeAxis axis, java.util.Set<String> plotted) {
        List<Chart.Mark> marks = new ArrayList<>();
        Map<String, int[]> repeats = new LinkedHashMap<>(); // one mark per kind and title: the first, with a count
        List<TimelineEvent> steps = new ArrayList<>();
        for (TimelineEvent e : timeline.events()) {
            if (e.seconds() < axis.from() || e.seconds() > axis.to()) continue;
            switch (e.kind()) {
                case CAP_REACHED -> {
                    if (plotted.contains(e.command()) || (!plotted.isEmpty() && e.command().isEmpty())) {
                        once(marks, repeats, new Chart.Mark(e.seconds(), e.title(), Chart.CAP, "cap reached"));
                    }
                }
                case RECURSION -> {
                    if (plotted.contains(e.command())) once(marks, repeats, new Chart.Mark(e.seconds(), e.title(), Chart.TOTAL, "recursion found"));
                }
                case STOP_STEP -> steps.add(e);
                default -> {
                }
            }
        }
        for (int i = 0; i < marks.size(); i++) {
            Chart.Mark m = marks.get(i);
            int n = repeats.get(m.legend() + "\u0000" + m.label())[0];
            if (n > 1) marks.set(i, new Chart.Mark(m.seconds(), m.label() + " (\u00d7" + n + ")", m.color(), m.legend()));
        }
        // The first of each phase, but for confirm zero the moment zero was confirmed.
        for (TimelineEvent e : StepEvents.marked(steps)) marks.add(new Chart.Mark(e.seconds(), StepEvents.label(e), Chart.STOP, "guided stop step"));
        for (OomEpisode o : summary.oom().episodes()) {
            if (o.toSeconds() < axis.from() || o.fromSeconds() > axis.to()) continue;
            marks.add(new Chart.Mark(Math.max(axis.from(), o.fromSeconds()), oomTitle(o), o.kind() == EventKind.OOMD_KILL ? Chart.OOMD : Chart.OOM,
                    "out-of-memory kill"));
        }
        return marks;
    }

    /** Adds the mark unless one of its kind and label is there: then counts it (repeats collapse into one label). */
    private static void once(List<Chart.Mark> marks, Map<String, int[]> repeats, Chart.Mark m) {
        int[] n = repeats.computeIfAbsent(m.legend() + "\u0000" + m.label(), k -> new int[1]);
        if (n[0]++ == 0) marks.add(m);
    }

    // ---- memory ----

    Chart memory() {
        TimeAxis axis = sampleAxis();
        List<PulsePoint> pulses = timeline.pulses();
        List<Chart.Line> lines = new ArrayList<>();
        List<Chart.Level> levels = new ArrayList<>();
        List<GroupHistory> byMemory = new ArrayList<>(subjectOr(shown(summary.topGroups(), GroupHistory::peakMemoryBytes)));
        byMemory.sort((a, b) -> Long.compare(b.peakMemoryBytes(), a.peakMemoryBytes()));
        double groupPeak = byMemory.isEmpty() ? 0 : byMemory.get(0).peakMemoryBytes();
        double machinePeak = summary.peakMemoryUsed().map(IncidentSummary.Peak::value).orElse(0L);
        boolean apart = groupPeak > 0 && machinePeak > SHARED_AXIS * groupPeak;
        for (GroupHistory g : byMemory.subList(0, Math.min(3, byMemory.size()))) {
            // The figure as measured live (a cgroup's charge, PSS), its source named; summed RSS (older
            // recordings) counts shared pages once per process: never drawn above the machine's used.
            Chart.Line memory = groupLine(g.command(), ellipsis(Words.shortName(g.command()), 40) + " memory (" + g.memoryWords() + ")",
                    colour(g.command()), apart && g == byMemory.get(0), p -> p.memoryBytes());
            for (int i = 0; i < memory.size(); i++) {
                double used = machineUsedAt(memory.seconds()[i]);
                if (!Double.isNaN(used) && memory.values()[i] > used) memory.values()[i] = used;
            }
            lines.add(memory);
        }
        memoryCap.ifPresent(cap -> levels.add(new Chart.Level("memory cap " + bytes(cap), cap, Chart.CAP, false)));
        Optional<ValueAxis> right = Optional.empty();
        double top = groupPeak;
        if (!pulses.isEmpty()) {
            long low = pulses.stream().mapToLong(PulsePoint::memoryUsedBytes).min().orElse(0);
            double swapPeak = summary.peakSwapUsed().map(IncidentSummary.Peak::value).orElse(0L);
            double high = machinePeak;
            if (summary.swapTotalBytes() > 0) {
                high = Math.max(high, swapPeak);
                low = Math.min(low, pulses.stream().mapToLong(PulsePoint::swapUsedBytes).min().orElse(0));
            }
            String side = apart ? ", right axis" : "";
            lines.add(pulseLine("memory used (machine" + side + ")", Chart.TOTAL, false, !apart || groupPeak == 0, apart,
                    pulses, p -> p.memoryUsedBytes()));
            if (summary.swapTotalBytes() > 0) {
                lines.add(pulseLine("swap used (machine" + side + ")", Chart.TOTAL, true, false, apart, pulses, p -> p.swapUsedBytes()));
            }
            List<Chart.Level> limits = new ArrayList<>();
            if (summary.memoryTotalBytes() > 0) limits.add(new Chart.Level("memory total " + bytes(summary.memoryTotalBytes()),
                    summary.memoryTotalBytes(), Chart.TOTAL, apart));
            if (summary.swapTotalBytes() > 0) limits.add(new Chart.Level("swap total " + bytes(summary.swapTotalBytes()),
                    summary.swapTotalBytes(), new Color(0x888888), apart));
            // A total is drawn in the chart when its own figure comes near it; otherwise it is named above.
            double machineTop = high;
            if (machinePeak * LIMIT_IN_VIEW >= summary.memoryTotalBytes()) machineTop = Math.max(machineTop, summary.memoryTotalBytes());
            if (summary.swapTotalBytes() > 0 && swapPeak * LIMIT_IN_VIEW >= summary.swapTotalBytes()) {
                machineTop = Math.max(machineTop, summary.swapTotalBytes());
            }
            levels.addAll(limits);
            if (apart) right = Optional.of(ValueAxis.around("machine memory", ValueAxis.Unit.BYTES, low, machineTop));
            else top = Math.max(top, machineTop);
        }
        for (Chart.Level l : levels) if (!l.right() && l.value() <= Math.max(top, 1) * LIMIT_IN_VIEW) top = Math.max(top, l.value());
        String story = summary.peakMemoryUsed().map(p -> "peak " + bytes(p.value()) + " used at " + clock(p.seconds())
                + (summary.memoryTotalBytes() > 0 ? " of " + bytes(summary.memoryTotalBytes()) : "")).orElse("");
        String swap = summary.peakSwapUsed().filter(p -> summary.swapTotalBytes() > 0)
                .map(p -> "swap peak " + bytes(p.value()) + " of " + bytes(summary.swapTotalBytes())).orElse("");
        // The subtitle is about the chart's subject (the stopped group), like its lines.
        String group = byMemory.stream().filter(g -> g.peakMemoryBytes() > 0).findFirst()
                .map(g -> Words.shortName(g.command()) + " peak " + bytes(g.peakMemoryBytes()) + " at "
                        + clock(g.peakMemorySeconds()) + (Double.isNaN(g.bytesPerSecond()) ? ""
                        : ", " + Words.rate(g.bytesPerSecond() / (1024.0 * 1024), "MiB"))).orElse("");
        return new Chart("memory", "Memory and swap used", join(story, swap, group, source()), axis,
                ValueAxis.linear(right.isPresent() ? "group memory" : "memory", ValueAxis.Unit.BYTES, top), right, lines,
                levels, marks(axis, java.util.Set.of()), List.of(),
                lines.isEmpty() ? "no memory figures recorded" : "");
    }

    // ---- pressure ----

    Chart pressure() {
        TimeAxis axis = sampleAxis();
        List<PulsePoint> pulses = timeline.pulses().stream().filter(p -> !Double.isNaN(p.pressureSome10())).toList();
        List<Chart.Line> lines = new ArrayList<>();
        double peak = 0;
        if (!pulses.isEmpty()) {
            lines.add(pulseLine("some: a task waited on memory (avg10)", new Color(0xff7f0e), false, true, false, pulses,
                    PulsePoint::pressureSome10));
            lines.add(pulseLine("full: every task waited (avg10)", Chart.CAP, false, false, false, pulses,
                    PulsePoint::pressureFull10));
            for (PulsePoint p : pulses) peak = Math.max(peak, Math.max(p.pressureSome10(), p.pressureFull10()));
        }
        String story = summary.peakPressureSome10().isEmpty() ? ""
                : summary.peakPressureSome10().getAsDouble() > 0
                ? String.format(Locale.ROOT, "peak some %.1f%%", summary.peakPressureSome10().getAsDouble())
                : "no task waited on memory";
        String empty = timeline.pulses().isEmpty() ? "no memory figures recorded"
                : pulses.isEmpty() ? "no memory pressure recorded (this kernel has no PSI)" : "";
        return new Chart("pressure", "Memory pressure (PSI, share of the last 10 s)", join(story, source()), axis,
                ValueAxis.linear("time waiting on memory", ValueAxis.Unit.PERCENT, Math.max(peak, 5)), Optional.empty(), lines,
                List.of(), marks(axis, java.util.Set.of()), List.of(), empty);
    }

    // ---- OOM ----

    Chart oom() {
        List<OomEpisode> episodes = summary.oom().episodes();
        TimeAxis axis;
        if (range.isPresent()) axis = new TimeAxis(timeline.started(), range.get().from(), range.get().to(), zone);
        else if (episodes.isEmpty()) axis = sampleAxis();
        else {
            double from = episodes.get(0).fromSeconds(), to = from;
            for (OomEpisode e : episodes) to = Math.max(to, e.toSeconds());
            double pad = Math.max((to - from) * 0.05, 300);
            axis = new TimeAxis(timeline.started(), from - pad, to + pad, zone);
        }
        List<Chart.Bar> bars = new ArrayList<>();
        long low = Long.MAX_VALUE, high = 0;
        for (OomEpisode e : episodes) {
            long n = Math.max(1, e.processes());
            low = Math.min(low, n);
            high = Math.max(high, n);
            bars.add(bar(e, n));
        }
        ValueAxis values = high >= 50L * Math.max(1, low)
                ? ValueAxis.log("processes killed", ValueAxis.Unit.COUNT, low, high)
                : ValueAxis.linear("processes killed", ValueAxis.Unit.COUNT, Math.max(high, 1));
        IncidentSummary.Oom o = summary.oom();
        String story = episodes.isEmpty() ? "" : Words.plural(episodes.size(), "event", "events")
                + (episodes.size() > 1 ? " over " + Words.duration(axisSpan(episodes)) : "")
                + (o.oomdKills() > 0 ? ": " + Words.plural(o.oomdKills(), "systemd-oomd kill", "systemd-oomd kills")
                + " of whole cgroups" : "")
                + (o.kernelKills() > 0 ? (o.oomdKills() > 0 ? ", " : ": ") + Words.plural(o.kernelKills(), "kernel OOM kill",
                "kernel OOM kills") : "")
                + "; " + Words.count(o.processesKilled()) + " processes killed in all";
        return new Chart("oom", "Out-of-memory kills", join(story, source()), axis, values, Optional.empty(), List.of(), List.of(),
                List.of(), bars, episodes.isEmpty() ? "no OOM kills recorded" : "");
    }

    private static double axisSpan(List<OomEpisode> episodes) {
        double to = episodes.get(0).toSeconds();
        for (OomEpisode e : episodes) to = Math.max(to, e.toSeconds());
        return to - episodes.get(0).fromSeconds();
    }

    private static Chart.Bar bar(OomEpisode e, long n) {
        String top = e.commands().keySet().stream().findFirst().orElse("?");
        if (e.kind() == EventKind.OOMD_KILL) {
            String count = e.processes() >= 0 ? Words.plural(e.processes(), "process", "processes") : "a cgroup";
            return new Chart.Bar(e.fromSeconds(), e.toSeconds(), n, count, "oomd: " + ellipsis(top, 34), Chart.OOMD,
                    "systemd-oomd: a whole cgroup killed (its processes)");
        }
        String value = e.kills() == 1 ? "1 kill" : Words.count(e.kills()) + " kills in " + Words.duration(e.seconds());
        String words = e.commands().size() == 1 ? "kernel: " + ellipsis(top, 28)
                : "kernel: " + ellipsis(Words.shortName(top), 20) + " " + Words.count(e.commands().get(top)) + ", +"
                + (e.commands().size() - 1) + " more";
        return new Chart.Bar(e.fromSeconds(), e.toSeconds(), n, value, words, Chart.OOM,
                "kernel OOM killer: kills less than 10 min apart as one episode");
    }

    static String oomTitle(OomEpisode e) {
        String top = e.commands().keySet().stream().findFirst().orElse("?");
        if (e.kind() == EventKind.OOMD_KILL) return "oomd kill " + ellipsis(top, 24);
        return e.kills() == 1 ? "oom-kill " + ellipsis(Words.shortName(top), 24) : Words.count(e.kills()) + " oom-kills";
    }

    // ---- words ----

    private String clock(double seconds) {
        return timeline.timeAt(seconds).atZone(zone).format(CLOCK);
    }

    private String source() {
        return "source: " + timeline.source();
    }

    static String bytes(double b) {
        return dev.runaway.model.Units.bytes(Math.round(b));
    }

    private static String ellipsis(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max - 1) + "\u2026";
    }

    private static String join(String... parts) {
        StringBuilder b = new StringBuilder();
        for (String p : parts) {
            if (p.isEmpty()) continue;
            if (b.length() > 0) b.append("  \u00b7  ");
            b.append(p);
        }
        return b.toString();
    }
}
