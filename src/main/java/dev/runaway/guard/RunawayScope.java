// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.guard;

import dev.runaway.analysis.Group;
import dev.runaway.model.ProcessSample;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntUnaryOperator;

/**
 * Whose runaway a group that crossed the policy's line is. A command key is everyone's (a
 * shared tool, a {@code python3 -m NAME}), so a group may hold several users' processes, and a
 * hold takes one user's only: the uid the kernel gives the processes that crossed the line
 * (real uids, which no unprivileged process can make another user's). For a recursion, the
 * deepest member's: the line that deepens. Otherwise the uid of most of the newest half of the
 * members: what grows is what starts processes (another user's idle copies are old). Ties go
 * to the newest process's uid.
 *
 * @param uid     the runaway's real uid
 * @param cgroup  the cgroup every member of that uid is in, "" when they are spread
 * @param members the group's own processes of that uid; {@code others} those of other users
 */
record RunawayScope(int uid, String cgroup, int members, int others) {

    /** The scope of group G, whose target set (members and all below them) is TARGETS; empty when no member's uid is read. */
    static Optional<RunawayScope> of(Group g, List<ProcessSample> targets, IntUnaryOperator realUid) {
        Set<Integer> keyPids = new HashSet<>(g.pids());
        Map<Integer, ProcessSample> byPid = new HashMap<>();
        for (ProcessSample p : targets) byPid.put(p.pid(), p);
        List<ProcessSample> members = new ArrayList<>();
        Map<Integer, Integer> uidOf = new HashMap<>();
        for (ProcessSample p : targets) {
            if (!keyPids.contains(p.pid()) || p.isZombie()) continue;
            int uid = realUid.applyAsInt(p.pid());
            if (uid < 0) continue; // gone
            members.add(p);
            uidOf.put(p.pid(), uid);
        }
        if (members.isEmpty()) return Optional.empty();
        int uid = new HashSet<>(uidOf.values()).size() == 1 ? uidOf.values().iterator().next()
                : g.recursive() ? uidOf.get(deepest(members, keyPids, byPid).pid())
                : newestMajority(members, uidOf);
        String cgroup = null;
        int mine = 0;
        for (ProcessSample p : members) {
            if (uidOf.get(p.pid()) != uid) continue;
            mine++;
            cgroup = cgroup == null ? p.cgroup() : cgroup.equals(p.cgroup()) ? cgroup : "";
        }
        return Optional.of(new RunawayScope(uid, cgroup == null ? "" : cgroup, mine, members.size() - mine));
    }

    /** The member with the most members above it along its line (the newest on a tie); one walk per line, remembered. */
    private static ProcessSample deepest(List<ProcessSample> members, Set<Integer> keyPids, Map<Integer, ProcessSample> byPid) {
        Map<Integer, Integer> above = new HashMap<>(); // pid -> members among its ancestors in the target set
        ProcessSample best = null;
        int most = -1;
        for (ProcessSample m : members) {
            List<Integer> path = new ArrayList<>();
            int base = 0;
            for (ProcessSample n = m; n != null && path.size() <= byPid.size(); n = byPid.get(n.ppid())) {
                Integer known = above.get(n.pid());
                if (known != null) {
                    base = known;
                    break;
                }
                path.add(n.pid());
            }
            // Unwind from the top of the walk: each node has its parent's count, plus one when that parent is a member.
            for (int k = path.size() - 1; k >= 0; k--) {
                ProcessSample n = byPid.get(path.get(k));
                ProcessSample parent = byPid.get(n.ppid());
                int d = parent == null ? 0 : above.getOrDefault(parent.pid(), base) + (keyPids.contains(parent.pid()) ? 1 : 0);
                above.put(n.pid(), d);
            }
            int depth = above.get(m.pid());
            if (depth > most || (depth == most && m.identity().startTicks() > best.identity().startTicks())) {
                most = depth;
                best = m;
            }
        }
        return best;
    }

    /** The uid of most of the newest half of the members (at least one); on a tie, the newest member's. */
    private static int newestMajority(List<ProcessSample> members, Map<Integer, Integer> uidOf) {
        List<ProcessSample> newest = new ArrayList<>(members);
        newest.sort(Comparator.comparingLong((ProcessSample p) -> p.identity().startTicks()).reversed());
        newest = newest.subList(0, Math.max(1, (newest.size() + 1) / 2));
        Map<Integer, Integer> count = new HashMap<>();
        for (ProcessSample p : newest) count.merge(uidOf.get(p.pid()), 1, Integer::sum);
        int best = uidOf.get(newest.get(0).pid());
        for (Map.Entry<Integer, Integer> e : count.entrySet()) {
            if (e.getValue() > count.get(best)) best = e.getKey();
        }
        return best;
    }
}
