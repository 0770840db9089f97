// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

/** Where a process table takes its forks and exits from: the kernel's ({@link ProcEvents}), or a test's script. */
public interface EventFeed {
    /** Every event queued since the last drain, to {@code sink}, without waiting; false when some were lost. */
    boolean drain(ProcEvents.Sink sink);
}
