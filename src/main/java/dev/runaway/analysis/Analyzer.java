package dev.runaway.analysis;

import dev.runaway.model.ProcessIdentity;
import dev.runaway.model.ProcessSample;
import dev.runaway.model.PulseSample;
import dev.runaway.model.ScanSample;
import dev.runaway.procfs.CgroupPids;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Raw samples in, the derived picture out. Keeps only what derivation needs between scans (the
 * lineage and a short window of per-group counts), so feeding it a recorded series gives the
 * same figures as the live run did.
 */
public final class Analyzer {
    /** Growth is fitted over this many seconds of scans. */
    public static final double WINDOW_SECONDS = 10;
    /** A key must occur this many times along one ancestry line to count as recursion. */
    public static final int RECURSION_REPEATS = 3;
    /** Memory growth below this (a JVM warming up, a cache filling) is not a runaway. */
    public static final double MEMORY_NOISE_BYTES_PER_SECOND = 1 << 20;
    /** Exhaustion further away than this is not reported: nothing is heading there yet. */
    public static final double HORIZON_SECONDS = 3600;

    private final Lineage lineage = new Lineage();
    private final Map<String, Series> groupHistory = new HashMap<>();
    private final Series totalHistory = new Series();
    private final CgroupPids cgroupPids;
    private PulseSample previousPulse;

    private final int selfPid = (int) ProcessHandle.current().pid();
    private Forest lastForest;
    private Map<ProcessIdentity, String> lastKeys = Map.of();

    public Analyzer(CgroupPids cgroupPids) {
        this.cgroupPids = cgroupPids;
    }

    public synchronized Snapshot analyze(ScanSample scan, PulseSample pulse) {
        long started = System.nanoTime();
        double forksPerSecond = previousPulse == null ? 0 : forksPerSecond(previousPulse, pulse);
        previousPulse = pulse;
        double now = scan.monotonicNanos() / 1e9;

        Map<ProcessIdentity, String> keys = new HashMap<>(scan.processes().size() * 2);
        for (ProcessSample p : scan.processes()) keys.put(p.identity(), CommandKeys.of(p));
        lineage.update(scan.processes(), keys);
        Forest forest = Forest.build(scan.processes(), lineage);
        Chains.Cut cut = Chains.of(forest, keys);
        Map<ProcessIdentity, Integer> repeats = Recursion.repeatsAlongLines(forest, keys);

        Map<String, List<ProcessSample>> byKey = new HashMap<>();
        for (ProcessSample p : scan.processes()) {
            if (p.pid() <= 2 || p.isKernelThread()) continue;
            byKey.computeIfAbsent(keys.get(p.identity()), k -> new ArrayList<>()).add(p);
        }
        totalHistory.add(now, pulse.tasks(), 0);
        GrowthFit totalGrowth = totalHistory.fitTasks();

        List<Group> groups = new ArrayList<>(byKey.size());
        for (Map.Entry<String, List<ProcessSample>> e : byKey.entrySet()) {
            groups.add(group(e.getKey(), e.getValue(), forest, cut, repeats, keys, pulse, now));
        }
        groupHistory.entrySet().removeIf(h -> !byKey.containsKey(h.getKey()) && h.getValue().staleAt(now));
        groups.sort(SEVERITY);
        lastForest = forest;
        lastKeys = keys;
        return new Snapshot(scan.time(), pulse, forksPerSecond, totalGrowth, List.copyOf(groups),
                scan.processes().size(), scan.scanNanos(), System.nanoTime() - started);
    }

