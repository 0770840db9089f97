// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.analysis;

import dev.runaway.model.ProcessSample;

import java.util.Arrays;
import java.util.List;

/** Pid to position in a list (a scan's processes, a cut's chains), by binary search over sorted primitive pairs. */
final class PidIndex {
    static final int NONE = -1;
    static final PidIndex EMPTY = new PidIndex(new int[0], new int[0]);

    private final int[] sortedPids;
    private final int[] positions; // null: position equals index (the pids came ascending)

    private PidIndex(int[] sortedPids, int[] positions) {
        this.sortedPids = sortedPids;
        this.positions = positions;
    }

    /** An index of a scan's processes: position i is processes.get(i). */
    static PidIndex of(List<ProcessSample> processes) {
        int[] pids = new int[processes.size()];
        for (int i = 0; i < pids.length; i++) pids[i] = processes.get(i).pid();
        return of(pids);
    }

    /** An index of {@code pids} (taken over, not copied): position i holds pids[i]. */
    static PidIndex of(int[] pids) {
        int n = pids.length;
        boolean ascending = true;
        for (int i = 1; i < n && ascending; i++) ascending = pids[i - 1] < pids[i];
        if (ascending) return new PidIndex(pids, null); // a scan lists pids in order: no sort
        long[] packed = new long[n];
        for (int i = 0; i < n; i++) packed[i] = (long) pids[i] << 32 | i;
        Arrays.sort(packed);
        int[] sorted = new int[n];
        int[] positions = new int[n];
        for (int i = 0; i < n; i++) {
            sorted[i] = (int) (packed[i] >>> 32);
            positions[i] = (int) packed[i];
        }
        return new PidIndex(sorted, positions);
    }

    int of(int pid) {
        int at = Arrays.binarySearch(sortedPids, pid);
        return at < 0 ? NONE : positions == null ? at : positions[at];
    }
}
