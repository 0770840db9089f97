// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.analysis;

import dev.runaway.model.PidList;
import dev.runaway.model.ProcessIdentity;
import dev.runaway.model.ProcessSample;
import dev.runaway.model.PulseSample;
import dev.runaway.model.ScanSample;
import dev.runaway.procfs.CgroupPids;
import dev.runaway.procfs.ProcessCaps;

import java.util.ArrayList;
import java.util.BitSet;
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
    /**
     * What a wrapper does: a version-manager shim, {@code man}, a launcher that re-executes itself
     * recur up to this many times along one line. Recursion is one invocation (the same command
     * line in the same directory) recurring beyond it, or when its repetition keeps growing (it
     * rose at {@link #GROWING_RECURSION_STEPS} scans and is at least this); or a command deeper
     * than {@link #DEEPER_THAN_BUILDS}, whatever its arguments.
     */
    public static final int WRAPPER_REPEATS = 3;
    /**
     * A command along one line more often than this, whatever its arguments, is recursion: a
     * {@code make -C} descent or a task runner per package recurs with other words or in another
     * directory at each level, and builds do not go this deep; a runaway that counts its levels
     * in an argument does. The guard's {@code deep-recursion-depth} defaults to it.
     */
    public static final int DEEPER_THAN_BUILDS = 30;
    static final int GROWING_RECURSION_STEPS = 2;
    /** Memory growth below this (a JVM warming up, a cache filling) is not a runaway. */
    public static final double MEMORY_NOISE_BYTES_PER_SECOND = 1 << 20;
    /** Exhaustion further away than this is not reported: nothing is heading there yet. */
    public static final double HORIZON_SECONDS = 3600;

    private final Lineage lineage;
    private final Map<String, GrowthSeries> groupHistory = new HashMap<>();
    private final Map<String, GrowthSeries> cgroupHistory = new HashMap<>();
    private final GrowthSeries totalHistory = new GrowthSeries(WINDOW_SECONDS);
    private final CpuShare cpuShare = new CpuShare(Runtime.getRuntime().availableProcessors());
    private final CgroupPids cgroupPids;
    private final CapWatch capWatch;
    private final GroupMemory memory;
    private volatile Set<String> watched = Set.of();
    private final GroupOrder.Worst worst = new GroupOrder.Worst();
    private PulseSample previousPulse;

    private int selfPid = (int) ProcessHandle.current().pid();
    /** The sandbox watchdogs this process started, as recorded when it started them. */
    private java.util.function.Supplier<Set<ProcessIdentity>> watchdogs = dev.runaway.sandbox.Watchdogs::started;
    /** Per key: the deepest repetition at the last scan, and how many scans it rose at. */
    private final Map<String, int[]> repetition = new HashMap<>();
    private Forest lastForest;
    private Snapshot lastSnapshot;
    private Chains.Cut lastCut = Chains.Cut.NONE; // its unchanged chains are reused by the next cut
    private final Map<String, List<String>> singleCommands = new HashMap<>(); // one list per key for chains of one command

    /** An analyzer that reads cgroups' pids caps but no per-process limits (RLIMIT_NPROC, memory cgroups). */
    public Analyzer(CgroupPids cgroupPids) {
        this(cgroupPids, ProcessCaps.none());
    }

    public Analyzer(CgroupPids cgroupPids, ProcessCaps caps) {
        this(cgroupPids, caps, dev.runaway.procfs.ProcPaths.NONE);
    }

    /** With the /proc links command keys need (see {@link CommandKeys}): a live analysis passes them. */
    public Analyzer(CgroupPids cgroupPids, ProcessCaps caps, dev.runaway.procfs.ProcPaths paths) {
        this(cgroupPids, caps, paths, dev.runaway.procfs.MemoryFiles.none());
    }

    /** With the files a group's memory is measured from (see {@link GroupMemory}): a live analysis passes them. */
    public Analyzer(CgroupPids cgroupPids, ProcessCaps caps, dev.runaway.procfs.ProcPaths paths,
                    dev.runaway.procfs.MemoryFiles memoryFiles) {
        this.lineage = new Lineage(paths);
        this.cgroupPids = cgroupPids;
        this.capWatch = new CapWatch(cgroupPids, caps);
        this.memory = new GroupMemory(memoryFiles);
    }

    /** From now on lineage comes first from the kernel's fork events as {@code log} keeps them (see {@link Lineage#followingForks}). */
    public Analyzer followingForks(dev.runaway.procfs.ForkLog log) {
        synchronized (this) {
            lineage.followingForks(log);
        }
        return this;
    }

    /** The command keys shown now (the console's selected group): their memory is measured like the most severe's. */
    public void watch(Set<String> commands) {
        watched = Set.copyOf(commands);
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
        PidIndex pids = PidIndex.of(processes);
        boolean[] self = SelfProcesses.of(processes, pids, selfPid, watchdogs.get());
        for (int i = 0; i < processes.size(); i++) {
            int at = i;
            String key = self[i] ? SelfProcesses.KEY : lineage.keyOf(processes.get(i), () -> chainTop(processes, pids, at));
            Integer id = keyIds.get(key);
            if (id == null) {
                id = keyNames.size();
                keyNames.add(key);
                keyIds.put(key, id);
            }
            keyOf[i] = id;
        }
        int reparented = lineage.update(processes, pids, keyOf, keyNames);
        Forest forest = Forest.build(processes, pids, keyOf, keyNames, lineage);
        Chains.Cut cut = Chains.of(forest, lastCut, singleCommands);
        singleCommands.keySet().retainAll(keyIds.keySet());
        int[] repeats = Recursion.repeatsAlongLines(forest);
        int[] identical = Recursion.identicalAlongLines(forest, repeats);

        int[] counts = new int[keyNames.size()];
        for (int i = 0; i < processes.size(); i++) if (inGroups(processes.get(i))) counts[keyOf[i]]++;
        int[][] members = new int[keyNames.size()][];
        for (int k = 0; k < members.length; k++) members[k] = new int[counts[k]];
        int[] filled = new int[keyNames.size()];
        for (int i = 0; i < processes.size(); i++) if (inGroups(processes.get(i))) members[keyOf[i]][filled[keyOf[i]]++] = i;

        totalHistory.add(now, pulse.tasks(), 0);
        GrowthFit totalGrowth = totalHistory.fitTasks();
        Map<Integer, Integer> tasksByUid = new HashMap<>();
        for (ProcessSample p : processes) tasksByUid.merge(p.uid(), Math.max(1, p.numThreads()), Integer::sum);
        capWatch.beginScan();
        List<Group> groups = new ArrayList<>();
        for (int k = 0; k < members.length; k++) {
            if (members[k].length > 0) {
                groups.add(group(keyNames.get(k), members[k], forest, cut, repeats, identical, pulse, now, tasksByUid));
            }
        }
        groupHistory.entrySet().removeIf(h -> !keyIds.containsKey(h.getKey()) && h.getValue().staleAt(now));
        cpuShare.retain(keyIds.keySet());
        repetition.keySet().retainAll(keyIds.keySet());
        groups = capWatch.endScan(groups, pulse, now);
        List<CgroupLoad> cgroups = cgroupLoads(processes, keyOf, self, now);
        groups.sort(GroupOrder.severity());
        Set<String> shown = watched;
        groups = memory.measure(worst.order(groups, now), cgroups, pulse, shown);
        lastForest = forest;
        lastCut = cut;
        return lastSnapshot = new Snapshot(scan.time(), pulse, forksPerSecond, totalGrowth, List.copyOf(groups),
                processes.size(), scan.scanNanos(), System.nanoTime() - started, scan.monotonicNanos(), reparented, cgroups,
                shown);
    }

    private static boolean inGroups(ProcessSample p) {
        return p.pid() > 2 && !p.isKernelThread();
    }

    private Group group(String key, int[] members, Forest forest, Chains.Cut cut, int[] repeats, int[] identical, PulseSample pulse,
                        double now, Map<Integer, Integer> tasksByUid) {
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
            else if (p.isZombie()) zombies++;
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
        self |= key.equals(SelfProcesses.KEY);
        Recursion recursion = Recursion.find(key, members, repeats, identical, forest);
        // The console's own watchdogs detach to init on purpose, and its helpers are not a loop.
        boolean orphans = !self && firstMembersAdopted(key, chains, forest);
        boolean recursive = !self && recursive(key, recursion);

        String cgroup = cgroups.size() == 1 ? cgroups.iterator().next() : "";
        Optional<CgroupPids.Cap> cap = cgroup.isEmpty() ? Optional.empty() : cgroupPids.cap(cgroup);
        OptionalLong cgroupRoom = cap.map(c -> OptionalLong.of(c.room())).orElse(OptionalLong.empty());
        // The console's own warm-up is not an incident.
        Exhaustion exhaustion = self ? Exhaustion.NONE : Exhaustion.of(growth, bytesPerSecond, tasks, pulse, cgroupRoom);
        CapWatch.Pressing pressing = self ? CapWatch.Pressing.NONE
                : capWatch.of(cgroup, cap, forest.living.get(members[0]), tasks, tasksByUid);
        return new Group(key, tasks, List.copyOf(chains), orphans, recursive,
                recursion.cycle(), recursion.repeats(), rss, growth, bytesPerSecond, exhaustion.seconds(), exhaustion.by(),
                PidList.copyOf(pids, count), cgroup, cgroupRoom.orElse(-1), cap.map(CgroupPids.Cap::max).orElse(-1L),
                pressing.atCap(), pressing.cap(), pressing.refused(), self, stopped, zombies, cpuShare.add(key, now, ticks))
                .withIdenticalRepeats(recursion.identical());
    }

    /** The cgroup lens: every cgroup with processes, its tasks, growth, cap and headroom, most severe first. */
    private List<CgroupLoad> cgroupLoads(List<ProcessSample> processes, int[] keyOf, boolean[] self, double now) {
        Map<String, int[]> counts = new HashMap<>(); // tasks, processes, the console's own
        Map<String, BitSet> keys = new HashMap<>();
        for (int i = 0; i < processes.size(); i++) {
            ProcessSample p = processes.get(i);
            if (!inGroups(p) || p.cgroup().isEmpty()) continue;
            int[] c = counts.computeIfAbsent(p.cgroup(), k -> new int[3]);
            c[0] += Math.max(1, p.numThreads());
            c[1]++;
            if (self[i]) c[2]++;
            keys.computeIfAbsent(p.cgroup(), k -> new BitSet()).set(keyOf[i]);
        }
        List<CgroupLoad> loads = new ArrayList<>(counts.size());
        for (Map.Entry<String, int[]> e : counts.entrySet()) {
            String path = e.getKey();
            int[] c = e.getValue();
            GrowthSeries series = cgroupHistory.computeIfAbsent(path, k -> new GrowthSeries(WINDOW_SECONDS));
            series.add(now, c[0], 0);
            GrowthFit growth = series.fitTasks();
            Optional<CgroupPids.Cap> cap = cgroupPids.cap(path);
            CapWatch.Pressing pressing = capWatch.cgroup(path, cap, now);
            double left = CgroupLoad.secondsLeft(growth, c[0], cap.map(CgroupPids.Cap::room).orElse(-1L), pressing.atCap());
            loads.add(new CgroupLoad(path, c[0], c[1], keys.get(path).cardinality(), growth,
                    cap.map(CgroupPids.Cap::max).orElse(-1L), cap.map(CgroupPids.Cap::room).orElse(-1L), pressing.atCap(),
                    pressing.refused(), left, c[2] == c[1]));
        }
        cgroupHistory.entrySet().removeIf(h -> !counts.containsKey(h.getKey()) && h.getValue().staleAt(now));
        capWatch.keepCgroups(counts.keySet());
        loads.sort(GroupOrder.severity());
        return List.copyOf(loads);
    }

    /**
     * Recursion, the one definition (the console's R, top's, the metrics', the events', and what
     * the guard's depths count from): one invocation repeated along one line beyond what a wrapper
     * does, or whose repetition keeps growing from scan to scan without falling back (a suite
     * re-entering itself, one level at a time; a shell's forked subshells, which share its command
     * line, come and go); or the command deeper than builds go, whatever its arguments. A deep
     * {@code make -C} recurs in another directory at each level: not recursion.
     */
    private boolean recursive(String key, Recursion r) {
        if (r.repeats() > DEEPER_THAN_BUILDS) return true;
        int same = r.identical();
        int[] seen = repetition.computeIfAbsent(key, k -> new int[] {same, 0});
        if (same > seen[0]) seen[1]++;
        else if (same < seen[0]) seen[1] = 0; // a shell's subshells nest and unnest: not growing
        seen[0] = same;
        return same > WRAPPER_REPEATS || (same >= WRAPPER_REPEATS && seen[1] >= GROWING_RECURSION_STEPS);
    }

    /** For tests: which pid is "this console". */
    void selfPid(int pid) {
        selfPid = pid;
    }

    /** For tests: which processes "this console" started as its sandbox watchdogs. */
    void watchdogs(Set<ProcessIdentity> started) {
        watchdogs = () -> started;
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
        int[] seeds = new int[f.livingCount];
        int count = 0;
        for (int i = 0; i < f.livingCount; i++) {
            if (inGroups(f.living.get(i)) && seed.test(f.living.get(i), f.keyOf(i))) seeds[count++] = i;
        }
        List<ProcessSample> targets = new ArrayList<>();
        below(f, new Descent(f.childStart, f.childList), seeds, count, targets::add);
        return new TargetSet(label, List.copyOf(targets), exclusiveCgroup(f, targets));
    }

    /**
     * A living process whose lineage is lost: the top of its line (the process, living or ghost,
     * just below init, a subreaper or a session) started after {@code afterTicks}, and no fork
     * record names that top's parent. It may descend from anything alive then.
     */
    public record LostLineage(ProcessSample process, String key, ProcessIdentity top) {
    }

    /**
     * The living processes of the newest analysis, none of {@code taken}, whose lineage is lost
     * since {@code afterTicks} (a stop's root's start): what a stop by descent cannot prove is not
     * a descendant. Adopters are init, systemd's instances and any process seen holding a
     * reparented child (a subreaper).
     */
    public synchronized List<LostLineage> lostLineage(Set<ProcessIdentity> taken, long afterTicks) {
        Forest f = lastForest;
        if (f == null) return List.of();
        Set<Integer> adopters = new java.util.HashSet<>();
        adopters.add(1);
        for (int i = 0; i < f.livingCount; i++) {
            ProcessSample p = f.living.get(i);
            if (p.ppid() > 1 && (f.adopted[i] || lineage.isReparented(p.identity()))) adopters.add(p.ppid());
            if ("systemd".equals(p.comm())) adopters.add(p.pid());
        }
        int[] topOf = new int[f.size];
        java.util.Arrays.fill(topOf, Forest.NONE);
        List<LostLineage> out = new ArrayList<>();
        int[] path = new int[f.size];
        for (int i = 0; i < f.livingCount; i++) {
            ProcessSample p = f.living.get(i);
            if (p.pid() <= 2 || p.isKernelThread() || taken.contains(p.identity())) continue;
            int n = i, length = 0, top = Forest.NONE;
            while (length < f.size) {
                if (topOf[n] != Forest.NONE) {
                    top = topOf[n];
                    break;
                }
                path[length++] = n;
                int up = f.parent[n];
                if (up == Forest.NONE || f.isSession(up) || (f.isLiving(up) && adopters.contains(f.living.get(up).pid()))) {
                    top = n;
                    break;
                }
                n = up;
            }
            if (top == Forest.NONE) continue; // a loop in the remembered lines: nothing to say
            for (int k = 0; k < length; k++) topOf[path[k]] = top;
            ProcessIdentity id = f.identityOf(top);
            if (id != null && id.startTicks() > afterTicks && !lineage.birthKnown(id)) out.add(new LostLineage(p, f.keyOf(i), id));
        }
        return out;
    }

    /** The command key of a living process of the newest analysis, or null. */
    public synchronized String keyOf(ProcessIdentity id) {
        Forest f = lastForest;
        int n = f == null ? Forest.NONE : f.indexOf(id);
        return n == Forest.NONE ? null : f.keyOf(n);
    }

    /**
     * For every group of the newest analysis, the processes (pid and start time) a stop of it
     * would take: its members and every living process below them, as {@link #targets(String)}.
     * One breadth-first walk per group from its own members, so the cost is the groups' subtrees,
     * not the table times the groups.
     */
    public synchronized Map<String, List<ProcessIdentity>> allTargets() {
        return allTargetsOf(lastForest);
    }

    /** The newest snapshot and, of the same scan, {@link #allTargets()}; null before the first scan. */
    public synchronized Targeted latestTargeted() {
        return lastSnapshot == null ? null : new Targeted(lastSnapshot, allTargetsOf(lastForest));
    }

    /** A snapshot with the targets a stop of each of its groups would take. */
    public record Targeted(Snapshot snapshot, Map<String, List<ProcessIdentity>> targets) {
    }

    private Map<String, List<ProcessIdentity>> allTargetsOf(Forest f) {
        if (f == null) return Map.of();
        Map<String, List<Integer>> seeds = new HashMap<>();
        for (int i = 0; i < f.livingCount; i++) {
            if (inGroups(f.living.get(i))) seeds.computeIfAbsent(f.keyOf(i), k -> new ArrayList<>()).add(i);
        }
        Descent descent = new Descent(f.childStart, f.childList);
        Map<String, List<ProcessIdentity>> out = new HashMap<>();
        for (Map.Entry<String, List<Integer>> e : seeds.entrySet()) {
            List<ProcessIdentity> targets = new ArrayList<>();
            int[] group = e.getValue().stream().mapToInt(Integer::intValue).toArray();
            below(f, descent, group, group.length, p -> targets.add(p.identity()));
            out.put(e.getKey(), List.copyOf(targets));
        }
        return out;
    }

    /**
     * The one membership rule: the seeds and every process below them in the (remembered)
     * forest, those living, in the groups, and not this process, in walk order.
     */
    private void below(Forest f, Descent descent, int[] seeds, int count, java.util.function.Consumer<ProcessSample> target) {
        descent.walk(seeds, count, n -> {
            if (f.isLiving(n) && inGroups(f.living.get(n)) && f.living.get(n).pid() != selfPid) target.accept(f.living.get(n));
            return true; // a ghost or this process passes the walk on to what it started
        });
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
            boolean dead = p.isZombie(); // a zombie holds nothing
            if (!dead && p.cgroup().equals(shared) && !set.contains(p.identity())) return Optional.empty();
        }
        return Optional.of(shared);
    }

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

    /** The pid of the highest ancestor of process {@code i} below init, as the table has it. */
    private static int chainTop(List<ProcessSample> processes, PidIndex pids, int i) {
        ProcessSample p = processes.get(i);
        Set<Integer> seen = new HashSet<>(); // a torn read may show a parent cycle
        while (p.ppid() > 1 && seen.add(p.pid())) {
            int up = pids.of(p.ppid());
            if (up == PidIndex.NONE) break;
            p = processes.get(up);
        }
        return p.pid();
    }
}
