// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop;

import dev.runaway.model.ProcessSample;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a guided stop will do, before it does it: the targets (pid, start time, executable),
 * each lever with why it applies or why not, and the one chosen to stop growth.
 *
 * @param command   the command key the targets were chosen by (they are re-read by it)
 * @param cgroup    a cgroup holding only the targets, when there is one
 * @param binaries  the disposable binaries REVOKE_EXEC would change
 * @param privilege whether the helper (root, through pkexec) is needed, and why
 */
public record StopPlan(String command, List<ProcessSample> targets, Optional<String> cgroup,
                       Map<Lever, String> applies, Map<Lever, String> refused, Lever chosen, List<String> binaries,
                       String privilege) {

    /** The plan as lines for a terminal or a panel. */
    public List<String> describe() {
        List<String> lines = new java.util.ArrayList<>();
        lines.add("Stop plan for " + command + ": " + targets.size() + " processes");
        int shown = 0;
        for (ProcessSample t : targets) {
            if (shown++ == 10) {
                lines.add("  ... and " + (targets.size() - 10) + " more");
                break;
            }
            lines.add("  pid " + t.pid() + " (started at tick " + t.identity().startTicks() + ") " + (t.exe().isEmpty() ? t.comm() : t.exe()));
        }
        lines.add("Privilege: " + privilege);
        lines.add("1. Stop growth: " + chosen.description() + " (" + applies.get(chosen) + ")");
        for (Lever l : Lever.values()) {
            if (l == chosen) continue;
            lines.add("   " + (applies.containsKey(l) ? "also possible: " : "not: ") + l.description() + ": "
                    + (applies.containsKey(l) ? applies.get(l) : refused.get(l)));
        }
        lines.add("2. Kill the fixed set: " + (cgroupLever() ? "cgroup.kill" : "SIGKILL each target through a pidfd, checking its start time")
                + ", rounds until one finds no new member");
        lines.add("3. Confirm zero: rescan until nothing matches for 2 s");
        lines.add("4. Restore: " + (chosen == Lever.REVOKE_EXEC ? "execute bits back as recorded" : chosen == Lever.FREEZE_CGROUP
                ? "thaw the (empty) cgroup" : chosen == Lever.QUARANTINE ? "remove the quarantine cgroup" : "nothing to restore"));
        return lines;
    }

    boolean cgroupLever() {
        return chosen == Lever.FREEZE_CGROUP || chosen == Lever.QUARANTINE;
    }
}
