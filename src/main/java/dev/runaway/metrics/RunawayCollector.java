package dev.runaway.metrics;

import dev.runaway.analysis.Group;
import dev.runaway.analysis.GrowthShape;
import dev.runaway.analysis.Snapshot;
import dev.runaway.model.PulseSample;
import dev.runaway.timeline.oom.OomEvent;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The live analysis as Prometheus metrics, built afresh from the newest snapshot at every
 * scrape (names and meanings: docs/metrics.md). Cardinality is bounded: the {@code top} most
 * severe groups (the analysis's order: at cap, heading to a limit, growing, steady) get a series each, labelled by command key and cgroup (never pids, which change
 * with every fork); the rest are summed into one {@code other} bucket. A group that leaves the
 * top is simply absent from the next scrape, so Prometheus marks its series stale.
 */
public final class RunawayCollector implements MultiCollector {
    /** The {@code command} and {@code cgroup} label of the bucket: a real cgroup label is "" or starts with "/". */
    public static final String OTHER = "other";

    private final Supplier<Snapshot> latest;
    private final OomCounts oom;
    private final Set<OomEvent.Source> watched;
    private final ExporterHealth health;
    private final RefusalCounts refusals;
    private final int top;

    public RunawayCollector(Supplier<Snapshot> latest, OomCounts oom, Set<OomEvent.Source> watched, ExporterHealth health,
                            RefusalCounts refusals, int top) {
        if (top < 0) throw new IllegalArgumentException("top must be 0 or more: " + top);
        this.latest = latest;
        this.oom = oom;
        this.watched = Set.copyOf(watched);
        this.health = health;
        this.refusals = refusals;
        this.top = top;
    }

    @Override
    public MetricSnapshots collect() {
        Families f = new Families();
        Snapshot s = latest.get();
        if (s != null) {
            machine(f, s);
            groups(f, s);
        }
        oom(f);
        health(f, s);
        return f.build();
    }

    private static void machine(Families f, Snapshot s) {
        PulseSample p = s.pulse();
        f.gauge("runaway_tasks", "Tasks on the machine, threads included (/proc/loadavg).").add(p.tasks()).done();
        f.gauge("runaway_processes", "Processes seen by the last scan, kernel threads included.").add(s.processes()).done();
        f.gauge("runaway_pid_max", "kernel.pid_max: the most tasks the machine can have.").add(p.pidMax()).done();
        f.gauge("runaway_threads_max", "kernel.threads-max.").add(p.threadsMax()).done();
        f.gauge("runaway_pid_headroom", "Tasks the machine can still start before pid_max or threads-max refuses a fork.")
                .add(Math.min(p.pidMax(), p.threadsMax()) - (double) p.tasks()).done();
        f.gauge("runaway_tasks_per_second", "The machine's task count growth rate over the last 10 s.")
                .add(s.totalGrowth().perSecond()).done();
        f.gauge("runaway_forks_per_second", "Forks and clones per second (/proc/stat processes).").add(s.forksPerSecond()).done();
        f.gauge("runaway_memory_total_bytes", "Memory installed.").add(p.memoryTotalBytes()).done();
        f.gauge("runaway_memory_available_bytes", "Memory available (MemAvailable).").add(p.memoryAvailableBytes()).done();
        f.gauge("runaway_swap_total_bytes", "Swap configured.").add(p.swapTotalBytes()).done();
        f.gauge("runaway_swap_used_bytes", "Swap in use.").add(p.swapUsedBytes()).done();
        p.pressure().ifPresent(x -> f.gauge("runaway_memory_pressure_avg10_percent",
                        "Memory pressure (PSI, /proc/pressure/memory), 10 s average, percent of time stalled.")
                .add(Labels.of("kind", "some"), x.someAvg10()).add(Labels.of("kind", "full"), x.fullAvg10()).done());
        f.gauge("runaway_groups", "Command groups in the last scan.").add(s.groups().size()).done();
    }

