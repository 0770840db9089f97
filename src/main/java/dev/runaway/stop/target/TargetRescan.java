// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop.target;

import dev.runaway.stop.Selector;
import dev.runaway.analysis.Analyzer;
import dev.runaway.analysis.Descent;
import dev.runaway.analysis.TargetSet;
import dev.runaway.model.ProcessIdentity;
import dev.runaway.model.ProcessSample;
import dev.runaway.model.ScanSample;
import dev.runaway.procfs.CgroupPids;
import dev.runaway.procfs.ProcEvents;
import dev.runaway.procfs.ProcReader;
import dev.runaway.procfs.ProcStat;
import dev.runaway.procfs.ProcessTable;
import dev.runaway.procfs.PulseReader;
import dev.runaway.sandbox.CgroupLayout;
import dev.runaway.sys.LibC;
import dev.runaway.sandbox.CgroupFiles;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * A selector's definition, read afresh on every call (a complete scan) and kept live: once a
 * process is a member it stays one until it is gone, whoever adopts it; with the process-event
 * connector (root) every fork of a member since this object was made is a member too, even when
 * the forking process exited before any scan saw it. The engine reads its targets this way
 * between rounds and confirms zero against it, never against the first list.
 */
public final class TargetRescan implements Supplier<Targets>, AutoCloseable {
    private final Path proc;
    private final ProcReader statusReader; // ppidOf's (one buffer: guarded by itself)
    private final Selector selector;
    private final Exclusions exclusions;
    private final ProcessTable table;
    private final ProcReader reader;
    private final Analyzer analyzer;
    private final PulseReader pulse;
    private final Path unified;
    private final dev.runaway.procfs.ForkLog forks; // by descent, as root: every fork since it subscribed (and a sampler's before)
    private final ProcEvents events;
    private final Targets.Lineage lineage;
    private final Set<ProcessIdentity> sticky = new HashSet<>();
    private ProcessSample rootSeen;
    private List<Placement> placements = List.of();
    private Set<String> evidenceCgroups; // the members' cgroups as the first reading found them
    private final Set<String> evidenceKeys = new HashSet<>();
    private List<ProcessSample> lastProcesses = List.of();
    private Targets last;

    public TargetRescan(Path proc, Selector selector, Exclusions exclusions, PulseReader pulse) {
        this.proc = proc;
        this.statusReader = new ProcReader(proc);
        this.selector = selector;
        this.exclusions = exclusions;
        this.pulse = pulse;
        this.reader = new ProcReader(proc);
        this.table = new ProcessTable(new ProcReader(proc), LibC.INSTANCE.getpagesize())
                .readingCommandLinesOnlyWhen(dev.runaway.analysis.CommandKeys::needsCommandLine); // as the scan's keys
        // The keys scan showed: the same /proc links resolve relative scripts and /dev/fd scripts.
        this.analyzer = new Analyzer(CgroupPids.live(), dev.runaway.procfs.ProcessCaps.none(), new dev.runaway.procfs.ProcPaths(proc));
        this.unified = CgroupLayout.detect().unified().orElse(null);
        // Forks are followed where the kernel tells them (root): a daemonizing runaway's middle
        // processes exit before any scan sees them, so a scan's tree alone loses their children.
        boolean byDescent = selector instanceof Selector.Process || selector instanceof Selector.Chain;
        this.events = byDescent ? ProcEvents.open().orElse(null) : null;
        this.forks = events == null ? null : dev.runaway.procfs.ForkLog.recording(events);
        if (forks != null) analyzer.followingForks(forks);
        // A sampler that watched before this stop (the console, top, runaway metrics) saw the forks
        // it cannot: a daemonizer's middles that exited before it began. Its log is joined in front.
        dev.runaway.procfs.SharedLineage.Join joined = forks == null ? null : dev.runaway.procfs.SharedLineage.joinInto(forks,
                selector instanceof Selector.Process p ? p.root() : ((Selector.Chain) selector).top(), JOIN_PATIENCE);
        this.lineage = !byDescent ? Targets.Lineage.NONE
                : joined == null ? new Targets.Lineage(Targets.Lineage.Source.SCANS, "", 0, 0, "")
                : joined.source().map(j -> new Targets.Lineage(Targets.Lineage.Source.RECORDED, j.who(), j.pid(), j.sinceTicks(), ""))
                .orElseGet(() -> new Targets.Lineage(Targets.Lineage.Source.OWN_EVENTS, "", 0, forks.since(), joined.missed()));
    }

