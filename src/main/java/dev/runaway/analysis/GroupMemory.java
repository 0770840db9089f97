// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.analysis;

import dev.runaway.model.PulseSample;
import dev.runaway.procfs.MemoryFiles;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * A group's memory, counted once per page: the charge of a cgroup that holds exactly the group
 * (cheap: a few small files), else the sum of its members' PSS (a kernel walk of each member's
 * mappings: read for the groups that are charted, at most {@link #PSS_READS_PER_SCAN} per scan),
 * else summed RSS, which counts shared pages once per process, at most the machine's used memory.
 * No figure is ever above the machine's used memory.
 *
 * <p>smaps_rollup waits on the process's memory map, which a forking process holds while it
 * copies it: at 20,000 tasks pressing on a cap the scan thread sat in one such read for a minute
 * (bench ui, kernel stack {@code show_smaps_rollup}), and the console's plan waited on that scan.
 * A group's PSS is therefore read on a thread of its own and waited for {@link #PSS_WAIT_MILLIS}
 * at most; past that the group gets summed RSS for this scan, and no PSS is read again until
 * the read that waits returns.
 */
final class GroupMemory {
    /** The most severe groups (beside those watched) whose PSS is read: what charts and exports draw. */
    static final int PSS_GROUPS = 3;
    /** smaps_rollup reads per scan, all groups together: 28 µs each (10,091 sleepers in 281 ms, bench scan), ~28 ms. */
    static final int PSS_READS_PER_SCAN = 1_000;
    /** Cgroup charges are read for the groups a recording keeps (the most severe) and those watched. */
    static final int CHARGED_GROUPS = 20;

    /** How long a scan waits for one group's PSS. */
    static final long PSS_WAIT_MILLIS = 250;

    /** One reading thread for all: started with the class, so a console opened before a fire has it. */
    private static final java.util.concurrent.ExecutorService PSS_READER = java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(() -> {
            dev.runaway.sys.Sched.aheadOfOrdinaryTasks(); // as the scan thread it reads for
            r.run();
        }, "runaway-pss");
        t.setDaemon(true);
        return t;
    });

    static {
        PSS_READER.submit(() -> { }); // starts the thread now
    }

    private final MemoryFiles files;
    private java.util.concurrent.Future<OptionalLong> pending; // the last PSS read, maybe still waiting

    GroupMemory(MemoryFiles files) {
        this.files = files;
    }

    /** One group's figure and where it came from. */
    record Figure(long bytes, MemorySource source) {
    }

    /**
     * The choice, given what could be read: a cgroup's charge, else PSS, else summed RSS; each at
     * most the machine's used memory ({@code machineUsed} &le; 0: not known, no cap).
     */
    static Figure choose(long rss, Optional<MemoryFiles.Charge> charge, OptionalLong pss, long machineUsed) {
        Figure f;
        if (charge.isPresent()) {
            f = new Figure(charge.get().bytes(),
                    charge.get().file().equals("memory.current") ? MemorySource.CGROUP_V2 : MemorySource.CGROUP_V1);
        } else if (pss.isPresent()) {
            f = new Figure(pss.getAsLong(), MemorySource.PSS);
        } else {
            f = new Figure(rss, MemorySource.RSS);
        }
        return machineUsed > 0 && f.bytes() > machineUsed ? new Figure(machineUsed, f.source()) : f;
    }

    /**
     * The groups (most severe first) with their memory measured. {@code watched}: command keys
     * shown now (the console's selected group), measured like the most severe.
     */
    List<Group> measure(List<Group> groups, List<CgroupLoad> lens, PulseSample pulse, Set<String> watched) {
        Map<String, CgroupLoad> byPath = new HashMap<>();
        for (CgroupLoad c : lens) byPath.put(c.path(), c);
        long used = pulse.memoryUsedBytes();
        int pssBudget = PSS_READS_PER_SCAN;
        int pssGroups = 0;
        List<Group> out = new ArrayList<>(groups.size());
        for (int i = 0; i < groups.size(); i++) {
            Group g = groups.get(i);
            boolean shown = watched.contains(g.command());
            Optional<MemoryFiles.Charge> charge = Optional.empty();
            if ((i < CHARGED_GROUPS || shown) && exclusive(g, byPath.get(g.cgroup()))) {
                charge = files.exclusiveCharge(g.cgroup(), g.pids().get(0), new HashSet<>(g.pids()),
                        g.pids().size() - g.zombies());
            }
            OptionalLong pss = OptionalLong.empty();
            boolean wanted = shown || (!g.self() && pssGroups < PSS_GROUPS);
            if (charge.isEmpty() && wanted && g.pids().size() <= pssBudget) {
                pssBudget -= g.pids().size();
                if (!shown) pssGroups++;
                pss = pss(g.pids());
            }
            Figure f = choose(g.rssBytes(), charge, pss, used);
            out.add(g.withMemory(f.bytes(), f.source()));
        }
        return out;
    }

    /** The cgroup lens says the group's one cgroup holds its processes and no other group's. */
    private static boolean exclusive(Group g, CgroupLoad c) {
        return c != null && !g.pids().isEmpty() && c.groups() == 1 && c.processes() == g.pids().size();
    }

    /**
     * The members' summed PSS; empty when one could not be read (another user's, without root),
     * when the reads did not end in {@link #PSS_WAIT_MILLIS}, or while an earlier one still waits.
     */
    private OptionalLong pss(List<Integer> pids) {
        if (pending != null && !pending.isDone()) return OptionalLong.empty();
        List<Integer> copy = List.copyOf(pids);
        try {
            pending = PSS_READER.submit(() -> summedPss(copy));
            return pending.get(PSS_WAIT_MILLIS, java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException waits) {
            return OptionalLong.empty(); // a member's memory map is held (a fork under way): RSS this scan
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return OptionalLong.empty();
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.RejectedExecutionException failed) {
            return OptionalLong.empty();
        }
    }

    private OptionalLong summedPss(List<Integer> pids) {
        long sum = 0;
        for (int pid : pids) {
            OptionalLong p = files.pss(pid);
            if (p.isEmpty()) return OptionalLong.empty();
            sum += p.getAsLong();
        }
        return OptionalLong.of(sum);
    }
}
