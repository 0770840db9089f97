// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop.plan;

import dev.runaway.stop.Selector;
import dev.runaway.stop.helper.HelperBinding;
import dev.runaway.stop.target.Exclusions;
import dev.runaway.stop.target.Placement;
import dev.runaway.stop.target.Targets;
import dev.runaway.model.ProcessSample;
import dev.runaway.procfs.StartClock;

import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a guided stop will do, before it does it: the targets (pid, start time, executable) by
 * their definition, what is excluded and why, what cannot be followed, each lever checked for
 * this user with why it can or cannot be pulled, and the order the engine will try them in.
 *
 * @param targets  the definition's first reading (the engine re-reads it between rounds)
 * @param checks   every lever, checked
 * @param order    the levers the engine tries, in order; the first is the one chosen
 * @param binaries the disposable binaries REVOKE_EXEC would change
 * @param others   how many targets belong to other users
 */
public record StopPlan(Targets targets, Map<Lever, LeverCheck> checks, List<Lever> order, List<String> binaries,
                       Privilege privilege, long others) {

    public String command() {
        return targets.command();
    }

    /** What the helper is bound to once this plan is confirmed: its cgroup and its processes. */
    public HelperBinding binding() {
        return new HelperBinding(command(), cgroup(), members().stream().map(ProcessSample::identity).toList());
    }

    public List<ProcessSample> members() {
        return targets.members();
    }

    public Optional<String> cgroup() {
        return targets.cgroup();
    }

    /** The lever tried first. */
    public Lever chosen() {
        return order.get(0);
    }

    /** Levers that can be pulled, with why. */
    public Map<Lever, String> applies() {
        Map<Lever, String> m = new EnumMap<>(Lever.class);
        checks.forEach((l, c) -> {
            if (c.possible()) m.put(l, c.why());
        });
        return m;
    }

    /** Levers that cannot, with why not. */
    public Map<Lever, String> refused() {
        Map<Lever, String> m = new EnumMap<>(Lever.class);
        checks.forEach((l, c) -> {
            if (!c.possible()) m.put(l, c.why());
        });
        return m;
    }

    /** Whether the helper may be needed: for other users' processes, or a lever only it can pull. */
    public boolean needsHelper() {
        if (privilege.root()) return false;
        return others > 0 || checks.get(chosen()).feasible() == LeverCheck.Feasible.VIA_HELPER;
    }

    /** The plan as lines for a terminal or a panel, starts in this machine's local time. */
    public List<String> describe() {
        return describe(StartClock.system(), Instant.now());
    }

    /** The plan as lines, each target's start written by CLOCK (its pid + start ticks stay in the JSON). */
    public List<String> describe(StartClock clock, Instant now) {
        List<String> lines = new ArrayList<>();
        List<ProcessSample> t = targets.members();
        lines.add("Stop plan for " + command() + ": " + t.size() + " processes");
        int shown = 0;
        for (ProcessSample p : t) {
            if (shown++ == 10) {
                lines.add("  ... and " + (t.size() - 10) + " more");
                break;
            }
            lines.add("  pid " + p.pid() + " (" + clock.words(p.identity().startTicks(), now) + ") " + (p.exe().isEmpty() ? p.comm() : p.exe()));
        }
        lines.add("Followed: " + targets.following().words());
        targets.users().words().ifPresent(w -> lines.add("Users: " + w));
        lineageWords(clock, now).ifPresent(w -> lines.add("Lineage: " + w));
        for (Exclusions.Excluded e : targets.excluded()) {
            lines.add("Excluded: pid " + e.process().pid() + " (" + e.name() + "): " + e.why().words());
        }
        if (!targets.unfollowed().isEmpty() && targets.selector() instanceof Selector.Command) {
            lines.add("Cannot tell: " + targets.unfollowed().size() + " processes of an interpreter whose command line could not"
                    + " be read yet (the reads wait on memory maps held while they fork) may run it; they are not targets, and"
                    + " zero will not be claimed while they live");
        } else if (!targets.unfollowed().isEmpty()) {
            lines.add("Cannot follow: " + targets.unfollowed().size() + " processes started after it were adopted before its"
                    + " lineage was known; they are not targets, and zero will not be claimed while they live");
        }
        if (!targets.unfollowed().isEmpty() && targets.placements().stream().noneMatch(pl -> !pl.taken())) {
            targets.unfollowed().stream().limit(5).forEach(p -> lines.add("  pid " + p.pid() + " " + (p.exe().isEmpty() ? p.comm() : p.exe())));
        }
        lines.addAll(placementLines(clock, now));
        lines.add("Privilege: " + privilege.words() + (others > 0 ? "; " + others + " targets belong to other users" : ""));
        lines.add("1. Stop growth: " + chosen().description() + " (" + checks.get(chosen()).why() + ")");
        for (int i = 1; i < order.size(); i++) {
            lines.add("   if that fails: " + order.get(i).description() + " (" + checks.get(order.get(i)).why() + ")");
        }
        for (LeverCheck c : checks.values()) {
            if (!c.possible()) lines.add("   not: " + c.lever().description() + ": " + c.why());
        }
        lines.add("2. Kill the fixed set: " + (cgroupLever() ? "cgroup.kill" : "SIGKILL each target through a pidfd, checking its start time")
                + ", rounds until one finds no new member");
        lines.add("3. Confirm zero: rescan the definition until no member is alive for 2 s");
        lines.add("4. Restore: " + (chosen() == Lever.REVOKE_EXEC ? "execute bits back as recorded" : chosen() == Lever.FREEZE_CGROUP
                ? "thaw the (empty) cgroup" : chosen() == Lever.QUARANTINE ? "remove the quarantine cgroup" : "nothing to restore"));
        return lines;
    }

    /** Where the stop's lineage comes from and since when, for a stop by descent. */
    public java.util.Optional<String> lineageWords(StartClock clock, Instant now) {
        Targets.Lineage l = targets.lineage();
        String since = clock.words(l.sinceTicks(), now).replace("started ", "since ");
        return switch (l.source()) {
            case NOT_BY_DESCENT -> java.util.Optional.empty();
            case RECORDED -> java.util.Optional.of("the kernel's fork events as " + l.who() + " (pid " + l.pid() + ") recorded them, "
                    + since + ", then this stop's own");
            case OWN_EVENTS -> java.util.Optional.of("this stop's own fork events, " + since + " (no sampler's record was joined: "
                    + (l.missed().isEmpty() ? "none" : l.missed()) + "; `runaway metrics` as a service keeps one)");
            case SCANS -> java.util.Optional.of("scans only (fork events need root): an adopted process started after the root is"
                    + " placed by evidence");
        };
    }

    /** The processes of lost lineage, by what placed them: a line for those taken, one for those only listed. */
    private List<String> placementLines(StartClock clock, Instant now) {
        List<String> lines = new ArrayList<>();
        for (boolean taken : new boolean[]{true, false}) {
            List<Placement> these = targets.placements().stream().filter(pl -> pl.taken() == taken).toList();
            if (these.isEmpty()) continue;
            lines.add((taken ? "Taken by evidence: " : "Not followed: ") + these.size() + " processes " + these.get(0).because()
                    + (taken ? "" : these.get(0).takeWith().isEmpty() ? "" : " (" + these.get(0).takeWith() + " would take them)"));
            these.stream().limit(5).forEach(pl -> lines.add("  pid " + pl.process().pid() + " (" + clock.words(pl.process().identity().startTicks(), now)
                    + ") " + (pl.process().exe().isEmpty() ? pl.process().comm() : pl.process().exe())
                    + (pl.evidence().equals(these.get(0).evidence()) ? "" : ": " + pl.because())));
            if (these.size() > 5) lines.add("  ... and " + (these.size() - 5) + " more");
        }
        return lines;
    }

    boolean cgroupLever() {
        return chosen() == Lever.FREEZE_CGROUP || chosen() == Lever.QUARANTINE;
    }
}