    private Group group(String key, List<ProcessSample> members, Forest forest, Chains.Cut cut,
                        Map<ProcessIdentity, Integer> repeats, Map<ProcessIdentity, String> keys, PulseSample pulse,
                        double now) {
        int tasks = 0;
        long rss = 0;
        List<Integer> pids = new ArrayList<>(members.size());
        // By index, never by value: a chain 49,000 deep hashes its whole pid list.
        BitSet chainIndices = new BitSet();
        Set<String> cgroups = new HashSet<>();
        for (ProcessSample p : members) {
            tasks += Math.max(1, p.numThreads());
            rss += p.rssBytes();
            pids.add(p.pid());
            Integer chain = cut.byProcess().get(p.identity());
            if (chain != null) chainIndices.set(chain);
            cgroups.add(p.cgroup());
        }
        List<Chain> chains = new ArrayList<>(chainIndices.cardinality());
        for (int i = chainIndices.nextSetBit(0); i >= 0; i = chainIndices.nextSetBit(i + 1)) chains.add(cut.chains().get(i));
        Series series = groupHistory.computeIfAbsent(key, k -> new Series());
        series.add(now, tasks, rss);
        GrowthFit growth = series.fitTasks();
        double bytesPerSecond = series.bytesPerSecond();
        Recursion recursion = Recursion.find(key, members, repeats, forest, keys);
        // Orphans: in every chain, the first member of this group was adopted by init (or a
        // subreaper): whatever started it has exited.
        Map<Integer, ProcessIdentity> memberIds = new HashMap<>(members.size() * 2);
        for (ProcessSample p : members) memberIds.put(p.pid(), p.identity());
        boolean orphans = !chains.isEmpty();
        for (Chain chain : chains) {
            for (int pid : chain.pids()) {
                ProcessIdentity first = memberIds.get(pid);
                if (first == null) continue;
                orphans &= forest.adopted(first);
                break;
            }
        }

        OptionalLong cgroupRoom = cgroups.size() == 1 ? cgroupPids.remaining(cgroups.iterator().next()) : OptionalLong.empty();
        boolean self = pids.contains(selfPid); // the console's own warm-up is not an incident
        Exhaustion exhaustion = self ? Exhaustion.NONE : Exhaustion.of(growth, bytesPerSecond, tasks, pulse, cgroupRoom);
        return new Group(key, tasks, List.copyOf(chains), orphans, recursion.repeats() >= RECURSION_REPEATS,
                recursion.cycle(), recursion.repeats(), rss, growth, bytesPerSecond, exhaustion.seconds(), exhaustion.by(),
                List.copyOf(pids));
    }

    /**
     * The target set of a command group in the newest analysis: its members, all living
     * processes below them in the (remembered) forest, and their cgroup if it holds only them.
     */
    public synchronized TargetSet targets(String command) {
        if (lastForest == null) return new TargetSet(command, List.of(), java.util.Optional.empty());
        Set<ProcessIdentity> targets = new java.util.LinkedHashSet<>();
        java.util.Deque<Forest.Node> todo = new java.util.ArrayDeque<>();
        for (Map.Entry<ProcessIdentity, String> e : lastKeys.entrySet()) {
            if (e.getValue().equals(command) && lastForest.living.containsKey(e.getKey())) todo.add(new Forest.Proc(e.getKey()));
        }
        Set<Forest.Node> visited = new HashSet<>();
        while (!todo.isEmpty()) {
            Forest.Node n = todo.poll();
            if (!visited.add(n)) continue;
            if (n instanceof Forest.Proc p && lastForest.living.containsKey(p.id())) {
                ProcessSample s = lastForest.living.get(p.id());
                if (s.pid() > 2 && s.pid() != selfPid) targets.add(p.id());
            }
            todo.addAll(lastForest.children.getOrDefault(n, List.of()));
        }
        return new TargetSet(command, List.copyOf(targets), exclusiveCgroup(targets));
    }

    /** The one cgroup every target is in, if no other process is in it. */
    private java.util.Optional<String> exclusiveCgroup(Set<ProcessIdentity> targets) {
        String shared = null;
        for (ProcessIdentity id : targets) {
            String cgroup = lastForest.living.get(id).cgroup();
            if (cgroup.isEmpty() || cgroup.equals("/") || (shared != null && !shared.equals(cgroup))) return java.util.Optional.empty();
            shared = cgroup;
        }
        if (shared == null) return java.util.Optional.empty();
        for (ProcessSample p : lastForest.living.values()) {
            if (p.cgroup().equals(shared) && !targets.contains(p.identity())) return java.util.Optional.empty();
        }
        return java.util.Optional.of(shared);
    }

