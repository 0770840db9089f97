// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.timeline.oom;

import java.time.Instant;

/**
 * One out-of-memory kill: the kernel's OOM killer killing one process, or systemd-oomd killing
 * a whole cgroup (a unit: a terminal window's scope, a service) with everything in it. One kill
 * is one event, however many log lines told of it. Numbers not given by the log are
 * {@link #UNKNOWN} (-1), texts not given are empty.
 *
 * @param time            wall clock: the kernel's "Killed process" line, or oomd's "Killed" line
 * @param source          who killed
 * @param pid             the victim's pid (kernel); -1 for oomd, which kills a cgroup
 * @param command         the victim's comm as the kernel printed it (may hold spaces and
 *                        parentheses, at most 15 bytes); for oomd the killed unit (the cgroup's
 *                        last path component, e.g. {@code vte-spawn-f651...scope})
 * @param processesKilled 1 for a kernel kill; for oomd the count from the manager's
 *                        "systemd-oomd killed N process(es) in this unit."; -1 when not logged
 * @param cgroup          the victim's cgroup: the kernel's {@code task_memcg} (a path in the
 *                        memory hierarchy: the v1 memory tree on a hybrid host), or the cgroup
 *                        oomd killed; empty when not logged
 * @param constraint      why: the kernel's {@code CONSTRAINT_MEMCG} (a memory cgroup's limit),
 *                        {@code CONSTRAINT_NONE} (the whole machine), ...; for oomd
 *                        {@code memory pressure} or {@code swap}; empty when not logged
 * @param limitCgroup     the cgroup whose limit was hit (the kernel's {@code oom_memcg}) or whose
 *                        pressure passed oomd's limit; empty for a machine-wide OOM or unknown
 * @param limitBytes      that memory cgroup's limit, from the report's "memory: usage ..., limit ..." line
 * @param totalVmBytes    the victim's total-vm
 * @param anonRssBytes    the victim's anon-rss (what the kill frees, mostly)
 * @param fileRssBytes    the victim's file-rss
 * @param shmemRssBytes   the victim's shmem-rss
 * @param message         the log lines the event was made of, joined by newlines
 */
public record OomEvent(Instant time, Source source, int pid, String command, long processesKilled,
                       String cgroup, String constraint, String limitCgroup, long limitBytes,
                       long totalVmBytes, long anonRssBytes, long fileRssBytes, long shmemRssBytes, String message) {

    public static final long UNKNOWN = -1;

    public enum Source {
        /** the kernel's OOM killer (one process per kill) */
        KERNEL,
        /** systemd-oomd (a whole cgroup per kill) */
        OOMD
    }

    /** anon + file + shmem resident memory, or -1 when the log gave none of them. */
    public long rssBytes() {
        if (anonRssBytes < 0 && fileRssBytes < 0 && shmemRssBytes < 0) return UNKNOWN;
        return Math.max(0, anonRssBytes) + Math.max(0, fileRssBytes) + Math.max(0, shmemRssBytes);
    }

    /** In a few words, for a timeline's label: "KERNEL killed 1234 (tail)", "OOMD killed app.scope (18705 processes)". */
    public String summary() {
        if (source == Source.KERNEL) return "kernel OOM killer killed " + pid + " (" + command + ")";
        return "systemd-oomd killed " + command + (processesKilled >= 0 ? " (" + processesKilled + " processes)" : "");
    }
}