    /** A command key's group, this process's exclusions (benches and tests that plan by key). */
    public static TargetRescan ofCommand(Path proc, String command, PulseReader pulse) {
        return new TargetRescan(proc, new Selector.Command(command), Exclusions.ofThisProcess(proc), pulse);
    }

    // How long a stop by descent waits for the samplers' answers to its lineage question (its own
    // events recorded meanwhile): the service took 3.7 s under a 1,000-process daemonizer, load 30-80.
    private static final java.time.Duration JOIN_PATIENCE = java.time.Duration.ofSeconds(10);

    /**
     * Targets already read (the plan's) seed the definition: later reads may then be light.
     */
    public synchronized void seed(Targets planned) {
        for (ProcessSample p : planned.members()) if (!(selector instanceof Selector.Cgroup)) sticky.add(p.identity());
        last = planned;
    }

    @Override
    public synchronized Targets get() {
        if (last != null && lightKey() != null) return light();
        Targets t = full();
        last = t;
        return t;
    }

    /**
     * The binary a command key names when no interpreter runs it (then membership is a matter of
     * /proc/PID/exe alone); null for script keys, which need each command line.
     */
    private String lightKey() {
        if (!(selector instanceof Selector.Command c) || !c.key().startsWith("/")) return null;
        String asProgram = dev.runaway.analysis.CommandKeys.of(List.of(c.key(), "x"), c.key(), "");
        return asProgram.equals(c.key()) ? c.key() : null;
    }

    /**
     * A light reading of a binary key's definition, for the rounds and confirm-zero after the
     * plan: stat and exe of each process (neither waits on a process's memory map, which
     * processes forking at a cap hold for writing; command lines and cgroups would), members by
     * key, their descendants by parent, and every member seen before while it lives.
     */
    private Targets light() {
        String key = lightKey();
        followForks();
        List<ProcStat> alive = new ArrayList<>();
        Map<Integer, Integer> indexOf = new HashMap<>();
        Map<Integer, String> exes = new HashMap<>();
        int[] seeds = new int[0];
        int count = 0;
        for (int pid : reader.pids()) {
            Optional<ProcStat> s = reader.stat(pid);
            if (s.isEmpty() || s.get().isZombie()) continue;
            ProcStat st = s.get();
            indexOf.put(pid, alive.size());
            alive.add(st);
            String exe = reader.exe(pid);
            exes.put(pid, exe);
            if ((key.equals(exe) && admitted(pid)) || sticky.contains(st.identity())) {
                if (count == seeds.length) seeds = java.util.Arrays.copyOf(seeds, Math.max(16, count * 2));
                seeds[count++] = alive.size() - 1;
            }
        }
        int[] parentOf = new int[alive.size()];
        for (int i = 0; i < parentOf.length; i++) parentOf[i] = indexOf.getOrDefault(alive.get(i).ppid(), Descent.NONE);
        List<ProcessSample> members = new ArrayList<>();
        List<Exclusions.Excluded> excluded = new ArrayList<>();
        Descent.ofParents(parentOf).walk(seeds, count, n -> {
            ProcStat st = alive.get(n);
            // The cgroup is read only for this process's own children: whether they are its own (the helper) or a drill's.
            String cgroup = st.ppid() == exclusions.self() ? reader.cgroup(st.pid()) : "";
            if (st.ppid() == exclusions.self() && cgroup.isEmpty()) return false; // gone meanwhile
            if (!admitted(st.pid())) return false; // another user's: not of a one-user definition, nor what it started
            ProcessSample p = new ProcessSample(st.identity(), st.ppid(), st.pgrp(), st.session(), st.state(), st.comm(),
                    st.numThreads(), 0, st.cpuTicks(), -1, List.of(), exes.getOrDefault(st.pid(), ""), cgroup);
            Optional<Exclusions.Excluded> why = exclusions.of(p);
            if (why.isPresent()) {
                excluded.add(why.get());
                return false;
            }
            members.add(p);
            sticky.add(p.identity());
            return true;
        });
        return new Targets(selector, List.copyOf(members), last.cgroup(), last.cgroupNote(), List.copyOf(excluded), List.of(),
                Targets.Following.KEY, List.of(), Targets.Lineage.NONE, last.users());
    }

