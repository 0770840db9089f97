// SPDX-License-Identifier: GPL-3.0-or-later
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
 * every stat: that is also what catches a pid reused between two scans. A listed scan lists /proc
 * (what lost process events missed) but re-reads only the round-robin share: the live sampler's
 * periodic scan, since a complete one at 20,000 processes held both cores long enough to starve
 * the display server (docs/benchmarks.md, "The console under fire").
 *
 * <p>Executables and command lines are read apart, by {@link ExeCmdlineReads}: the command
 * line waits on the process's memory map, which a process holds while it forks, the exe link on
 * a process in the middle of an exec, and at thousands of tasks pressing on a cap they held every
 * scan up for minutes. What is not read within the stall deadline is left unread for this scan
 * (the sample says so, {@link ProcessSample#cmdlineUnread()}; its key comes from its executable
 * meanwhile, when that was read) and read again in later scans.
 */
public final class ProcessTable {
    /** Incremental scans refresh 1/ROUND_ROBIN_SHARE of the known processes each. */
    public static final int ROUND_ROBIN_SHARE = 50;
    /** A batch of reads (stat, exe and command line) ends once none has returned for this long. */
    static final long STALL_MILLIS = 50;

    private final ProcReader reader;
    private final long pageBytes;
    // A sample is also its process's last stat and statics. Concurrent: a late stat read compares with it (statIfNews).
    private final Map<Integer, ProcessSample> entries = new java.util.concurrent.ConcurrentHashMap<>();
    private final StatReads stats = StatReads.shared();
    private int statsUnread;
    /** A re-read stat that says nothing new. */
    private static final Optional<ProcStat> NO_NEWS = Optional.of(new ProcStat(0, "", 'X', 0, 0, 0, 0, 0, 0, 0, 0));
    private Set<Integer> probation = new HashSet<>();
    private Set<Integer> lostMidScan = new HashSet<>();
    private int[] lastPids = new int[0];
    private int roundRobin;
    private EventFeed events;  // null: every scan lists /proc
    private boolean eventsTrusted;   // a listing has been taken since the events began, and none were lost
    private long listings;
    private int[] followed; // the last pids made from events rather than a listing
    private final ExeCmdlineReads cmdlines;
    private final java.util.Queue<ExeCmdlineReads.Late> lateCmdlines = new java.util.concurrent.ConcurrentLinkedQueue<>();
    /**
     * New processes whose stat came after their scan gave up on it. During a fire many reads of a
     * pressing task's stat wait (it is mid-fork) and return seconds later: dropped, they were read
     * again, and the new read waited again.
     */
    private final java.util.Queue<ProcessSample> lateAdmits = new java.util.concurrent.ConcurrentLinkedQueue<>();
    private final Map<Integer, Long> cmdlineWanted = new HashMap<>();  // pid -> ticket: its sample's command line (or exe) is unread
    private final Map<Integer, Long> cmdlineWaiting = new HashMap<>(); // pid -> ticket: a thread is still inside that read
    private final Set<Integer> cmdlineStalled = new HashSet<>();       // pids whose read waited before: asked last
    private long cmdlineTickets;
    private java.util.function.Predicate<String> cmdlineNeeded = exe -> true;


    record Statics(int uid, List<String> cmdline, String exe, String cgroup, boolean cmdlineUnread) {
        // Written out: a record's generated equals and hashCode run through method handles, which
        // a cold JVM interprets; a first scan of 5,000 processes spent most of its Java time there.
        @Override
        public boolean equals(Object o) {
            return o instanceof Statics s && uid == s.uid && cmdlineUnread == s.cmdlineUnread && exe.equals(s.exe)
                    && cgroup.equals(s.cgroup) && cmdline.equals(s.cmdline);
        }

        @Override
        public int hashCode() {
            return ((uid * 31 + cmdline.hashCode()) * 31 + exe.hashCode()) * 31 + cgroup.hashCode() + (cmdlineUnread ? 1 : 0);
        }
    }

    /**
     * Equal statics and names as one object: 50,000 sleepers of one command then hold one command
     * line, one executable path and one cgroup path between them instead of 50,000 copies of
     * each, which the collector would otherwise trace in every full collection.
     */
    private final Canon<Statics> staticsSeen = new Canon<>(8_192, s -> dev.runaway.model.Argv.chars(s.cmdline),
            CmdlineBudget.TABLE_CHARS / 4); // and a quarter of the table's budget for long command lines
    private CmdlineBudget cmdlineBudget = new CmdlineBudget();
    private final Canon<String> commsSeen = new Canon<>(8_192);

    public ProcessTable(ProcReader reader, long pageBytes) {
        this(reader, pageBytes, ExeCmdlineReads.of(reader.root()));
    }

    /** With command lines read by {@code cmdlines} (tests give one whose reads wait). */
    ProcessTable(ProcReader reader, long pageBytes, ExeCmdlineReads cmdlines) {
        this.reader = reader;
        this.pageBytes = pageBytes;
        this.cmdlines = cmdlines;
    }

    public int size() {
        return entries.size();
    }

    /**
     * From now on, incremental scans take new and gone pids from the kernel's process events
     * instead of listing /proc (complete scans still list). Only for a table of the real /proc.
     */
    public ProcessTable following(EventFeed processEvents) {
        this.events = processEvents;
        this.eventsTrusted = false;
        return this;
    }

    /**
     * From now on a command line is read only when {@code needed} says so of the process's
     * executable (read first); otherwise the sample's command line is empty, and read. The
     * analysis passes what its keys need (a program's key is its executable).
     */
    public ProcessTable readingCommandLinesOnlyWhen(java.util.function.Predicate<String> needed) {
        this.cmdlineNeeded = needed;
        return this;
    }

    /** Long command lines kept to at most about CHARS across the table (tests; {@link CmdlineBudget#TABLE_CHARS} otherwise). */
    ProcessTable budgetingCommandLines(long chars) {
        this.cmdlineBudget = new CmdlineBudget(chars);
        return this;
    }

    /** How many scans listed the /proc directory (the rest followed process events). */
    public long listings() {
        return listings;
    }

    /** How much one scan reads. */
    public enum Depth {
        /** New pids (from process events when followed), last scan's new ones, orphans and a round-robin share. */
        INCREMENTAL,
        /** As {@link #INCREMENTAL}, with the pids from a listing of /proc even when events are followed. */
        LISTED,
        /** Every stat again, from a listing. */
        COMPLETE
    }

    /** Scans the table: incrementally, or every stat again when {@code complete}. */
    public ScanSample scan(boolean complete) {
        return scan(complete ? Depth.COMPLETE : Depth.INCREMENTAL);
    }

    /** Scans the table as deep as {@code depth} says. */
    public ScanSample scan(Depth depth) {
        boolean complete = depth == Depth.COMPLETE;
        long started = System.nanoTime();
        Instant time = Instant.now();
        // What is already known is re-read while the directory is listed.
        List<Integer> early = new ArrayList<>(probation);
        if (complete) early.addAll(entries.keySet());
        else addRoundRobin(early);
        StatReads.Pending<ProcStat> earlyReads = stats.start(reader.root(), notUnderway(early), this::statIfNews);
        Set<Integer> reused = new HashSet<>();
        Set<Integer> exited = new HashSet<>();
        int[] pids = pids(depth != Depth.INCREMENTAL, reused, exited); // ascending
        Map<Integer, ProcStat> earlyStats = statsOf(stats.await(earlyReads, STALL_MILLIS));

        Set<Integer> vanished = new HashSet<>(lostMidScan);
        vanished.addAll(reused); // exited and born again under the same pid since the last scan
        lostMidScan = new HashSet<>();
        if (pids != followed) {
            for (Integer known : entries.keySet()) if (Arrays.binarySearch(pids, known) < 0) vanished.add(known);
        } else {
            for (Integer pid : exited) if (entries.containsKey(pid)) vanished.add(pid); // the events named them
        }
        List<Integer> orphaned = new ArrayList<>();
        if (!vanished.isEmpty()) {
            for (Map.Entry<Integer, ProcessSample> e : entries.entrySet()) {
                if (vanished.contains(e.getValue().ppid()) && !earlyStats.containsKey(e.getKey())) orphaned.add(e.getKey());
            }
            entries.keySet().removeAll(vanished);
        }
        for (Map.Entry<Integer, ProcStat> e : earlyStats.entrySet()) {
            ProcessSample known = entries.get(e.getKey());
            if (known != null) refresh(e.getKey(), known, e.getValue(), reader);
        }
        Map<Integer, ProcStat> orphanedStats = statsOf(stats.await(stats.start(reader.root(), notUnderway(orphaned), this::statIfNews),
                STALL_MILLIS));
        for (Map.Entry<Integer, ProcStat> e : orphanedStats.entrySet()) {
            ProcessSample known = entries.get(e.getKey());
            if (known != null) refresh(e.getKey(), known, e.getValue(), reader);
        }

        Set<Integer> tookLate = takeLateAdmits(pids, reused);
        List<Integer> fresh = new ArrayList<>();
        for (int pid : pids) if (!entries.containsKey(pid)) fresh.add(pid);
        // Many new processes (a first scan, a burst): their cgroups from one walk of the hierarchy.
        CgroupMembers members = CgroupMembers.worthIt(fresh.size(), pids.length) ? CgroupMembers.walk(reader).orElse(null) : null;
        StatReads.Answers<ProcessSample> admits = stats.await(stats.start(reader.root(), notUnderway(fresh),
                (with, pid) -> admit(with, pid, members), (pid, late) -> late.ifPresent(lateAdmits::add)), STALL_MILLIS);
        Map<Integer, ProcessSample> admitted = new HashMap<>(admits.read().size() * 2);
        for (Map.Entry<Integer, Optional<ProcessSample>> e : admits.read().entrySet()) e.getValue().ifPresent(p -> admitted.put(e.getKey(), p));
        statsUnread = fresh.size() - admits.read().size(); // new processes not in this scan's table: their stat waits
        entries.putAll(admitted);
        for (Integer pid : admitted.keySet()) wantCmdline(pid);
        probation = new HashSet<>(admitted.keySet());
        probation.addAll(tookLate);
        lastPids = pids;
        readCmdlines();

        List<ProcessSample> processes = new ArrayList<>(entries.size());
        for (int pid : pids) {
            ProcessSample known = entries.get(pid);
            if (known != null) processes.add(known);
        }
        return new ScanSample(time, started, List.copyOf(processes), complete && statsUnread == 0, System.nanoTime() - started,
                cmdlineWanted.size(), statsUnread);
    }

    /**
     * Takes in the new processes whose stat came late, when this scan's pids still hold them, and
     * nothing since has read them or said their pid was born again. They are re-read early next
     * scan (probation), as any new process: a late answer may be a few scans old.
     */
    private Set<Integer> takeLateAdmits(int[] pids, Set<Integer> reused) {
        Set<Integer> took = new HashSet<>();
        for (ProcessSample late; (late = lateAdmits.poll()) != null; ) {
            int pid = late.identity().pid();
            if (Arrays.binarySearch(pids, pid) < 0 || reused.contains(pid) || entries.containsKey(pid)) continue;
            entries.put(pid, late);
            wantCmdline(pid);
            took.add(pid);
        }
        return took;
    }

    /** New processes left out of the last scan's table because their stat was not read in time. */
    public int statsUnread() {
        return statsUnread;
    }

    /** Those of {@code pids} whose stat read from an earlier scan has not returned yet: not asked again. */
    private List<Integer> notUnderway(List<Integer> pids) {
        if (pids.isEmpty()) return pids;
        Set<Integer> underway = stats.underway(reader.root()); // one look at the reading threads, not one per pid
        if (underway.isEmpty()) return pids;
        List<Integer> out = new ArrayList<>(pids.size());
        for (Integer pid : pids) if (!underway.contains(pid)) out.add(pid);
        return out;
    }

    /**
     * A re-read stat when it says something the table does not hold, {@link #NO_NEWS} when not,
     * empty when the process is gone. Runs on the reading threads, also after the scan has moved
     * on (a late read): the table is a concurrent map for that. A complete scan re-reads 50,000
     * stats that mostly say nothing new: kept until the scan ends (most of a second), they
     * outlived young collections and were promoted.
     */
    private Optional<ProcStat> statIfNews(ProcReader with, int pid) {
        Optional<ProcStat> stat = with.stat(pid);
        if (stat.isEmpty()) return stat;
        return news(pid, stat.get()) ? stat : NO_NEWS;
    }

    /** Re-read stats with news, by pid; a pid whose process is gone maps to null; no news and unread are left out. */
    private static Map<Integer, ProcStat> statsOf(StatReads.Answers<ProcStat> answers) {
        Map<Integer, ProcStat> out = new HashMap<>();
        for (Map.Entry<Integer, Optional<ProcStat>> e : answers.read().entrySet()) {
            if (e.getValue().isEmpty()) out.put(e.getKey(), null);
            else if (e.getValue() != NO_NEWS) out.put(e.getKey(), e.getValue().get());
        }
        return out;
    }

    /** Processes whose command line is not read yet (their samples say {@code cmdlineUnread}). */
    public int cmdlinesUnread() {
        return cmdlineWanted.size();
    }

    /** Command-line reads still under way after their scan ended (their answers come in on a later scan). */
    int cmdlinesWaiting() {
        return cmdlineWaiting.size();
    }

    private void wantCmdline(int pid) {
        cmdlineWanted.put(pid, ++cmdlineTickets);
    }

    /**
     * Reads the command lines wanted (new processes, execs, and those left unread before) on the
     * reading threads, no longer than the stall deadline; takes in first those that came in
     * after their own scan had ended. A read still under way is not asked again until it returns.
     * (A pid waiting twice keeps the newer ticket: the older read's answer is then dropped.)
     */
    private void readCmdlines() {
        cmdlineBudget.stale();
        for (ExeCmdlineReads.Late late; (late = lateCmdlines.poll()) != null; ) {
            Long waited = cmdlineWaiting.get(late.pid());
            if (waited != null && waited == late.ticket()) cmdlineWaiting.remove(late.pid());
            Long wanted = cmdlineWanted.get(late.pid());
            if (wanted == null || wanted != late.ticket()) continue;
            if (late.exe() != null) withExe(late.pid(), late.exe());
            withCmdline(late.pid(), late.args());
        }
        if (cmdlineWanted.isEmpty()) return;
        cmdlineWanted.keySet().retainAll(entries.keySet()); // gone meanwhile
        cmdlineWaiting.keySet().retainAll(entries.keySet());
        cmdlineStalled.retainAll(cmdlineWanted.keySet());
        List<ExeCmdlineReads.Request> requests = new ArrayList<>();
        for (Map.Entry<Integer, Long> e : cmdlineWanted.entrySet()) {
            // A read under way is not asked again; one for the program before an exec is no answer.
            if (!e.getValue().equals(cmdlineWaiting.get(e.getKey()))) requests.add(new ExeCmdlineReads.Request(e.getKey(), e.getValue()));
        }
        // Sleeping processes first (one that is running may be inside a fork, holding the map the read
        // needs), and last those whose reads waited before: a runaway's tasks, which would hold every
        // reading thread while the rest of the machine waits.
        requests.sort(java.util.Comparator.comparingInt(r -> cmdlineStalled.contains(r.pid()) ? 2
                : mayBeForking(entries.get(r.pid())) ? 1 : 0));
        ExeCmdlineReads.Result result = cmdlines.read(requests, STALL_MILLIS, lateCmdlines, cmdlineNeeded);
        for (Map.Entry<Integer, String> e : result.exes().entrySet()) withExe(e.getKey(), e.getValue());
        for (Map.Entry<Integer, List<String>> e : result.args().entrySet()) withCmdline(e.getKey(), e.getValue());
        for (Integer pid : result.waiting()) cmdlineWaiting.put(pid, cmdlineWanted.get(pid));
        cmdlineStalled.addAll(result.waiting());
    }

    private static boolean mayBeForking(ProcessSample p) {
        return p != null && (p.state() == 'R' || p.state() == 'D');
    }

    /** The process's sample with its executable read (its command line may still be unread). */
    private void withExe(int pid, String exe) {
        ProcessSample p = entries.get(pid);
        if (p == null) return;
        Statics read = staticsSeen.of(new Statics(p.uid(), p.cmdline(), exe, p.cgroup(), p.cmdlineUnread()));
        entries.put(pid, new ProcessSample(p.identity(), p.ppid(), p.pgrp(), p.session(), p.state(), p.comm(), p.numThreads(),
                p.rssBytes(), p.cpuTicks(), read.uid(), read.cmdline(), read.exe(), read.cgroup(), read.cmdlineUnread(),
                p.forkNoExec()));
    }

    /** The process's sample with its command line read (a long one within the table's budget). */
    private void withCmdline(int pid, List<String> args) {
        cmdlineWanted.remove(pid);
        ProcessSample p = entries.get(pid);
        if (p == null) return;
        Statics read = staticsSeen.of(new Statics(p.uid(), args, p.exe(), p.cgroup(), false));
        List<String> kept = cmdlineBudget.keep(read.cmdline(), entries.values());
        if (kept != read.cmdline()) read = staticsSeen.of(new Statics(p.uid(), kept, p.exe(), p.cgroup(), false));
        entries.put(pid, new ProcessSample(p.identity(), p.ppid(), p.pgrp(), p.session(), p.state(), p.comm(), p.numThreads(),
                p.rssBytes(), p.cpuTicks(), read.uid(), read.cmdline(), read.exe(), read.cgroup(), false, p.forkNoExec()));
    }

    /**
     * This scan's pids, ascending: the last scan's with the process events applied, or a fresh
     * listing (listed and complete scans, no events, events lost). Pids that exited and were reused since
     * the last scan go into {@code reused}; when events were followed, the pids they say exited
     * go into {@code exited}, and the result is also kept as {@link #followed}.
     */
    private int[] pids(boolean listed, Set<Integer> reused, Set<Integer> exited) {
        if (events != null && eventsTrusted && !listed) {
            Set<Integer> born = new HashSet<>(), died = new HashSet<>(), forked = new HashSet<>(), ended = new HashSet<>();
            boolean whole = events.drain(new ProcEvents.Sink() {
                @Override
                public void forked(int tgid) {
                    if (died.contains(tgid)) reused.add(tgid);
                    born.add(tgid);
                    forked.add(tgid);
                }

                @Override
                public void exited(int tgid) {
                    ended.add(tgid);
                    if (!born.remove(tgid)) died.add(tgid); // born and gone between two scans: never seen
                }
            });
            for (int pid : leaderExitedAlone(ended)) {
                died.remove(pid);
                if (forked.contains(pid)) born.add(pid);
            }
            if (whole) {
                int[] out = new int[lastPids.length + born.size()];
                int n = 0;
                for (int pid : lastPids) if (!died.contains(pid) || born.contains(pid)) out[n++] = pid;
                for (int pid : born) if (Arrays.binarySearch(lastPids, pid) < 0) out[n++] = pid;
                int[] pids = Arrays.copyOf(out, n);
                Arrays.sort(pids);
                for (int pid : died) if (!born.contains(pid)) exited.add(pid);
                followed = pids;
                return pids;
            }
            reused.clear(); // events were lost: list, and trust the events again from here
        }
        if (events != null) {
            // What happened before this listing, the listing shows; but a known pid forked again
            // since the last scan is another process now (a listed scan does not re-read every stat).
            boolean trusted = eventsTrusted && listed;
            Set<Integer> bornAgain = new HashSet<>();
            boolean whole = events.drain(new ProcEvents.Sink() {
                @Override
                public void forked(int tgid) {
                    if (trusted && Arrays.binarySearch(lastPids, tgid) >= 0) bornAgain.add(tgid);
                }

                @Override
                public void exited(int tgid) {
                }
            });
            if (trusted && whole) reused.addAll(bornAgain);
            eventsTrusted = true;
        }
        listings++;
        return reader.pids();
    }

    /**
     * Of the pids whose exit event came, those that live on: the event is the leader thread's, and
     * a leader that ends alone (pthread_exit) leaves its process running on its other threads
     * ({@link LiveThreads}). A runaway of such processes was otherwise seen only by listings.
     * One stat read per exit event, on the reading threads (a gone pid fails at once, ~5 us).
     */
    private Set<Integer> leaderExitedAlone(Set<Integer> ended) {
        if (ended.isEmpty()) return Set.of();
        StatReads.Answers<ProcStat> read = stats.await(stats.start(reader.root(), notUnderway(new ArrayList<>(ended)),
                (with, pid) -> with.stat(pid).filter(ProcStat::leaderExited)), STALL_MILLIS);
        Set<Integer> alive = new HashSet<>();
        for (Map.Entry<Integer, Optional<ProcStat>> e : read.read().entrySet()) if (e.getValue().isPresent()) alive.add(e.getKey());
        return alive;
    }

    /** The next share of the pids known from the last scan. */
    private void addRoundRobin(List<Integer> into) {
        if (lastPids.length == 0) return;
        int share = Math.max(1, lastPids.length / ROUND_ROBIN_SHARE);
        for (int i = 0; i < share; i++) into.add(lastPids[(roundRobin + i) % lastPids.length]);
        roundRobin = (roundRobin + share) % lastPids.length;
    }

    /**
     * Whether a re-read stat says anything the table does not hold. Runs on the helper thread
     * too, while the scanning thread only reads the table (nothing writes it until both halves
     * are joined).
     */
    private boolean news(int pid, ProcStat stat) {
        ProcessSample known = entries.get(pid);
        return known == null || stat.startTicks() != known.identity().startTicks() || !stat.comm().equals(known.comm())
                || !unchanged(stat, known);
    }

    /**
     * A new pid read whole (but its exe and command line), made a sample at once with shared
     * statics and names (on the reading threads): the first scan of 50,000 processes holds them
     * until it ends, and raw copies held that long were promoted, 20 MB of garbage in the old
     * generation after every start. Empty when the process vanished meanwhile.
     */
    /** A new process's sample; its cgroup from {@code members} when that knows it (null: read it). */
    private Optional<ProcessSample> admit(ProcReader with, int pid, CgroupMembers members) {
        return with.stat(pid).map(stat -> {
            String cgroup = members == null ? with.cgroup(pid) : members.of(pid, stat.startTicks()).orElseGet(() -> with.cgroup(pid));
            return sample(stat, staticsSeen.of(new Statics(with.uid(pid), List.of(), "", cgroup, true)));
        });
    }

    /** Applies a re-read stat; a different start time means the pid was reused: a new process. */
    private void refresh(int pid, ProcessSample before, ProcStat stat, ProcReader with) {
        if (stat == null) {
            entries.remove(pid);
            lostMidScan.add(pid); // its children are re-read next scan, as for any vanished pid
            return;
        }
        // Only stats that say something new get here: readStats drops the rest (see news).
        boolean reused = stat.startTicks() != before.identity().startTicks();
        // An exec that keeps the name (a forked bash running another bash script) still clears the fork flag.
        boolean execed = !stat.comm().equals(before.comm()) || before.forkNoExec() && !stat.isForkNoExec();
        Statics statics = reused || execed ? staticsSeen.of(readStatics(pid, with))
                : new Statics(before.uid(), before.cmdline(), before.exe(), before.cgroup(), before.cmdlineUnread());
        entries.put(pid, sample(stat, statics));
        if (reused || execed) wantCmdline(pid);
    }

    /** The stat says what the sample already holds. */
    private boolean unchanged(ProcStat s, ProcessSample p) {
        return s.ppid() == p.ppid() && s.pgrp() == p.pgrp() && s.session() == p.session() && s.state() == p.state()
                && s.numThreads() == p.numThreads() && s.rssPages() * pageBytes == p.rssBytes() && s.cpuTicks() == p.cpuTicks()
                && s.isForkNoExec() == p.forkNoExec();
    }

    /** All but the exe and command line, which {@link #readCmdlines} reads after (see {@link ExeCmdlineReads}). */
    private static Statics readStatics(int pid, ProcReader with) {
        return new Statics(with.uid(pid), List.of(), "", with.cgroup(pid), true);
    }

    private ProcessSample sample(ProcStat s, Statics statics) {
        return new ProcessSample(new ProcessIdentity(s.pid(), s.startTicks()), s.ppid(), s.pgrp(), s.session(),
                s.state(), commsSeen.of(s.comm()), s.numThreads(), s.rssPages() * pageBytes, s.cpuTicks(), statics.uid(),
                statics.cmdline(), statics.exe(), statics.cgroup(), statics.cmdlineUnread(), s.isForkNoExec());
    }
}
