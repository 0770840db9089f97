// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.cli;

import dev.runaway.analysis.LiveAnalysis;

/**
 * For {@code runaway scan}, the live analysis started before the command line is parsed: on two
 * cores the first scan then runs while picocli builds its model of every subcommand (about 100
 * ms of reflection in a cold JVM), instead of after it. Measured at 5,000 pressing tasks, where
 * a one-shot scan was to be as quick as {@code ps} (docs/guided-stop.md). Only the first
 * argument is looked at; when the parsed command turns out not to want it (--help, a usage
 * error) the process exits with the scan thread still running, which leaves nothing behind.
 */
final class EarlyScan {
    /** An analysis and when it was started. */
    record Started(LiveAnalysis live, long atNanos) {
        long millisAgo() {
            return (System.nanoTime() - atNanos) / 1_000_000;
        }
    }

    private static Started started;

    private EarlyScan() {
    }

    /** Starts the analysis when the command is {@code scan}. */
    static synchronized void beginFor(String[] args) {
        if (args.length == 0 || !"scan".equals(args[0]) || started != null) return;
        try {
            long at = System.nanoTime();
            started = new Started(LiveAnalysis.live().start(), at);
        } catch (RuntimeException | LinkageError | OutOfMemoryError notNow) { // OutOfMemoryError: no thread may start (a task cap)
            started = null; // the command starts its own and reports what fails there
        }
    }

    /** The analysis started early (handed over once), else a new one started now. */
    static synchronized Started take() {
        Started early = started;
        started = null;
        if (early != null) return early;
        long at = System.nanoTime();
        return new Started(LiveAnalysis.live().start(), at);
    }
}
