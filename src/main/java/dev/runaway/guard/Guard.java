// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.guard;

import dev.runaway.analysis.Group;
import dev.runaway.analysis.LiveAnalysis;
import dev.runaway.analysis.Snapshot;
import dev.runaway.model.ProcessSample;
import dev.runaway.model.SafeText;
import dev.runaway.model.ShellWords;
import dev.runaway.stop.Selector;
import dev.runaway.stop.StopCore;
import dev.runaway.stop.run.StopEngine;
import dev.runaway.stop.StopException;
import dev.runaway.stop.StopSession;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Acts when nobody is watching: each snapshot of the one live sampler goes through the policy
 * ({@link Watch}); a group that crosses its line is held by the stop core's first step with a
 * reversible lever only ({@link StopSession#hold}: its cgroup's pids.max 0 and freeze when the
 * group is alone there, else SIGSTOP sweeps of exactly its members), never killed, and the
 * person who owns it is told ({@link Notices}). From there a person decides: release (exactly
 * what the hold changed is put back, and the group is not held again while it lives) or stop (a
 * guided stop from the console, {@code top} or {@code runaway stop}, whose first step finds
 * growth held). A hold nobody answers stays, unless the policy's {@code kill-after} says
 * otherwise (off by default). The holds are published for the other faces ({@link GuardState}).
 */
public final class Guard implements AutoCloseable {
    /** Who is told of a hold, and of its end. */
    public interface Notices {
        void held(HeldGroup held, Guard guard);

        void ended(HeldGroup held, String how);

        Notices NONE = new Notices() {
            @Override
            public void held(HeldGroup held, Guard guard) {
            }

            @Override
            public void ended(HeldGroup held, String how) {
            }
        };
    }

    /** A hold in force, of one user's runaway (SCOPE); heldNanos by the monotonic clock, for kill-after (the wall clock may jump). */
    private record Active(HeldGroup shown, StopSession session, StopEngine.Held held, Set<Integer> pids, long heldNanos,
                          RunawayScope scope) {
    }

    /** A hold refused, or a kill-after stop that did not reach zero, is tried again after this. */
    private static final Duration RETRY_AFTER_REFUSAL = Duration.ofSeconds(10);

    private final LiveAnalysis live;
    private final StopCore core;
    private final GuardPolicy policy;
    private final boolean dryRun;
    private final Notices notices;
    private final PrintWriter log;
    private final Watch watch;
    private final Map<String, Active> holds = new LinkedHashMap<>();
    private final Map<String, HeldGroup> wouldHold = new LinkedHashMap<>();
    /** Released groups while they live: key -> the cgroup their hold froze as theirs alone ("" when it swept). */
    private final Map<String, String> released = new HashMap<>();
    private final Map<String, Long> refusedUntil = new HashMap<>();
    private final Map<HoldEnd, Long> ends = new EnumMap<>(HoldEnd.class);
    private final AtomicReference<Snapshot> next = new AtomicReference<>();
    /** Whose runaway each group that crossed the line is, this snapshot (read once per snapshot). */
    private final Map<String, Optional<RunawayScope>> scopes = new HashMap<>();
    private final dev.runaway.procfs.ProcReader status = new dev.runaway.procfs.ProcReader(Path.of("/proc")); // under this
    private final Thread worker;
    private volatile boolean closed;

    public Guard(LiveAnalysis live, StopCore core, GuardPolicy policy, boolean dryRun, Notices notices, PrintWriter log) {
        this.live = live;
        this.core = core;
        this.policy = policy;
        this.dryRun = dryRun;
        this.notices = notices;
        this.log = log;
        // The policy is asked of the runaway's own uid and cgroup, not of every user's processes of its key.
        this.watch = new Watch(policy, g -> scopeOf(g).map(RunawayScope::uid).orElseGet(() -> ownerOf(g)),
                g -> scopeOf(g).map(RunawayScope::cgroup).orElse(g.cgroup()));
        // Holds take sweeps and scans of their own: off the sampler's thread, always on its newest snapshot.
        this.worker = new Thread(this::work, "runaway-guard");
        worker.setDaemon(true);
    }

    /** Starts following the live analysis. */
    public Guard start() {
        publish();
        worker.start();
        live.onSnapshot(s -> {
            next.set(s);
            synchronized (next) {
                next.notifyAll();
            }
        });
        return this;
    }

    private void work() {
        while (!closed) {
            Snapshot s;
            synchronized (next) {
                while ((s = next.getAndSet(null)) == null && !closed) {
                    try {
                        next.wait(1000);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }
            if (s == null) return;
            try (var raised = dev.runaway.sys.Sched.raisedWhile()) {
                observe(s);
            } catch (RuntimeException e) {
                say("could not act on a snapshot: " + e);
            }
        }
    }

    /** One snapshot through the policy: holds end, time out, or begin. */
    synchronized void observe(Snapshot s) {
        scopes.clear();
        Set<String> present = new HashSet<>();
        Map<String, Group> byKey = new HashMap<>();
        for (Group g : s.groups()) {
            if (g.tasks() > 0) present.add(g.command());
            byKey.put(g.command(), g);
        }
        for (String key : new ArrayList<>(holds.keySet())) {
            // Gone when no process of the key is the held user's: another user's copies of a shared tool keep no hold alive.
            if (!present.contains(key) || !runsAs(byKey.get(key), holds.get(key).scope().uid())) {
                end(key, "gone: stopped to zero or exited", HoldEnd.GONE);
            }
        }
        wouldHold.keySet().retainAll(present);
        released.keySet().retainAll(present);
        long now = System.nanoTime();
        refusedUntil.values().removeIf(until -> until < now);
        policy.killAfter().ifPresent(after -> killUnanswered(after, now));
        boolean changed = false;
        // One hold per runaway: the group whose line starts highest first (deploy.sh before the tests
        // it runs); a group whose processes a hold already holds is covered by it.
        List<Watch.Verdict> verdicts = new ArrayList<>(watch.observe(s));
        Map<String, Long> firstStart = new HashMap<>();
        for (Watch.Verdict v : verdicts) {
            long first = Long.MAX_VALUE;
            for (ProcessSample p : live.targets(v.group().command()).samples()) first = Math.min(first, p.identity().startTicks());
            firstStart.put(v.group().command(), first);
        }
        verdicts.sort(java.util.Comparator.comparingLong(v -> firstStart.get(v.group().command())));
        for (Watch.Verdict v : verdicts) {
            String key = v.group().command();
            if (holds.containsKey(key) || wouldHold.containsKey(key) || released.containsKey(key) || refusedUntil.containsKey(key)) continue;
            if (coveredBy(v.group()).isPresent() || releasedWith(v.group())) continue;
            changed |= hold(v);
        }
        if (changed) publish();
    }

    /**
     * Holds nobody answered for AFTER are stopped to zero through the same stop core (the only time
     * the guard kills, and only when the policy says so). A stop that does not confirm zero leaves
     * the hold in force and is tried again after {@link #RETRY_AFTER_REFUSAL}.
     */
    private void killUnanswered(Duration after, long now) {
        for (Active a : new ArrayList<>(holds.values())) {
            String key = a.shown().key();
            if (now - a.heldNanos() < after.toNanos() || refusedUntil.containsKey(key)) continue;
            say("nobody answered the hold of " + key + " in " + GuardPolicy.words(after) + " (policy kill-after): stopping it to zero");
            boolean zero = stop(key, "nobody answered in " + GuardPolicy.words(after) + " (policy kill-after)", HoldEnd.KILL_AFTER)
                    .map(StopEngine.Outcome::zeroConfirmed).orElse(false);
            if (!zero) refusedUntil.put(key, System.nanoTime() + RETRY_AFTER_REFUSAL.toNanos());
        }
    }

    /** The hold (or dry run) that already takes every process of this group, if one does. */
    private Optional<String> coveredBy(Group g) {
        for (Active a : holds.values()) {
            boolean inFrozen = a.held().lever() == dev.runaway.stop.plan.Lever.FREEZE_CGROUP && !g.cgroup().isEmpty()
                    && (g.cgroup().equals(a.shown().cgroup()) || g.cgroup().startsWith(a.shown().cgroup() + "/"));
            if (inFrozen || (!g.pids().isEmpty() && a.pids().containsAll(g.pids()))) return Optional.of(a.shown().key());
        }
        for (HeldGroup h : wouldHold.values()) if (!h.cgroup().isEmpty() && h.cgroup().equals(g.cgroup())) return Optional.of(h.key());
        return Optional.empty();
    }

    /**
     * Whether a person already released this group's runaway: the other half of a released
     * recursion (deploy.sh released, its tests re-entering it: one runaway, one decision), or a
     * group in the cgroup a released hold froze as the runaway's own.
     */
    private boolean releasedWith(Group g) {
        for (Map.Entry<String, String> r : released.entrySet()) {
            if (g.recursive() && g.cycle().contains(r.getKey())) return true;
            String cgroup = r.getValue();
            if (!cgroup.isEmpty() && (g.cgroup().equals(cgroup) || g.cgroup().startsWith(cgroup + "/"))) return true;
        }
        return false;
    }

    private boolean hold(Watch.Verdict v) {
        Group g = v.group();
        String key = g.command();
        Optional<RunawayScope> whose = scopeOf(g);
        if (whose.isEmpty()) {
            refusedUntil.put(key, System.nanoTime() + RETRY_AFTER_REFUSAL.toNanos());
            say("cannot hold " + key + ": whose processes they are could not be read (gone?)");
            return false;
        }
        RunawayScope scope = whose.get();
        int owner = scope.uid();
        if (dryRun) {
            HeldGroup h = new HeldGroup(key, g.cgroup(), v.rule(), v.why(), Instant.now(), "", g.tasks(), owner, true);
            wouldHold.put(key, h);
            say("would hold " + key + " (" + g.tasks() + " processes, dry run): " + v.why());
            return true;
        }
        List<ProcessSample> known = live.targets(key).samples();
        // One user's runaway: the definition takes only its uid's processes (and its cgroup only when they alone are in it).
        StopSession session = core.open(Selector.Command.ofUser(key, owner));
        session = known.isEmpty() ? session.prepare() : session.prepareFromKnown(known);
        if (session.state() != StopSession.State.READY) {
            refusedUntil.put(key, System.nanoTime() + RETRY_AFTER_REFUSAL.toNanos());
            say("cannot hold " + key + ": " + session.refusal().map(StopSession.Refusal::words).orElse(session.state().name()));
            session.close();
            return false;
        }
        try {
            StopEngine.Held held = session.hold();
            HeldGroup h = new HeldGroup(key, session.plan().cgroup().orElse(g.cgroup()), v.rule(), v.why(), Instant.now(),
                    held.lever().name(), held.count(), owner, false);
            Set<Integer> pids = new HashSet<>();
            for (ProcessSample p : session.plan().members()) pids.add(p.pid());
            holds.put(key, new Active(h, session, held, pids, System.nanoTime(), scope));
            String users = session.plan().targets().users().words().map(w -> "; " + w).orElse("");
            say("HELD " + key + " of uid " + owner + " (" + held.count() + " processes; " + held.note() + users + "): " + v.why() + ".",
                    " Release: runaway guard --release " + ShellWords.quoteOnOneLine(key)
                            + "; stop: runaway guard --stop " + ShellWords.quoteOnOneLine(key));
            publish();
            notices.held(h, this);
            return true;
        } catch (StopException e) {
            refusedUntil.put(key, System.nanoTime() + RETRY_AFTER_REFUSAL.toNanos());
            say("cannot hold " + key + ": " + e.getMessage());
            session.close();
            return false;
        }
    }

    /** Puts back exactly what the hold of KEY changed; the group is not held again while it lives. Empty when KEY is not held. */
    public synchronized Optional<List<String>> release(String key, String by) {
        Active a = holds.remove(key);
        if (a == null) {
            HeldGroup dry = wouldHold.remove(key);
            if (dry == null) return Optional.empty();
            released.put(key, "");
            publish();
            return Optional.of(List.of("nothing was held (dry run)"));
        }
        List<String> done = a.held().release();
        a.session().close();
        released.put(key, a.held().lever() == dev.runaway.stop.plan.Lever.FREEZE_CGROUP ? a.shown().cgroup() : "");
        ends.merge(HoldEnd.RELEASED, 1L, Long::sum);
        say("released " + key + " (" + by + "): " + String.join("; ", done));
        publish();
        notices.ended(a.shown(), "released by " + by);
        return Optional.of(done);
    }

    /** Stops a held group to zero as a person asked (the notification's Stop, {@code --stop}). Empty when KEY is not held. */
    public synchronized Optional<StopEngine.Outcome> stopToZero(String key, String why) {
        return stop(key, why, HoldEnd.STOPPED);
    }

    /** The guided stop of a held group, from its held first step; the hold ends HOW once zero is confirmed. */
    private Optional<StopEngine.Outcome> stop(String key, String why, HoldEnd how) {
        Active a = holds.get(key);
        if (a == null) return Optional.empty();
        StopSession stop = core.open(Selector.Command.ofUser(key, a.scope().uid())); // the held user's, as the hold
        List<ProcessSample> known = live.targets(key).samples();
        stop = known.isEmpty() ? stop.prepare() : stop.prepareFromKnown(known);
        if (stop.state() != StopSession.State.READY) {
            say("cannot stop " + key + ": " + stop.refusal().map(StopSession.Refusal::words).orElse(stop.state().name()));
            return Optional.empty();
        }
        StopEngine.Outcome o = core.confirmed(stop).session().run(false, step -> { }); // growth first where it applies, as every face
        say("stopped " + key + " (" + why + "): " + o.status());
        if (o.zeroConfirmed()) end(key, "stopped to zero: " + why, how);
        return Optional.of(o);
    }

    private void end(String key, String how, HoldEnd end) {
        Active a = holds.remove(key);
        if (a == null) return;
        ends.merge(end, 1L, Long::sum);
        a.held().release(); // an empty cgroup thawed, its pids.max back; SIGCONT reaches none of the gone
        a.session().close();
        say("hold of " + key + " ended: " + how);
        publish();
        notices.ended(a.shown(), how);
    }

    /** What is held now (and, dry run, what would be). */
    public synchronized List<HeldGroup> status() {
        List<HeldGroup> out = new ArrayList<>();
        for (Active a : holds.values()) out.add(a.shown());
        out.addAll(wouldHold.values());
        return out;
    }

    /** How many holds ended each way since the guard started (every way present, 0 when none). */
    public synchronized Map<HoldEnd, Long> ends() {
        Map<HoldEnd, Long> out = new EnumMap<>(HoldEnd.class);
        for (HoldEnd e : HoldEnd.values()) out.put(e, ends.getOrDefault(e, 0L));
        return out;
    }

    private void publish() {
        try {
            GuardState.write(status());
        } catch (IOException e) {
            say("the holds could not be published (" + e.getMessage() + "): scan, top and the console will not show them");
        }
    }

    /** One line of the log (the journal under systemd): keys, reasons and errors escaped, so none forges a line or a terminal. */
    private void say(String line) {
        say(line, "");
    }

    /**
     * A log line and the commands it suggests, quoted by {@link ShellWords#quoteOnOneLine} (they
     * hold nothing a terminal acts on), appended as they are: escaped, a quoted key would no
     * longer paste back.
     */
    private void say(String line, String commands) {
        synchronized (log) {
            log.println("runaway guard: " + SafeText.terminal(line) + commands);
            log.flush();
        }
    }

    /**
     * Whose runaway G is, once per snapshot (see {@link RunawayScope}); a held key keeps the scope
     * of its hold. Not read for a key no hold is made of now (released, refused a moment ago, held
     * dry): a growing one would cost a status read per member on every snapshot.
     */
    private Optional<RunawayScope> scopeOf(Group g) {
        Active held = holds.get(g.command());
        if (held != null) return Optional.of(held.scope());
        if (released.containsKey(g.command()) || refusedUntil.containsKey(g.command()) || wouldHold.containsKey(g.command())) {
            return Optional.empty();
        }
        return scopes.computeIfAbsent(g.command(), k -> RunawayScope.of(g, live.targets(k).samples(), this::realUid));
    }

    /** Whether any of G's processes runs as UID (false for no group). */
    private boolean runsAs(Group g, int uid) {
        if (g == null) return false;
        for (int pid : g.pids()) if (realUid(pid) == uid) return true;
        return false;
    }

    private int realUid(int pid) {
        synchronized (status) {
            return status.realUid(pid);
        }
    }

    /** The uid a group's first process runs as: the owner of its /proc entry; -1 when gone or unreadable. */
    static int ownerOf(Group g) {
        if (g.pids().isEmpty()) return -1;
        try {
            return (Integer) Files.getAttribute(Path.of("/proc", Integer.toString(g.pids().get(0))), "unix:uid");
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** Stopping the guard releases every hold it made (nothing stays frozen without an owner), and says so. */
    @Override
    public void close() {
        closed = true;
        synchronized (next) {
            next.notifyAll();
        }
        synchronized (this) {
            for (String key : new ArrayList<>(holds.keySet())) release(key, "the guard stopping");
            wouldHold.clear();
        }
        GuardState.clear();
    }
}
