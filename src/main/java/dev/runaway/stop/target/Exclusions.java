// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop.target;

import dev.runaway.model.ProcessIdentity;
import dev.runaway.procfs.ProcStat;

import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Processes a stop never takes, whatever the selector says, each with why: this process (the
 * console or the stop command), its own children (the helper it started, say), and its
 * ancestors up to init (the shell it was typed in, the terminal, the session leader). The plan
 * lists the ones a selector would have taken.
 */
public final class Exclusions {
    /** Why a process is not a target. */
    public enum Why {
        THIS_PROCESS("this is the stop itself"),
        OWN_CHILD("started by this stop or console"),
        ANCESTOR("an ancestor of this stop (its shell or terminal)"),
        SESSION_LEADER("the session leader of this stop's session");

        private final String words;

        Why(String words) {
            this.words = words;
        }

        public String words() {
            return words;
        }
    }

    /** One excluded process. */
    public record Excluded(ProcessIdentity process, String name, Why why) {
    }

    private final Map<Integer, Excluded> byPid = new LinkedHashMap<>();
    private final int self;
    private final String ownCgroup;
    private final int ownSession;

    private Exclusions(int self, String ownCgroup, int ownSession) {
        this.self = self;
        this.ownCgroup = ownCgroup;
        this.ownSession = ownSession;
    }

    /** This JVM, its ancestors and its session leader, read from {@code proc} now. */
    public static Exclusions ofThisProcess(Path proc) {
        int self = (int) ProcessHandle.current().pid();
        Optional<ProcStat> me = ProcStat.read(proc, self);
        Exclusions e = new Exclusions(self, new dev.runaway.procfs.ProcReader(proc).cgroup(self), me.map(ProcStat::session).orElse(0));
        me.ifPresent(s -> e.add(s, Why.THIS_PROCESS));
        int pid = me.map(ProcStat::ppid).orElse(0);
        java.util.Set<Integer> seen = new java.util.HashSet<>(); // a parent cycle (a pid reused between reads) ends the walk
        while (pid > 1 && seen.add(pid)) {
            Optional<ProcStat> s = ProcStat.read(proc, pid);
            if (s.isEmpty()) break;
            e.add(s.get(), Why.ANCESTOR);
            pid = s.get().ppid();
        }
        int session = me.map(ProcStat::session).orElse(0);
        if (session > 1 && !e.byPid.containsKey(session)) ProcStat.read(proc, session).ifPresent(s -> e.add(s, Why.SESSION_LEADER));
        return e;
    }

    /** No exclusions but this pid (tests with a synthetic table). */
    public static Exclusions none(int self) {
        return new Exclusions(self, "", 0);
    }

    private void add(ProcStat s, Why why) {
        byPid.putIfAbsent(s.pid(), new Excluded(s.identity(), s.comm(), why));
    }

    /**
     * Why this process is excluded, or empty. Children of this process in its own cgroup and
     * session (the helper through pkexec, say) are excluded as they come; a drill it started
     * runs in a sandbox of its own (a cgroup, or without one a new session) and can be stopped
     * like any runaway.
     */
    public Optional<Excluded> of(dev.runaway.model.ProcessSample p) {
        return of(p.identity(), p.ppid(), p.comm(), p.cgroup(), p.session());
    }

    /** As {@link #of(dev.runaway.model.ProcessSample)}; {@code cgroup} "" and {@code session} 0 when unknown. */
    public Optional<Excluded> of(ProcessIdentity p, int ppid, String name, String cgroup, int session) {
        Excluded e = byPid.get(p.pid());
        if (e != null && e.process().startTicks() == p.startTicks()) return Optional.of(e);
        boolean ownCgroupToo = cgroup.isEmpty() || cgroup.equals(ownCgroup);
        // 0 passed in is unknown (kept as own); this stop's own 0 is a leader outside the PID namespace, another session than any that leads here.
        boolean ownSessionToo = session <= 0 || session == ownSession;
        if (ppid == self && ownCgroupToo && ownSessionToo) return Optional.of(new Excluded(p, name, Why.OWN_CHILD));
        return Optional.empty();
    }

    public Collection<Excluded> listed() {
        return List.copyOf(byPid.values());
    }

    public int self() {
        return self;
    }
}
