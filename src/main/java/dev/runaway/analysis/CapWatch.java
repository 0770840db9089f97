package dev.runaway.analysis;

import dev.runaway.model.ProcessIdentity;
import dev.runaway.model.ProcessSample;
import dev.runaway.model.PulseSample;
import dev.runaway.procfs.CgroupPids;
import dev.runaway.procfs.ProcessCaps;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Which groups are at a cap: their forks (or allocations) refused at a limit now. The evidence,
 * per limit:
 * <ul>
 *   <li>its cgroup's {@code pids.max}: the cgroup's {@code pids.events} max counter rose since the
 *   last scan (v1 and v2 keep the same counter), or the cgroup has no room left;</li>
 *   <li>a memory cap ({@code memory.max}, or v1 {@code memory.limit_in_bytes} of the memory cgroup
 *   the group's first process is in): that cgroup's OOM-kill counter rose;</li>
 *   <li>{@code RLIMIT_NPROC}: the owner's tasks are at the soft limit of the group's first process
 *   (root is exempt, and a group of fewer than {@link #NPROC_MIN_TASKS} is not what presses);</li>
 *   <li>{@code pid_max} and {@code threads-max}: the machine is within a small margin of the limit;
 *   the kernel does not say whose fork failed, so the groups growing then (or, when none grows,
 *   the largest) are the ones pressing.</li>
 * </ul>
 * A group stays at cap for {@link #HOLD_SECONDS} after the last evidence of its own limits: a
 * scan between two refused forks must not make it look calm again.
 */
final class CapWatch {
    static final double HOLD_SECONDS = 5;
    static final int NPROC_MIN_TASKS = 16;

    private final CgroupPids cgroupPids;
    private final ProcessCaps caps;
    private final Map<String, Long> refusedSeen = new HashMap<>(); // per cgroup: pids.events max, as last read
    private final Map<String, Long> oomKillsSeen = new HashMap<>(); // per memory cgroup: oom_kill, as last read
    private final Map<String, Long> refusedNow = new HashMap<>(); // this scan's increase per cgroup
    private final Map<String, Long> oomKillsNow = new HashMap<>();
    private final Map<String, Optional<ProcessCaps.MemoryCap>> memoryNow = new HashMap<>();
    private final Map<ProcessIdentity, Optional<String>> memoryPaths = new HashMap<>();
    private final Map<ProcessIdentity, OptionalLong> nprocLimits = new HashMap<>();
    private final Set<ProcessIdentity> usedNow = new HashSet<>();
    private final Map<String, Held> held = new HashMap<>();
    private final Map<String, Held> heldCgroups = new HashMap<>();

    private record Held(GroupCap cap, double since) {
    }

    /** What one scan found for one group. */
    record Pressing(boolean atCap, Optional<GroupCap> cap, long refused) {
        static final Pressing NONE = new Pressing(false, Optional.empty(), 0);
    }

    CapWatch(CgroupPids cgroupPids, ProcessCaps caps) {
        this.cgroupPids = cgroupPids;
        this.caps = caps;
    }

    void beginScan() {
        refusedNow.clear();
        oomKillsNow.clear();
        memoryNow.clear();
        usedNow.clear();
    }

    /**
     * A cgroup as a whole at its pids.max: forks refused since the last scan (the same count its
     * groups see) or no room, held like a group's.
     */
    Pressing cgroup(String path, Optional<CgroupPids.Cap> pids, double now) {
        if (pids.isPresent()) {
            long refused = refusedNow.computeIfAbsent(path, c -> increase(refusedSeen, c, pids.get().refusedTotal()));
            GroupCap cap = new GroupCap(GroupCap.PIDS_MAX, pids.get().max());
            if (refused > 0 || pids.get().room() == 0) {
                heldCgroups.put(path, new Held(cap, now));
                return new Pressing(true, Optional.of(cap), refused);
            }
        }
        Held h = heldCgroups.get(path);
        if (h != null && now - h.since() < HOLD_SECONDS) return new Pressing(true, Optional.of(h.cap()), 0);
        heldCgroups.remove(path);
        return Pressing.NONE;
    }

    /** Forgets the holds of cgroups no longer seen. */
    void keepCgroups(Set<String> paths) {
        heldCgroups.keySet().retainAll(paths);
    }

    /** The evidence of this group's own limits: its cgroup's pids.max, its memory cap, its owner's RLIMIT_NPROC. */
    Pressing of(String cgroup, Optional<CgroupPids.Cap> pids, ProcessSample first, int tasks, Map<Integer, Integer> tasksByUid) {
        if (pids.isPresent()) {
            long refused = refusedNow.computeIfAbsent(cgroup, c -> increase(refusedSeen, c, pids.get().refusedTotal()));
            if (refused > 0 || pids.get().room() == 0) {
                return new Pressing(true, Optional.of(new GroupCap(GroupCap.PIDS_MAX, pids.get().max())), refused);
            }
        }
        Pressing memory = memory(cgroup, first);
        if (memory.atCap()) return memory;
        return nproc(first, tasks, tasksByUid);
    }

    private Pressing memory(String cgroup, ProcessSample first) {
        Optional<ProcessCaps.MemoryCap> v2 = cgroup.isEmpty() ? Optional.empty()
                : memoryNow.computeIfAbsent("2:" + cgroup, c -> caps.memoryV2(cgroup));
        String key = "2:" + cgroup;
        Optional<ProcessCaps.MemoryCap> cap = v2;
        if (v2.isEmpty()) {
            usedNow.add(first.identity());
            Optional<String> path = memoryPaths.computeIfAbsent(first.identity(), id -> caps.v1Cgroup(id.pid(), "memory"));
            if (path.isEmpty()) return Pressing.NONE;
            key = "1:" + path.get();
            cap = memoryNow.computeIfAbsent(key, c -> caps.memoryV1(path.get()));
        }
        if (cap.isEmpty() || cap.get().oomKillsTotal() < 0) return Pressing.NONE;
        long total = cap.get().oomKillsTotal();
        long kills = oomKillsNow.computeIfAbsent(key, k -> increase(oomKillsSeen, k, total));
        return kills > 0 ? new Pressing(true, Optional.of(new GroupCap(cap.get().limit(), cap.get().bytes())), kills)
                : Pressing.NONE;
    }

    private Pressing nproc(ProcessSample first, int tasks, Map<Integer, Integer> tasksByUid) {
        if (first.uid() <= 0 || tasks < NPROC_MIN_TASKS) return Pressing.NONE;
        usedNow.add(first.identity());
        OptionalLong limit = nprocLimits.computeIfAbsent(first.identity(), id -> caps.maxProcesses(id.pid()));
        if (limit.isEmpty()) return Pressing.NONE;
        long margin = Math.max(1, limit.getAsLong() / 200);
        int owned = tasksByUid.getOrDefault(first.uid(), 0);
        return owned >= limit.getAsLong() - margin
                ? new Pressing(true, Optional.of(new GroupCap(GroupCap.NPROC, limit.getAsLong())), -1) : Pressing.NONE;
    }

    /** How far a counter rose since it was last read; 0 at first sight (no baseline yet). */
    private static long increase(Map<String, Long> seen, String key, long total) {
        if (total < 0) return 0;
        Long before = seen.put(key, total);
        return before == null ? 0 : Math.max(0, total - before);
    }

    /**
     * The groups with the machine-wide limits applied (pid_max, threads-max) and each at-cap state
     * held for {@link #HOLD_SECONDS}; forgets what no group of this scan needs.
     */
    List<Group> endScan(List<Group> groups, PulseSample pulse, double now) {
        Optional<GroupCap> machine = machineCap(pulse);
        Set<String> pressing = machine.isPresent() ? pressingMachine(groups) : Set.of();
        List<Group> out = new ArrayList<>(groups.size());
        Set<String> keys = new HashSet<>();
        for (Group g : groups) {
            keys.add(g.command());
            Group now2 = g;
            if (!g.atCap() && pressing.contains(g.command())) now2 = g.withCap(true, machine, -1);
            if (g.atCap()) { // its own evidence; a machine-wide limit is re-read every scan and needs no hold
                held.put(g.command(), new Held(g.cap().orElseThrow(), now));
            } else {
                Held h = held.get(g.command());
                if (h != null && now - h.since() < HOLD_SECONDS && !g.self()) now2 = g.withCap(true, Optional.of(h.cap()), 0);
            }
            out.add(now2);
        }
        held.keySet().retainAll(keys);
        if (memoryPaths.size() > 2 * usedNow.size() + 1024) memoryPaths.keySet().retainAll(usedNow);
        if (nprocLimits.size() > 2 * usedNow.size() + 1024) nprocLimits.keySet().retainAll(usedNow);
        return out;
    }

    /** pid_max or threads-max, when the machine is within its margin of it. */
    static Optional<GroupCap> machineCap(PulseSample pulse) {
        if (pulse.tasks() < 0) return Optional.empty();
        int[] limits = {pulse.pidMax(), pulse.threadsMax()};
        String[] names = {GroupCap.PID_MAX, GroupCap.THREADS_MAX};
        for (int i = 0; i < limits.length; i++) {
            if (limits[i] <= 0) continue;
            long margin = Math.max(16, limits[i] / 200);
            if (limits[i] - pulse.tasks() <= margin) return Optional.of(new GroupCap(names[i], limits[i]));
        }
        return Optional.empty();
    }

    /** The groups growing now or, when none is, the largest: who presses on a machine-wide limit. */
    private static Set<String> pressingMachine(List<Group> groups) {
        Set<String> growing = new HashSet<>();
        Group largest = null;
        for (Group g : groups) {
            if (g.self()) continue;
            if (g.rate() >= GroupOrder.GROWING_TASKS_PER_SECOND) growing.add(g.command());
            if (largest == null || g.tasks() > largest.tasks()) largest = g;
        }
        if (growing.isEmpty() && largest != null) growing.add(largest.command());
        return growing;
    }
}