    /** Soonest exhaustion first, then recursive, then fastest growing, then largest. */
    static final Comparator<Group> SEVERITY = Comparator
            .comparingDouble((Group g) -> g.secondsToExhaustion().orElse(Double.MAX_VALUE))
            .thenComparing(g -> !g.recursive())
            .thenComparingDouble(g -> -g.tasksGrowth().perSecond())
            .thenComparingInt(g -> -g.tasks())
            .thenComparing(Group::command);

    public static double forksPerSecond(PulseSample previous, PulseSample current) {
        double seconds = (current.monotonicNanos() - previous.monotonicNanos()) / 1e9;
        if (seconds <= 0 || previous.forksSinceBoot() < 0 || current.forksSinceBoot() < 0) return 0;
        return (current.forksSinceBoot() - previous.forksSinceBoot()) / seconds;
    }

    /** A group's recent counts, trimmed to the window. */
    static final class Series {
        private final ArrayList<double[]> points = new ArrayList<>(); // {seconds, tasks, bytes}

        void add(double seconds, double tasks, double bytes) {
            points.add(new double[] {seconds, tasks, bytes});
            while (points.size() > 2 && seconds - points.get(0)[0] > WINDOW_SECONDS) points.remove(0);
        }

        boolean staleAt(double seconds) {
            return points.isEmpty() || seconds - points.get(points.size() - 1)[0] > WINDOW_SECONDS;
        }

        GrowthFit fitTasks() {
            return fit(1);
        }

        double bytesPerSecond() {
            GrowthFit bytes = fit(2);
            return bytes.shape() == GrowthShape.UNKNOWN ? 0 : bytes.perSecond();
        }

        private GrowthFit fit(int column) {
            int n = points.size();
            double[] x = new double[n];
            double[] y = new double[n];
            for (int i = 0; i < n; i++) {
                x[i] = points.get(i)[0];
                y[i] = points.get(i)[column];
            }
            return GrowthFit.of(x, y, n);
        }
    }

    /** What runs out first at a group's rate, and when. */
    record Exhaustion(OptionalDouble seconds, String by) {
        static final Exhaustion NONE = new Exhaustion(OptionalDouble.empty(), "");

        static Exhaustion of(GrowthFit growth, double bytesPerSecond, int groupTasks, PulseSample pulse, OptionalLong cgroupRoom) {
            double best = Double.MAX_VALUE;
            String by = "";
            if (bytesPerSecond >= MEMORY_NOISE_BYTES_PER_SECOND) {
                double t = (pulse.memoryAvailableBytes() + pulse.swapFreeBytes()) / bytesPerSecond;
                if (t < best) { best = t; by = "memory"; }
            }
            double[] limits = {pulse.pidMax(), pulse.threadsMax()};
            String[] names = {"pid_max", "threads-max"};
            for (int i = 0; i < limits.length; i++) {
                if (limits[i] <= 0 || pulse.tasks() < 0) continue;
                // Only this group grows: the rest of the machine stays where it is.
                double t = growth.secondsUntil(groupTasks, limits[i] - pulse.tasks() + groupTasks);
                if (t >= 0 && t < best) { best = t; by = names[i]; }
            }
            if (cgroupRoom.isPresent()) {
                double t = growth.secondsUntil(groupTasks, groupTasks + cgroupRoom.getAsLong());
                if (t >= 0 && t < best) { best = t; by = "pids.max"; }
            }
            boolean growing = growth.shape() == GrowthShape.LINEAR || growth.shape() == GrowthShape.EXPONENTIAL
                    || bytesPerSecond >= MEMORY_NOISE_BYTES_PER_SECOND;
            return best > HORIZON_SECONDS || !growing ? new Exhaustion(OptionalDouble.empty(), "")
                    : new Exhaustion(OptionalDouble.of(best), by);
        }
    }
}
