// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop.target;

import dev.runaway.analysis.Analyzer;
import dev.runaway.model.ProcessSample;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A process whose lineage is lost (adopted by init or a subreaper after the stop's root began,
 * before any lineage source was watching: {@link Analyzer#lostLineage}), placed openly by what
 * ties it to the root. Strong evidence (the same cgroup, not a slice, and the same command as
 * the root or a member; the same user; started after the root) takes it; weaker evidence lists
 * it as not followed, with the selector that would take it, and zero is then never claimed
 * while it lives. Nothing shared but the user (another program in another cgroup) places
 * nothing: it is not the stop's.
 *
 * @param takeWith the selector that takes it ("--cgroup /a/b", "--command /x/tool"), or empty
 */
public record Placement(ProcessSample process, Set<Evidence> evidence, boolean taken, String cgroup, String key,
                        int rootPid, String takeWith) {

    /** One thing a lost process shares with the stop's root or its members. */
    public enum Evidence {
        SAME_UID, STARTED_AFTER_ROOT, SAME_CGROUP, SAME_COMMAND, SAME_SESSION
    }

    /** "adopted by init, taken because it is in the same cgroup /a/b (not a slice), runs /x/tool as pid 42 does, ...". */
    public String because() {
        List<String> why = new ArrayList<>();
        if (evidence.contains(Evidence.SAME_CGROUP)) why.add("is in the same cgroup " + cgroup + " (not a slice)");
        if (evidence.contains(Evidence.SAME_COMMAND)) why.add("runs " + key + " as the stop's processes do");
        if (evidence.contains(Evidence.SAME_SESSION)) why.add("is in the same session");
        if (evidence.contains(Evidence.SAME_UID)) why.add("has the same user");
        if (evidence.contains(Evidence.STARTED_AFTER_ROOT)) why.add("started after pid " + rootPid);
        return (taken ? "adopted, its parent unknown; taken because it " : "adopted, its parent unknown; not taken: it only ")
                + String.join(", ", why);
    }

    /**
     * Places each lost process against the root (as first read) and the members' cgroups (as the
     * plan found them: a quarantine moves them later) and commands: taken, listed, or left out.
     * The same user and a start after the root are what made it lost at all.
     */
    static List<Placement> of(List<Analyzer.LostLineage> lost, ProcessSample root, Set<String> cgroups, Set<String> keys,
                              Exclusions exclusions) {
        List<Placement> out = new ArrayList<>();
        for (Analyzer.LostLineage l : lost) {
            ProcessSample p = l.process();
            if (p.uid() != root.uid() || p.isZombie() || exclusions.of(p).isPresent()) continue;
            EnumSet<Evidence> e = EnumSet.of(Evidence.SAME_UID, Evidence.STARTED_AFTER_ROOT);
            if (unitOfItsOwn(p.cgroup()) && cgroups.contains(p.cgroup())) e.add(Evidence.SAME_CGROUP);
            if (l.key() != null && keys.contains(l.key())) e.add(Evidence.SAME_COMMAND);
            if (p.session() > 1 && p.session() == root.session()) e.add(Evidence.SAME_SESSION);
            boolean taken = e.contains(Evidence.SAME_CGROUP) && e.contains(Evidence.SAME_COMMAND);
            if (!taken && e.size() == 2) continue; // nothing ties it to the stop
            String with = taken ? "" : e.contains(Evidence.SAME_CGROUP) ? "--cgroup " + dev.runaway.model.ShellWords.quote(p.cgroup())
                    : e.contains(Evidence.SAME_COMMAND) ? "--command " + dev.runaway.model.ShellWords.quote(l.key()) : "";
            out.add(new Placement(p, Set.copyOf(e), taken, p.cgroup(), l.key(), root.pid(), with));
        }
        return out;
    }

    /** What members share that ties a lost process to them: their cgroups of a unit's own, and their commands. */
    static void collect(Collection<ProcessSample> members, java.util.function.Function<ProcessSample, String> keyOf,
                        Set<String> cgroups, Set<String> keys) {
        for (ProcessSample m : members) {
            if (unitOfItsOwn(m.cgroup())) cgroups.add(m.cgroup());
            String k = keyOf.apply(m);
            if (k != null) keys.add(k);
        }
    }

    /** A cgroup a unit has to itself: not the root, not a slice (a slice gathers units). */
    static boolean unitOfItsOwn(String cgroup) {
        return !cgroup.isEmpty() && !cgroup.equals("/") && !cgroup.endsWith(".slice");
    }
}
