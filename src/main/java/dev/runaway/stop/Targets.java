package dev.runaway.stop;

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
 * @param unfollowed processes that may be descendants but could not be followed (adopted by
 *                   init in the root's session after it started, before a scan saw their parent)
 */
public record Targets(Selector selector, List<ProcessSample> members, Optional<String> cgroup, String cgroupNote,
                      List<Exclusions.Excluded> excluded, List<ProcessSample> unfollowed, Following following) {

    /** How members that leave their parent are kept. */
    public enum Following {
        KEY("every process with the key is a member, whoever its parent"),
        CGROUP("the kernel's member list of the cgroup and its subtree"),
        FORK_EVENTS("every fork since the stop began, through the kernel's process events, and each scan's tree"),
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
