// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop.target;

import dev.runaway.stop.Selector;
import dev.runaway.model.ProcessIdentity;
import dev.runaway.model.ProcessSample;

import java.util.List;
import java.util.Optional;

/**
 * One reading of a selector's definition: the members alive now (each by pid and start time,
 * so a pid reused later is never hit), the cgroup that holds only them when there is one, the
 * processes excluded and why, and the processes the definition may hold but cannot follow.
 *
 * @param cgroup     the v2 path of a cgroup (with its subtree) holding only members, checked
 *                   against the kernel's own member list
 * @param cgroupNote why there is no such cgroup, or which it is
 * @param unfollowed processes that may be descendants but could not be followed (their lineage
 *                   lost, tied to the root by weak evidence: {@link Placement}), or that may run
 *                   a script key but whose command line is unread
 * @param placements the processes of lost lineage placed by evidence, taken or not
 * @param lineage    where the stop's knowledge of who started whom comes from, and since when
 * @param users      a command key's processes by user, and whether only one user's are taken
 */
public record Targets(Selector selector, List<ProcessSample> members, Optional<String> cgroup, String cgroupNote,
                      List<Exclusions.Excluded> excluded, List<ProcessSample> unfollowed, Following following,
                      List<Placement> placements, Lineage lineage, KeyUsers users) {

    public Targets(Selector selector, List<ProcessSample> members, Optional<String> cgroup, String cgroupNote,
                   List<Exclusions.Excluded> excluded, List<ProcessSample> unfollowed, Following following,
                   List<Placement> placements, Lineage lineage) {
        this(selector, members, cgroup, cgroupNote, excluded, unfollowed, following, placements, lineage, KeyUsers.NONE);
    }

    public Targets(Selector selector, List<ProcessSample> members, Optional<String> cgroup, String cgroupNote,
                   List<Exclusions.Excluded> excluded, List<ProcessSample> unfollowed, Following following) {
        this(selector, members, cgroup, cgroupNote, excluded, unfollowed, following, List.of(), Lineage.NONE);
    }

    /**
     * The stop's source of lineage: a sampler's fork log joined to its own ({@code who} kept it),
     * its own process events alone, or scans alone ({@code sinceTicks} 0: no fork is known);
     * {@code missed}: with its own events alone, why no sampler's log was joined.
     */
    public record Lineage(Source source, String who, int pid, long sinceTicks, String missed) {
        public static final Lineage NONE = new Lineage(Source.NOT_BY_DESCENT, "", 0, 0, "");

        public enum Source {
            /** A command key or a cgroup: membership does not go by descent. */
            NOT_BY_DESCENT,
            /** The fork log of a sampler that watched before the stop, then the stop's own process events. */
            RECORDED,
            /** The stop's own process events, from its start. */
            OWN_EVENTS,
            /** Scans alone: without the process-event connector (root) no fork is known before a scan sees it. */
            SCANS
        }
    }

    /** How members that leave their parent are kept. */
    public enum Following {
        KEY("every process with the key is a member, whoever its parent"),
        CGROUP("the kernel's member list of the cgroup and its subtree"),
        FORK_EVENTS("every fork the kernel's process events told since the lineage began (below), and each scan's tree;"
                + " an adopted process started after the root and before that is placed by evidence"),
        SCANS("each scan's tree, remembered across scans (without the process-event connector, which needs root,"
                + " a process adopted by init before a scan saw its parent cannot be followed)");

        private final String words;

        Following(String words) {
            this.words = words;
        }

        public String words() {
            return words;
        }
    }

    /** The label the plan is titled by. */
    public String command() {
        return selector.label();
    }

    /** The members as the scan saw them. */
    public List<ProcessSample> samples() {
        return members;
    }

    public List<ProcessIdentity> processes() {
        return members.stream().map(ProcessSample::identity).toList();
    }
}
