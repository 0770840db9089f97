// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.timeline;

import java.util.Locale;

/** What happened at a marked moment of the timeline; the name is the one written to files. */
public enum EventKind {
    /** Processes found adopted by init or a subreaper: what started them has exited. */
    REPARENTING,
    /** A command group found repeating itself along one ancestry line. */
    RECURSION,
    /** A limit reached: a group's cgroup pids.max, or the machine's pid_max. */
    CAP_REACHED,
    /** A step of the guided stop. */
    STOP_STEP,
    /** The kernel's out-of-memory killer killed a process. */
    OOM_KILL,
    /** systemd-oomd killed a whole cgroup. */
    OOMD_KILL,
    /** Anything else worth a mark: started, stopped, a drill began. */
    NOTE;

    public String json() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public static EventKind ofJson(String text) {
        for (EventKind k : values()) if (k.json().equals(text)) return k;
        return NOTE;
    }
}
