package dev.runaway.analysis;

import dev.runaway.model.PidList;
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
import java.util.Optional;
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
    private final Map<String, GrowthSeries> groupHistory = new HashMap<>();
    private final GrowthSeries totalHistory = new GrowthSeries(WINDOW_SECONDS);
    private final CpuShare cpuShare = new CpuShare(Runtime.getRuntime().availableProcessors());
    private final CgroupPids cgroupPids;
    private PulseSample previousPulse;

    private final int selfPid = (int) ProcessHandle.current().pid();
    private Forest lastForest;
    private Chains.Cut lastCut = Chains.Cut.NONE; // its unchanged chains are reused by the next cut
    private final Map<String, List<String>> singleCommands = new HashMap<>(); // one list per key for chains of one command

    public Analyzer(CgroupPids cgroupPids) {
        this.cgroupPids = cgroupPids;
    }

    public synchronized Snapshot analyze(ScanSample scan, PulseSample pulse) {
        long started = System.nanoTime();
        double forksPerSecond = previousPulse == null ? 0 : forksPerSecond(previousPulse, pulse);
        previousPulse = pulse;
        double now = scan.monotonicNanos() / 1e9;
        List<ProcessSample> processes = scan.processes();

        List<String> keyNames = new ArrayList<>();
        Map<String, Integer> keyIds = new HashMap<>();
        int[] keyOf = new int[processes.size()];
        for (int i = 0; i < processes.size(); i++) {
            String key = lineage.keyOf(processes.get(i));
            Integer id = keyIds.get(key);
            if (id == null) {
                id = keyNames.size();
                keyNames.add(key);
                keyIds.put(key, id);
            }
            keyOf[i] = id;
        }
        PidIndex pids = PidIndex.of(processes);
        int reparented = lineage.update(processes, pids, keyOf, keyNames);
        Forest forest = Forest.build(processes, pids, keyOf, keyNames, lineage);
        Chains.Cut cut = Chains.of(forest, lastCut, singleCommands);
        singleCommands.keySet().retainAll(keyIds.keySet());
        int[] repeats = Recursion.repeatsAlongLines(forest);

        int[] counts = new int[keyNames.size()];
        for (int i = 0; i < processes.size(); i++) if (inGroups(processes.get(i))) counts[keyOf[i]]++;
        int[][] members = new int[keyNames.size()][];
        for (int k = 0; k < members.length; k++) members[k] = new int[counts[k]];
        int[] filled = new int[keyNames.size()];
        for (int i = 0; i < processes.size(); i++) if (inGroups(processes.get(i))) members[keyOf[i]][filled[keyOf[i]]++] = i;

        totalHistory.add(now, pulse.tasks(), 0);
        GrowthFit totalGrowth = totalHistory.fitTasks();
        List<Group> groups = new ArrayList<>();
        for (int k = 0; k < members.length; k++) {
            if (members[k].length > 0) groups.add(group(keyNames.get(k), members[k], forest, cut, repeats, pulse, now));
        }
        groupHistory.entrySet().removeIf(h -> !keyIds.containsKey(h.getKey()) && h.getValue().staleAt(now));
        cpuShare.retain(keyIds.keySet());
        groups.sort(SEVERITY);
        lastForest = forest;
        lastCut = cut;
        return new Snapshot(scan.time(), pulse, forksPerSecond, totalGrowth, List.copyOf(groups),
                processes.size(), scan.scanNanos(), System.nanoTime() - started, scan.monotonicNanos(), reparented);
    }

    private static boolean inGroups(ProcessSample p) {
        return p.pid() > 2 && !p.isKernelThread();
    }

    private Group group(String key, int[] members, Forest forest, Chains.Cut cut, int[] repeats, PulseSample pulse,
                        double now) {
        int tasks = 0;
        long rss = 0;
        int[] pids = new int[members.length];
        int count = 0;
        // By index, never by value: a chain 49,000 deep hashes its whole pid list.
        BitSet chainIndices = new BitSet();
        Set<String> cgroups = new HashSet<>();
        boolean self = false;
        int stopped = 0;
        int zombies = 0;
        long ticks = 0;
        for (int m : members) {
            ProcessSample p = forest.living.get(m);
            if (p.state() == 'T' || p.state() == 't') stopped++;
            else if (p.state() == 'Z') zombies++;
            ticks += p.cpuTicks();
            tasks += Math.max(1, p.numThreads());
            rss += p.rssBytes();
            pids[count++] = p.pid();
            self |= p.pid() == selfPid;
            if (cut.chainOfLiving()[m] != Forest.NONE) chainIndices.set(cut.chainOfLiving()[m]);
            cgroups.add(p.cgroup());
        }
        List<Chain> chains = new ArrayList<>(chainIndices.cardinality());
        for (int i = chainIndices.nextSetBit(0); i >= 0; i = chainIndices.nextSetBit(i + 1)) chains.add(cut.chains().get(i));
        GrowthSeries series = groupHistory.computeIfAbsent(key, k -> new GrowthSeries(WINDOW_SECONDS));
        series.add(now, tasks, rss);
        GrowthFit growth = series.fitTasks();
        double bytesPerSecond = series.bytesPerSecond();
        Recursion recursion = Recursion.find(key, members, repeats, forest);
        boolean orphans = firstMembersAdopted(key, chains, forest);

        String cgroup = cgroups.size() == 1 ? cgroups.iterator().next() : "";
        Optional<CgroupPids.Cap> cap = cgroup.isEmpty() ? Optional.empty() : cgroupPids.cap(cgroup);
        OptionalLong cgroupRoom = cap.map(c -> OptionalLong.of(c.room())).orElse(OptionalLong.empty());
        // The console's own warm-up is not an incident.
        Exhaustion exhaustion = self ? Exhaustion.NONE : Exhaustion.of(growth, bytesPerSecond, tasks, pulse, cgroupRoom);
        return new Group(key, tasks, List.copyOf(chains), orphans, recursion.repeats() >= RECURSION_REPEATS,
                recursion.cycle(), recursion.repeats(), rss, growth, bytesPerSecond, exhaustion.seconds(), exhaustion.by(),
                PidList.copyOf(pids, count), cgroup, cgroupRoom.orElse(-1), cap.map(CgroupPids.Cap::max).orElse(-1L),
                stopped, zombies, cpuShare.add(key, now, ticks));
    }

    /**
     * Orphans: in every chain of the group, the first member of the group (from the top) was
     * adopted by init or a subreaper: whatever started it has exited. Walks each chain once.
     */
    private static boolean firstMembersAdopted(String key, List<Chain> chains, Forest forest) {
        if (chains.isEmpty()) return false;
        for (Chain chain : chains) {
            for (int pid : chain.pids()) {
                int node = forest.indexOfPid(pid);
                if (node == Forest.NONE || !key.equals(forest.keyOf(node))) continue;
                if (!forest.adopted(node)) return false;
                break;
            }
        }
        return true;
    }

    /**
     * The target set of a command group in the newest analysis: its members, all living
     * processes below them in the (remembered) forest, and their cgroup if it holds only them.
     */
    public synchronized TargetSet targets(String command) {
        return targets(command, (p, key) -> key.equals(command));
    }

    /** The target set seeded by the processes SEED accepts (a sample and its command key), with all below them. */
    public synchronized TargetSet targets(String label, java.util.function.BiPredicate<ProcessSample, String> seed) {
        Forest f = lastForest;
        if (f == null) return new TargetSet(label, List.of(), Optional.empty());
        boolean[] seen = new boolean[f.size];
        int[] queue = new int[f.size];
        int write = 0;
        for (int i = 0; i < f.livingCount; i++) {
            if (inGroups(f.living.get(i)) && seed.test(f.living.get(i), f.keyOf(i))) {
                seen[i] = true;
                queue[write++] = i;
            }
        }
        List<ProcessSample> targets = new ArrayList<>();
        for (int read = 0; read < write; read++) {
            int n = queue[read];
            if (f.isLiving(n) && inGroups(f.living.get(n)) && f.living.get(n).pid() != selfPid) {
                targets.add(f.living.get(n));
            }
            for (int c = f.childStart[n]; c < f.childStart[n + 1]; c++) {
                int child = f.childList[c];
                if (!seen[child]) {
                    seen[child] = true;
                    queue[write++] = child;
                }
            }
        }
        return new TargetSet(label, List.copyOf(targets), exclusiveCgroup(f, targets));
    }

    /** The one cgroup every target is in, if no other process is in it. */
    private static Optional<String> exclusiveCgroup(Forest f, List<ProcessSample> targets) {
        Set<ProcessIdentity> set = new HashSet<>();
        for (ProcessSample t : targets) set.add(t.identity());
        String shared = null;
        for (int i = 0; i < f.livingCount; i++) {
            ProcessSample p = f.living.get(i);
            if (!set.contains(p.identity())) continue;
            if (p.cgroup().isEmpty() || p.cgroup().equals("/") || (shared != null && !shared.equals(p.cgroup()))) {
                return Optional.empty();
            }
            shared = p.cgroup();
        }
        if (shared == null) return Optional.empty();
        for (ProcessSample p : f.living) {
            boolean dead = p.state() == 'Z' || p.state() == 'X'; // a zombie holds nothing
            if (!dead && p.cgroup().equals(shared) && !set.contains(p.identity())) return Optional.empty();
        }
        return Optional.of(shared);
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