    private Targets full() {
        Set<Integer> inCgroup = selector instanceof Selector.Cgroup c ? kernelMembers(c.path()) : Set.of();
        followForks();
        ScanSample scan = table.scan(true);
        // A script's key needs the command line of every process an interpreter may run it in: the
        // reads left unread (they wait on forking processes' memory maps) are asked again, for a while.
        // So does a program's key that no process was seen to run while executables were left unread:
        // at the start of a 20,000-task fire every exe read waited (its process mid-exec), and the
        // stop said "nothing matches" (bench stop).
        long patience = System.nanoTime() + UNREAD_PATIENCE_NANOS;
        while ((scriptKey() ? maybeTheScript(scan.processes()) > 0 : programKeyUnseen(scan.processes(), scan.statsUnread()))
                && System.nanoTime() < patience) {
            java.util.concurrent.locks.LockSupport.parkNanos(20_000_000L);
            scan = table.scan(false);
        }
        lastProcesses = scan.processes();
        followForks(); // the forks of processes this scan saw: their events come a moment after /proc shows them
        analyzer.analyze(scan, pulse.read());
        TargetSet set = analyzer.targets(selector.label(), (p, key) -> sticky.contains(p.identity()) || seeds(p, key, inCgroup));
        ProcessIdentity root = selector.rootProcess();
        if (root != null) {
            for (ProcessSample p : set.samples()) if (p.identity().equals(root) && rootSeen == null) rootSeen = p; // as first read
            set = placeLostLineage(root, set);
        }
        return withUnread(settle(set.samples(), inCgroup));
    }

    /**
     * Processes whose lineage is lost since the root began are placed by evidence ({@link
     * Placement}): those it takes join the members with all below them (and stay members); the
     * rest that something ties to the root are listed as not followed.
     */
    private TargetSet placeLostLineage(ProcessIdentity root, TargetSet set) {
        if (rootSeen == null) {
            placements = List.of(); // the root was never read as a member: nothing to place against
            return set;
        }
        if (evidenceCgroups == null) evidenceCgroups = new HashSet<>(); // the plan's: later a quarantine holds the members
        if (evidenceCgroups.isEmpty() && placements.isEmpty()) {
            Placement.collect(set.samples(), p -> analyzer.keyOf(p.identity()), evidenceCgroups, evidenceKeys);
        } else {
            Placement.collect(set.samples(), p -> analyzer.keyOf(p.identity()), new HashSet<>(), evidenceKeys);
        }
        Set<ProcessIdentity> taken = new HashSet<>(set.processes());
        List<Placement> placed = Placement.of(analyzer.lostLineage(taken, root.startTicks()), rootSeen, evidenceCgroups,
                evidenceKeys, exclusions);
        boolean more = false;
        for (Placement pl : placed) if (pl.taken()) more |= sticky.add(pl.process().identity());
        placements = placed;
        return more ? analyzer.targets(selector.label(), (p, key) -> sticky.contains(p.identity()) || p.identity().equals(root)) : set;
    }

    /** How long a full reading waits for command lines a script's key needs (see {@link #full}). */
    private static final long UNREAD_PATIENCE_NANOS = 10_000_000_000L;

    /** A command key that is not a program's: telling its processes needs their command lines. */
    private boolean scriptKey() {
        return selector instanceof Selector.Command c && !dev.runaway.analysis.CommandKeys.isProgram(c.key());
    }

