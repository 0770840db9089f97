// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.model;

import java.time.Instant;
import java.util.List;

/**
 * One full scan of the process table.
 *
 * @param time          wall clock, for people and recordings
 * @param monotonicNanos for rates (never goes backwards)
 * @param processes     every process seen, kernel threads included
 * @param complete      true when every process's stat was read in this scan (not only changes)
 * @param scanNanos     how long the scan took
 * @param cmdlinesUnread processes whose command line is not read yet (see {@link ProcessSample#cmdlineUnread()})
 * @param statsUnread   new processes left out of this scan because their stat did not come in time (it waits on
 *                      a process in the middle of an exec)
 */
public record ScanSample(Instant time, long monotonicNanos, List<ProcessSample> processes, boolean complete,
                         long scanNanos, int cmdlinesUnread, int statsUnread) {

    /** A scan that read every command line. */
    public ScanSample(Instant time, long monotonicNanos, List<ProcessSample> processes, boolean complete, long scanNanos) {
        this(time, monotonicNanos, processes, complete, scanNanos, 0, 0);
    }
}
