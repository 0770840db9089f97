// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop.run;

import dev.runaway.model.ProcessSample;
import dev.runaway.procfs.PulseReader;
import dev.runaway.stop.Selector;
import dev.runaway.stop.StopException;
import dev.runaway.stop.act.Actions;
import dev.runaway.stop.target.Exclusions;
import dev.runaway.stop.target.TargetRescan;
import dev.runaway.stoporder.StopOutcome;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * The JVM's part after {@code runaway-rt} killed the frozen cgroup itself ({@link RtKill}): it
 * waits for the cgroup to empty, puts its pids.max back and thaws it (empty), then confirms zero
 * as every stop does: the selector's definition read again until no member is alive for
 * {@link StopEngine#STABLE_WINDOW}. A member found then (one that ran outside the cgroup) is
 * not this class's to stop: it is a survivor, and the caller's ordinary stop takes it.
 *
 * @param status     zero confirmed, or survivors
 * @param emptyNanos when the cgroup was seen empty (System.nanoTime), -1 when it never was
 * @param zeroNanos  when the definition was first read empty for good (the stable window's start), -1 when not
 * @param survivors  members alive when time ran out
 * @param note       what happened, in words
 */
public record RtKillZero(StopOutcome.Status status, long emptyNanos, long zeroNanos, List<ProcessSample> survivors, String note) {

    /** Between readings: a loop that never yields would take a CPU from the exits it waits for. */
    private static final long POLL_NANOS = 5_000_000;

    public boolean zeroConfirmed() {
        return status == StopOutcome.Status.ZERO_CONFIRMED;
    }

    public static RtKillZero confirm(Path proc, Selector selector, Actions actions, Exclusions exclusions, FirstLever lever) {
        String cgroup = lever.cgroup();
        if (!lever.pidsMax().isEmpty()) actions.adoptPidsCap(cgroup, lever.pidsMax(), lever.pidsOld());
        long deadline = System.nanoTime() + StopEngine.CONFIRM_TIMEOUT.toNanos();
        long empty = -1;
        while (System.nanoTime() - deadline < 0) {
            if (actions.members(cgroup).isEmpty()) {
                empty = System.nanoTime();
                break;
            }
            LockSupport.parkNanos(POLL_NANOS);
        }
        actions.uncapPids(cgroup);
        String thawed;
        try {
            actions.freeze(cgroup, false);
            thawed = "thawed";
        } catch (StopException e) {
            thawed = "could not thaw it (" + e.getMessage() + ")";
        }
        if (empty < 0) {
            return new RtKillZero(StopOutcome.Status.SURVIVORS, -1, -1, List.of(), "runaway-rt killed " + cgroup + " but it did not empty within "
                    + StopEngine.CONFIRM_TIMEOUT.toSeconds() + " s; " + thawed);
        }
        // The definition itself, read again: what ran outside the cgroup shows here.
        try (TargetRescan rescan = new TargetRescan(proc, selector, exclusions, PulseReader.live())) {
            long zero = -1;
            List<ProcessSample> alive = List.of();
            while (System.nanoTime() - deadline < 0) {
                alive = rescan.get().members();
                long now = System.nanoTime();
                if (!alive.isEmpty()) zero = -1;
                else if (zero < 0) zero = now;
                else if (now - zero >= StopEngine.STABLE_WINDOW.toNanos()) {
                    return new RtKillZero(StopOutcome.Status.ZERO_CONFIRMED, empty, zero, List.of(),
                            "runaway-rt killed " + cgroup + "; it emptied, pids.max put back and " + thawed + "; no member for "
                                    + StopEngine.STABLE_WINDOW.toSeconds() + " s");
                }
                LockSupport.parkNanos(POLL_NANOS);
            }
            return new RtKillZero(StopOutcome.Status.SURVIVORS, empty, -1, alive, "runaway-rt killed " + cgroup + " (" + thawed
                    + "), but " + alive.size() + " members outside it are alive");
        }
    }
}