    /**
     * A program's key that no process was seen to run, while some processes' executables are
     * unread, or new processes were left out of the scan because their stat waits (at the start
     * of a 20,000-task fire all of them: the stop said "nothing matches" after 4 s, bench stop).
     */
    private boolean programKeyUnseen(List<ProcessSample> processes, int statsUnread) {
        if (!(selector instanceof Selector.Command c) || !dev.runaway.analysis.CommandKeys.isProgram(c.key())) return false;
        boolean unread = statsUnread > 0;
        for (ProcessSample p : processes) {
            if (c.key().equals(p.exe())) return false;
            if (p.exe().isEmpty() && p.cmdlineUnread()) unread = true;
        }
        return unread;
    }

    /** Processes whose command line is unread and that may run a script (an interpreter, or an executable not read either). */
    private static int maybeTheScript(List<ProcessSample> processes) {
        int n = 0;
        for (ProcessSample p : processes) if (p.cmdlineUnread() && !dev.runaway.analysis.CommandKeys.isProgram(p.exe())) n++;
        return n;
    }

    /**
     * A script's key cannot be told from a process whose command line is not read yet (its read
     * waited on a forking process's memory map) and whose executable is an interpreter: such a
     * process may run the script. It is not taken (it may be a stranger), but zero is not
     * claimed while it lives: never a false zero.
     */
    private Targets withUnread(Targets t) {
        if (!scriptKey()) return t;
        Set<Integer> memberPids = new HashSet<>();
        for (ProcessSample p : t.members()) memberPids.add(p.pid());
        List<ProcessSample> maybe = new ArrayList<>();
        for (ProcessSample p : lastProcesses) {
            if (!p.cmdlineUnread() || dev.runaway.analysis.CommandKeys.isProgram(p.exe()) || memberPids.contains(p.pid())) continue;
            if (!p.isZombie() && exclusions.of(p).isEmpty()) maybe.add(p);
        }
        if (maybe.isEmpty()) return t;
        List<ProcessSample> unfollowed = new ArrayList<>(t.unfollowed());
        unfollowed.addAll(maybe);
        return new Targets(t.selector(), t.members(), t.cgroup(), t.cgroupNote(), t.excluded(), List.copyOf(unfollowed), t.following(),
                t.placements(), t.lineage(), t.users());
    }

    /**
     * The definition from the set a live analysis already holds (the console's newest scan of a
     * command group): no new reading of every process, which at thousands pressing on a cap
     * waits minutes on their memory maps. Only what the set alone cannot tell is read: whether
     * its cgroup holds anything else (the kernel's list, then stat of the rest). Later rounds and
     * confirm-zero read the definition afresh, as ever.
     */
    public synchronized Targets fromKnown(List<ProcessSample> known) {
        if (!(selector instanceof Selector.Command)) throw new IllegalArgumentException("only a command group is planned from a known set");
        last = settle(known, Set.of());
        return last;
    }

