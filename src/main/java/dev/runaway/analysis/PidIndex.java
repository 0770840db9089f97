package dev.runaway.analysis;

import dev.runaway.model.ProcessSample;

import java.util.Arrays;
import java.util.List;

/** Pid to position in a scan's process list, by binary search over sorted primitive pairs. */
final class PidIndex {
    static final int NONE = -1;

    private final int[] sortedPids;
    private final int[] positions;

    PidIndex(List<ProcessSample> processes) {
        int n = processes.size();
        long[] packed = new long[n];
        for (int i = 0; i < n; i++) packed[i] = (long) processes.get(i).pid() << 32 | i;
        Arrays.sort(packed);
        sortedPids = new int[n];
        positions = new int[n];
        for (int i = 0; i < n; i++) {
            sortedPids[i] = (int) (packed[i] >>> 32);
            positions[i] = (int) packed[i];
        }
    }

    int of(int pid) {
        int at = Arrays.binarySearch(sortedPids, pid);
        return at < 0 ? NONE : positions[at];
    }
}
