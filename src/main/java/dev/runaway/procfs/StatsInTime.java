// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Stats of many processes read as a scan reads them ({@link StatReads}): no one process mid-exec
 * holds the caller up. For the stop's checks of the other processes of a cgroup, most of them
 * children forked a moment ago, which is when they exec.
 */
public final class StatsInTime {
    /**
     * @param stats   stats read, by pid
     * @param gone    pids whose process is gone
     * @param unread  pids whose stat was not read in time (a read still under way, or never started)
     */
    public record Result(Map<Integer, ProcStat> stats, Set<Integer> gone, Set<Integer> unread) {
    }

    private StatsInTime() {
    }

    /**
     * Reads them; what is not read once none has returned for {@code stallMillis} is asked once
     * more with {@code retryMillis} (an exec ends in a moment once its process gets a CPU).
     */
    public static Result read(Path proc, Collection<Integer> pids, long stallMillis, long retryMillis) {
        Map<Integer, ProcStat> stats = new HashMap<>();
        Set<Integer> gone = new HashSet<>();
        List<Integer> asked = new ArrayList<>(pids);
        Set<Integer> unread = new HashSet<>();
        long[] stalls = {stallMillis, retryMillis};
        for (long stall : stalls) {
            StatReads reads = StatReads.shared();
            List<Integer> now = new ArrayList<>();
            Set<Integer> underway = reads.underway(proc);
            for (Integer pid : asked) if (!underway.contains(pid)) now.add(pid);
            StatReads.Answers<ProcStat> answers = reads.await(reads.start(proc, now, ProcReader::stat), stall);
            for (Map.Entry<Integer, Optional<ProcStat>> e : answers.read().entrySet()) {
                if (e.getValue().isPresent()) stats.put(e.getKey(), e.getValue().get());
                else gone.add(e.getKey());
            }
            unread = new HashSet<>(asked);
            unread.removeAll(stats.keySet());
            unread.removeAll(gone);
            if (unread.isEmpty()) break;
            asked = new ArrayList<>(unread);
        }
        return new Result(stats, gone, unread);
    }
}
