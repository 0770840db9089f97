package dev.runaway.procfs;

import dev.runaway.model.ProcessIdentity;
import dev.runaway.model.ProcessSample;
import dev.runaway.model.ScanSample;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The process table, kept between scans so that most scans read little. Each scan lists the
 * pids once; it reads {@code stat} for new pids, for the children of vanished ones (their parent
 * changes when they are reparented), for processes seen for the first time last scan (a fork
 * is often followed by an exec that changes what it is) and for a round-robin share of the
 * rest (memory and CPU figures); {@code cmdline}, {@code exe}, {@code cgroup} and the uid are
 * read once per process, again only when its name changes (an exec). A complete scan re-reads
 * every stat: that is also what catches a pid reused between two scans.
 */
public final class ProcessTable {
    /** Incremental scans refresh 1/ROUND_ROBIN_SHARE of the known processes each. */
    public static final int ROUND_ROBIN_SHARE = 50;

    private final ProcReader reader;
    private final long pageBytes;
    private final Map<Integer, Entry> entries = new HashMap<>();
    private Set<Integer> probation = new HashSet<>();
    private Set<Integer> lostMidScan = new HashSet<>();
    private int roundRobin;

    private static final class Entry {
        ProcStat stat;
        Statics statics;
        ProcessSample sample;
    }

    private record Statics(int uid, List<String> cmdline, String exe, String cgroup) {
    }

    public ProcessTable(ProcReader reader, long pageBytes) {
        this.reader = reader;
        this.pageBytes = pageBytes;
    }

    public int size() {
        return entries.size();
    }

    /** Scans the table: incrementally, or every stat again when {@code complete}. */
    public ScanSample scan(boolean complete) {
        long started = System.nanoTime();
        Instant time = Instant.now();
        int[] pids = reader.pids(); // ascending

        Set<Integer> reread = new HashSet<>(probation);
        Set<Integer> vanished = new HashSet<>(lostMidScan);
        lostMidScan = new HashSet<>();
        for (Integer known : entries.keySet()) if (Arrays.binarySearch(pids, known) < 0) vanished.add(known);
        if (!vanished.isEmpty()) {
            for (Map.Entry<Integer, Entry> e : entries.entrySet()) {
                if (vanished.contains(e.getValue().stat.ppid())) reread.add(e.getKey());
            }
            entries.keySet().removeAll(vanished);
        }
        if (complete) {
            reread.addAll(entries.keySet());
        } else {
            addRoundRobin(pids, reread);
        }

        Set<Integer> seenFirst = new HashSet<>();
        for (int pid : pids) {
            Entry entry = entries.get(pid);
            if (entry == null) {
                if (admit(pid)) seenFirst.add(pid);
            } else if (reread.contains(pid)) {
                refresh(pid, entry);
            }
        }
        probation = seenFirst;

        List<ProcessSample> processes = new ArrayList<>(entries.size());
        for (int pid : pids) {
            Entry entry = entries.get(pid);
            if (entry != null) processes.add(entry.sample);
        }
        return new ScanSample(time, started, List.copyOf(processes), complete, System.nanoTime() - started);
    }

    private void addRoundRobin(int[] pids, Set<Integer> into) {
        if (pids.length == 0) return;
        int share = Math.max(1, pids.length / ROUND_ROBIN_SHARE);
        for (int i = 0; i < share; i++) into.add(pids[(roundRobin + i) % pids.length]);
        roundRobin = (roundRobin + share) % pids.length;
    }

    /** A pid not in the table: read everything; false when it vanished meanwhile. */
    private boolean admit(int pid) {
        Optional<ProcStat> stat = reader.stat(pid);
        if (stat.isEmpty()) return false;
        Entry entry = new Entry();
        entry.stat = stat.get();
        entry.statics = readStatics(pid);
        entry.sample = sample(entry);
        entries.put(pid, entry);
        return true;
    }

    /** Re-reads stat; a different start time means the pid was reused: a new process. */
    private void refresh(int pid, Entry entry) {
        Optional<ProcStat> stat = reader.stat(pid);
        if (stat.isEmpty()) {
            entries.remove(pid);
            lostMidScan.add(pid); // its children are re-read next scan, as for any vanished pid
            return;
        }
        boolean reused = stat.get().startTicks() != entry.stat.startTicks();
        boolean execed = !stat.get().comm().equals(entry.stat.comm());
        entry.stat = stat.get();
        if (reused || execed) entry.statics = readStatics(pid);
        entry.sample = sample(entry);
    }

    private Statics readStatics(int pid) {
        return new Statics(reader.uid(pid), reader.cmdline(pid), reader.exe(pid), reader.cgroup(pid));
    }

    private ProcessSample sample(Entry e) {
        ProcStat s = e.stat;
        return new ProcessSample(new ProcessIdentity(s.pid(), s.startTicks()), s.ppid(), s.pgrp(), s.session(),
                s.state(), s.comm(), s.numThreads(), s.rssPages() * pageBytes, s.cpuTicks(), e.statics.uid(),
                e.statics.cmdline(), e.statics.exe(), e.statics.cgroup());
    }
}
