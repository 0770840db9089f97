// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stoporder;

import java.time.Instant;

/**
 * One thing a stop did: when, in which phase, by which action, how many processes it saw or
 * reached, and how it went. Rendered to text or JSON at the edge; never read back from its words.
 *
 * @param count  processes seen or reached (for CONFIRM_ZERO: how many members of the definition were alive)
 * @param note   words for a person; nothing decides on them
 * @param millis how long the step took
 */
public record StopStep(Instant at, Phase phase, Action action, int count, Result result, String note, long millis) {

    /** The order's phases, in the order they run. */
    public enum Phase {
        STOP_GROWTH("stop growth"), KILL("kill"), CONFIRM_ZERO("confirm zero"), RESTORE("restore");

        private final String words;

        Phase(String words) {
            this.words = words;
        }

        public String words() {
            return words;
        }
    }

    /** What was done. */
    public enum Action {
        FREEZE("freeze"), PIDS_MAX_ZERO("pids.max 0"), REVOKE_EXEC("revoke exec"), QUARANTINE("quarantine"),
        SIGSTOP("sigstop"), CGROUP_KILL("cgroup.kill"), SIGKILL("sigkill"), RESCAN("rescan"), THAW("thaw"),
        RESTORE_MODES("restore modes"), RELEASE_QUARANTINE("release quarantine"), REMOVE_CGROUPS("remove cgroups"),
        SIGCONT("sigcont");

        private final String words;

        Action(String words) {
            this.words = words;
        }

        public String words() {
            return words;
        }
    }

    /** How a step went. */
    public enum Result {
        /** Done as planned. */
        DONE,
        /** Could not be done (no privilege, no helper, the kernel refused): the next lever is tried. */
        FAILED,
        /** Left as asked (execute bits kept off). */
        KEPT,
        /** Confirm zero: no member of the definition alive over the stable window. */
        ZERO,
        /** Confirm zero: a member was alive again after a zero reading. */
        CAME_BACK,
        /** Confirm zero: members left when time ran out. */
        NOT_REACHED,
        /** Confirm zero: no member seen, but processes the definition may hold could not be followed. */
        UNCONFIRMED
    }

    /** The phase in words ("stop growth"): the title a timeline event gets. */
    public String step() {
        return phase.words();
    }

    /** The action in words ("freeze"). */
    public String lever() {
        return action.words();
    }

    @Override
    public String toString() {
        return String.format("%-13s %-14s %6d  %s%s (%d ms)", phase.words(), action.words(), count,
                result == Result.DONE ? "" : result.name().toLowerCase(java.util.Locale.ROOT) + ": ", note, millis);
    }
}