    private Targets settle(List<ProcessSample> samples, Set<Integer> inCgroup) {
        ProcessIdentity root = selector.rootProcess();
        List<ProcessSample> members = new ArrayList<>();
        List<Exclusions.Excluded> excluded = new ArrayList<>();
        java.util.SortedMap<Integer, Integer> byUid = new java.util.TreeMap<>();
        for (ProcessSample p : samples) {
            Optional<Exclusions.Excluded> why = exclusions.of(p);
            if (why.isPresent()) excluded.add(why.get());
            else if (p.isZombie()) continue; // a zombie holds nothing
            else if (selector instanceof Selector.Cgroup c && !inCgroup.contains(p.pid()) && !c.holds(p.cgroup())) continue;
            else if (selector instanceof Selector.Command c) {
                // Whose: the kernel's real uid where it decides membership, else as the scan read it.
                int uid = c.uid().isPresent() ? realUid(p.pid()) : p.uid();
                if (uid >= 0) byUid.merge(uid, 1, Integer::sum); // -1: gone since the scan (a real uid unread is no member)
                if (c.admits(uid)) members.add(p);
            } else members.add(p);
        }
        KeyUsers users = selector instanceof Selector.Command c ? new KeyUsers(c.uid(), byUid) : KeyUsers.NONE;
        for (ProcessSample p : members) if (!(selector instanceof Selector.Cgroup)) sticky.add(p.identity());
        Set<Integer> memberPids = new HashSet<>();
        for (ProcessSample p : members) memberPids.add(p.pid());
        String[] note = new String[1];
        Optional<String> cgroup = new ExclusiveCgroup(proc, selector, unified, this::kernelMembers, this::admitted, this::ppidOf)
                .of(members, memberPids, note);
        Targets.Following following = selector instanceof Selector.Command ? Targets.Following.KEY
                : selector instanceof Selector.Cgroup ? Targets.Following.CGROUP
                : events != null ? Targets.Following.FORK_EVENTS : Targets.Following.SCANS;
        List<ProcessSample> unfollowed = new ArrayList<>();
        List<Placement> placed = new ArrayList<>();
        if (root != null) {
            for (Placement pl : placements) {
                if (!pl.taken() && !memberPids.contains(pl.process().pid())) unfollowed.add(pl.process());
                placed.add(pl);
            }
        }
        return new Targets(selector, List.copyOf(members), cgroup, note[0], List.copyOf(excluded), List.copyOf(unfollowed), following,
                List.copyOf(placed), lineage, users);
    }

    /** Whether the selector itself names this process (descendants are added by the tree walk). */
    private boolean seeds(ProcessSample p, String key, Set<Integer> inCgroup) {
        if (selector instanceof Selector.Command c) return key.equals(c.key());
        if (selector instanceof Selector.Cgroup c) return inCgroup.contains(p.pid()) || c.holds(p.cgroup());
        return p.identity().equals(selector.rootProcess());
    }

    /** Every fork since the last call into the log (the analysis reads lineage from it). */
    private void followForks() {
        if (forks != null) forks.catchUp();
    }

    /**
     * The note of a cgroup that holds only the targets. The scan may have seen only part of a
     * fire's processes (a new one's stat waits; in one trial the window's plan listed 882 of
     * 20,000): the lever covers the whole cgroup, so the note says how many are in it.
     */
    static String onlyTargets(String cgroup, int inCgroup, int listed) {
        int beyond = inCgroup - listed;
        return "the cgroup " + cgroup + " holds only the targets"
                + (beyond > 0 ? String.format(" and what they forked: %,d processes in all, %,d beyond the targets listed", inCgroup, beyond) : "");
    }

    /** Whether a one-user command definition admits this process by its real uid (any other selector: yes). */
    private boolean admitted(int pid) {
        return !(selector instanceof Selector.Command c) || c.uid().isEmpty() || c.admits(realUid(pid));
    }

    /** A process's real uid, from its status (see {@link ProcReader#realUid}). */
    private int realUid(int pid) {
        synchronized (statusReader) {
            return statusReader.realUid(pid);
        }
    }

    /** A process's parent, from its status (see {@link ProcReader#ppid}). */
    private int ppidOf(int pid) {
        synchronized (statusReader) {
            return statusReader.ppid(pid);
        }
    }

    /** Members of a cgroup and its subtree, from the kernel (cgroup.procs); empty when it is gone. */
    Set<Integer> kernelMembers(String cgroup) {
        if (unified == null || !cgroup.startsWith("/") || cgroup.contains("..")) return new HashSet<>();
        return CgroupFiles.membersRecursive(cgroup.equals("/") ? unified : unified.resolve(cgroup.substring(1)));
    }


    /** This process's own cgroup and its ancestors: never frozen or killed. */
    public static Set<String> ownCgroups() {
        Set<String> own = new LinkedHashSet<>();
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/cgroup"))) {
                if (!line.startsWith("0::")) continue;
                for (Path at = Path.of(line.substring(3)); at != null; at = at.getParent()) own.add(at.toString());
            }
        } catch (IOException e) {
            // unknown: nothing is excluded by it, the helper still refuses the console's cgroup
        }
        return own;
    }

    @Override
    public synchronized void close() {
        if (events != null) events.close();
    }
}
