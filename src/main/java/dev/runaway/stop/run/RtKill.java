// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop.run;

import java.util.Map;
import java.util.Optional;

/**
 * Whether the static launcher step {@code runaway-rt} killed the cgroup it froze for a confirmed
 * stop before this JVM started (src/main/c/runaway-rt.c, "The kill from the first lever"): only
 * when every process of the frozen cgroup was a member by the selector's own rule, with no
 * stranger allowance. Read from RUNAWAY_FIRST_LEVER_KILLED_AT or _KILL_REFUSED ({@code REASON
 * words}), for this very process only (as {@link FirstLever}).
 *
 * @param atMicros when {@code cgroup.kill} was written (CLOCK_REALTIME, microseconds); -1 when not
 * @param reason   why the kill was left to this JVM; {@link Reason#KILLED} when it was not
 * @param words    the reason in words, as runaway-rt said it
 * @param emptiedMicros when runaway-rt saw the killed cgroup empty (it starts the JVM only then,
 *                 or after its wait ran out); -1 when it did not kill
 */
public record RtKill(long atMicros, Reason reason, String words, long emptiedMicros) {
    /** Why runaway-rt did not kill (and the JVM's stop killed instead, or refused). */
    public enum Reason {
        /** It killed: no reason. */
        KILLED,
        /** No record from runaway-rt for this process: not launched through it, not root, or not confirmed with --yes. */
        NOT_RUN,
        /** runaway-rt froze nothing (its first lever refused, said there). */
        NOT_FROZEN_BY_RT,
        /** RUNAWAY_RT_KILL=0: the kill left to the JVM on purpose (a bench's path). */
        DISABLED,
        /** No writable cgroup.kill (a kernel before 5.14). */
        NO_KILL_FILE,
        /** The cgroup did not report "frozen 1" in time: its set was not fixed. */
        NOT_FROZEN,
        /** A member's executable, parent or the member list could not be read: a doubt. */
        MEMBER_UNREAD,
        /** A member that the selector's own rule does not name. */
        STRANGER,
        /** An ancestor of the stop, or its session's leader, is in the cgroup (never stopped). */
        EXCLUDED,
        /** The root of --pid or --chain exited: its descendants are adopted, the JVM places them. */
        ROOT_GONE,
        /** The program after runaway-rt (the JVM) could not run: nobody would confirm zero (never seen by a JVM). */
        NO_PROGRAM,
        /** Writing cgroup.kill failed. */
        KILL_FAILED,
        /** runaway-rt said something this JVM does not know: taken as not killed. */
        UNKNOWN
    }

    public static final RtKill NOT_RUN = new RtKill(-1, Reason.NOT_RUN, "no runaway-rt record for this process", -1);

    public boolean killed() {
        return reason == Reason.KILLED;
    }

    /** What runaway-rt did about the kill for this process, given its first lever as read. */
    public static RtKill of(Map<String, String> env, Optional<FirstLever> lever) {
        if (lever.isEmpty()) return NOT_RUN;
        if (!lever.get().frozen()) return new RtKill(-1, Reason.NOT_FROZEN_BY_RT, lever.get().refused(), -1);
        long at = FirstLever.micros(env.get(FirstLever.PREFIX + "KILLED_AT"));
        if (at > 0) return new RtKill(at, Reason.KILLED, "", FirstLever.micros(env.get(FirstLever.PREFIX + "EMPTY_AT")));
        String refused = env.getOrDefault(FirstLever.PREFIX + "KILL_REFUSED", "");
        int space = refused.indexOf(' ');
        String name = space < 0 ? refused : refused.substring(0, space);
        Reason reason = Reason.UNKNOWN;
        for (Reason r : Reason.values()) if (r != Reason.KILLED && r.name().equals(name)) reason = r;
        return new RtKill(-1, reason, space < 0 ? refused : refused.substring(space + 1), -1);
    }
}