    private void groups(Families f, Snapshot s) {
        List<Group> shown = s.groups().subList(0, Math.min(top, s.groups().size()));
        List<Group> rest = s.groups().subList(shown.size(), s.groups().size());
        var tasks = f.gauge("runaway_group_tasks", "Tasks (threads included) of the group's processes.");
        var rate = f.gauge("runaway_group_tasks_per_second", "The group's growth rate over the last 10 s.");
        var shape = f.states("runaway_group_growth_shape", "How the group's task count changed over the last 10 s.");
        var exhaustion = f.gauge("runaway_group_seconds_to_exhaustion",
                "Seconds until the limit named by the label runs out at the group's rate; absent when not heading there.");
        var atCap = f.gauge("runaway_group_at_cap", "1 while the group's forks (or allocations) are refused at a limit.");
        var pressed = f.gauge("runaway_group_cap", "The limit an at-cap group presses on (label limit) and its value, in tasks or bytes.");
        var refused = f.counter("runaway_group_forks_refused",
                "Forks refused at the group's pids.max (under a memory cap: OOM kills), summed over scans.");
        var cap = f.gauge("runaway_group_cap_tasks", "The task cap (pids.max) of the cgroup holding the group; absent when uncapped.");
        var room = f.gauge("runaway_group_cap_room_tasks", "Tasks the group's cgroup may still start under its pids.max.");
        var recursive = f.gauge("runaway_group_recursive", "1 when the group's command occurs 3 or more times along one ancestry line.");
        var repeats = f.gauge("runaway_group_recursion_repeats", "How many times the command occurs along its deepest ancestry line.");
        var chains = f.gauge("runaway_group_chains", "Chains (linear runs of only children) the group's processes are in.");
        var orphaned = f.gauge("runaway_group_parented_to_init",
                "1 when, in every chain of the group, its first member was adopted by init (or a subreaper).");
        var rss = f.gauge("runaway_group_memory_rss_bytes", "Resident memory of the group's processes.");
        var bytesRate = f.gauge("runaway_group_memory_bytes_per_second", "The group's resident memory growth rate.");
        var rank = f.gauge("runaway_group_severity_rank", "1 for the most severe group, 2 for the next, and so on.");
        int position = 0;
        for (Group g : shown) {
            Labels l = Labels.of("command", LabelValues.safe(g.command()), "cgroup", LabelValues.safe(g.cgroup()));
            tasks.add(l, g.tasks());
            rate.add(l, g.tasksGrowth().perSecond());
            shape.add(l, GrowthShape.values(), g.tasksGrowth().shape().json());
            if (g.secondsToExhaustion().isPresent()) {
                exhaustion.add(l.add("limit", g.exhaustedBy()), g.secondsToExhaustion().getAsDouble());
            }
            atCap.add(l, g.atCap() ? 1 : 0);
            if (g.atCap() && g.cap().isPresent()) pressed.add(l.add("limit", g.cap().get().limit()), g.cap().get().value());
            OptionalLong refusedSoFar = refusals.total(g);
            if (refusedSoFar.isPresent()) refused.add(l, refusedSoFar.getAsLong());
            if (g.cgroupMax() >= 0) cap.add(l.add("limit", "pids.max"), g.cgroupMax());
            if (g.cgroupRoom() >= 0) room.add(l.add("limit", "pids.max"), g.cgroupRoom());
            recursive.add(l, g.recursive() ? 1 : 0);
            repeats.add(l, g.repeats());
            chains.add(l, g.chains().size());
            orphaned.add(l, g.parentedToInit() ? 1 : 0);
            rss.add(l, g.rssBytes());
            bytesRate.add(l, g.bytesPerSecond());
            rank.add(l, ++position);
        }
        if (!rest.isEmpty()) {
            Labels other = Labels.of("command", OTHER, "cgroup", OTHER);
            tasks.add(other, rest.stream().mapToInt(Group::tasks).sum());
            rate.add(other, rest.stream().mapToDouble(g -> g.tasksGrowth().perSecond()).sum());
            chains.add(other, rest.stream().mapToInt(g -> g.chains().size()).sum());
            rss.add(other, rest.stream().mapToLong(Group::rssBytes).sum());
            bytesRate.add(other, rest.stream().mapToDouble(Group::bytesPerSecond).sum());
        }
        f.gauge("runaway_groups_in_other", "Groups summed into the other bucket (beyond --top).").add(rest.size()).done();
        refused.done();
        for (var family : List.of(tasks, rate, exhaustion, atCap, pressed, cap, room, recursive, repeats, chains, orphaned, rss, bytesRate, rank)) {
            family.done();
        }
        shape.done();
    }

    private void oom(Families f) {
        var kills = f.counter("runaway_oom_kills", "Out-of-memory kills seen since the exporter started, by killer.");
        var killed = f.counter("runaway_oom_processes_killed", "Processes those kills took (oomd: as its manager logged).");
        var unknown = f.counter("runaway_oom_kills_unknown_size", "Kills whose number of processes no log said.");
        var on = f.gauge("runaway_oom_source_watched", "1 when the exporter can see this killer's kills (/dev/kmsg, the journal).");
        for (OomEvent.Source source : OomEvent.Source.values()) {
            Labels l = Labels.of("source", OomCounts.label(source));
            kills.add(l, oom.kills(source));
            killed.add(l, oom.processesKilled(source));
            unknown.add(l, oom.killsOfUnknownSize(source));
            on.add(l, watched.contains(source) ? 1 : 0);
        }
        kills.done();
        killed.done();
        unknown.done();
        on.done();
    }

    private void health(Families f, Snapshot s) {
        f.counter("runaway_exporter_scans", "Scans of the process table since the exporter started.").add(health.scans()).done();
        if (s != null) {
            f.gauge("runaway_exporter_scan_duration_seconds", "How long the last scan of /proc took.").add(s.scanNanos() / 1e9).done();
            f.gauge("runaway_exporter_analysis_duration_seconds", "How long analysing the last scan took.")
                    .add(s.analysisNanos() / 1e9).done();
            f.gauge("runaway_exporter_last_scan_age_seconds", "Seconds since the last scan was taken.")
                    .add(Math.max(0, System.nanoTime() - s.monotonicNanos()) / 1e9).done();
        }
        f.gauge("runaway_exporter_top_groups", "--top: groups with series of their own.").add(top).done();
        health.cpuSeconds().ifPresent(c -> f.counter("runaway_exporter_cpu_seconds", "CPU time the exporter used.").add(c).done());
        health.rssBytes().ifPresent(r -> f.gauge("runaway_exporter_resident_memory_bytes", "The exporter's resident memory.")
                .add(r).done());
    }
}
