// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.analysis;

import java.util.Locale;

/**
 * Whether the scans keep up, and when they do not, why: for a status line that says a table is
 * late instead of showing an old one as if it were now. Plain figures, rendered here once for
 * the terminal and the window.
 *
 * @param secondsSinceSnapshot since the newest snapshot was published; NaN before the first
 * @param scanRunningSeconds   how long the scan in progress has run; 0 between scans
 * @param lastScanSeconds      how long the last finished scan took; NaN before the first
 * @param processes            processes in the last snapshot (0 before the first)
 * @param load1                the one-minute load average
 * @param runnable             tasks runnable now (from /proc/loadavg)
 * @param cores                CPUs this process may use
 * @param cmdlinesUnread       processes of the last snapshot whose command line is not read yet
 * @param statsUnread          new processes the last snapshot leaves out: their stat was not read in time
 */
public record ScanStatus(double secondsSinceSnapshot, double scanRunningSeconds, double lastScanSeconds, int processes,
                         double load1, int runnable, int cores, int cmdlinesUnread, int statsUnread) {

    /** With every stat and command line read. */
    public ScanStatus(double secondsSinceSnapshot, double scanRunningSeconds, double lastScanSeconds, int processes,
                      double load1, int runnable, int cores) {
        this(secondsSinceSnapshot, scanRunningSeconds, lastScanSeconds, processes, load1, runnable, cores, 0, 0);
    }

    /** With every stat read. */
    public ScanStatus(double secondsSinceSnapshot, double scanRunningSeconds, double lastScanSeconds, int processes,
                      double load1, int runnable, int cores, int cmdlinesUnread) {
        this(secondsSinceSnapshot, scanRunningSeconds, lastScanSeconds, processes, load1, runnable, cores, cmdlinesUnread, 0);
    }

    /** A table older than this is late: scans normally come every 0.1-1 s. */
    public static final double LATE_SECONDS = 2.5;

    public boolean late() {
        if (Double.isNaN(secondsSinceSnapshot)) return scanRunningSeconds > LATE_SECONDS;
        return secondsSinceSnapshot > LATE_SECONDS;
    }

    /** More tasks runnable, now or over the last minute, than four per core: a console's own threads wait for a CPU. */
    public boolean overloaded() {
        return runnable > 4 * cores || load1 > 4 * cores;
    }

    /**
     * For a console that {@code was} overloaded: it stays so until both the tasks runnable now and
     * the minute's load are under two per core (the runnable count swings by thousands between
     * two reads during a fire; a console must not drop back mid-fire on one low reading).
     */
    public boolean overloaded(boolean was) {
        return overloaded() || was && (runnable > 2 * cores || load1 > 2 * cores);
    }

    /** Whether a status line should say it: the table is late, or holds processes whose command line is unread. */
    public boolean worthSaying() {
        return late() || cmdlinesUnread > 0 || statsUnread > 0;
    }

    /** One line: how fresh the table is, and when late, what holds the scan up; and command lines left unread. */
    public String describe() {
        return freshness() + unread();
    }

    private String unread() {
        String out = "";
        if (statsUnread > 0) {
            out += String.format(Locale.ROOT, "; %,d new processes not in the table yet (their stat waits on a process in the"
                    + " middle of an exec)", statsUnread);
        }
        if (cmdlinesUnread > 0) {
            out += String.format(Locale.ROOT, "; command lines of %,d processes not read yet (their reads wait on memory maps"
                    + " held while they fork); grouped by executable until read", cmdlinesUnread);
        }
        return out;
    }

    private String freshness() {
        if (!late()) {
            return Double.isNaN(secondsSinceSnapshot)
                    ? String.format(Locale.ROOT, "first scan running for %.1f s", scanRunningSeconds)
                    : String.format(Locale.ROOT, "table %.1f s old", secondsSinceSnapshot);
        }
        StringBuilder b = new StringBuilder();
        if (Double.isNaN(secondsSinceSnapshot)) {
            b.append(String.format(Locale.ROOT, "the first scan has run for %.1f s", scanRunningSeconds));
        } else {
            b.append(String.format(Locale.ROOT, "the table is %.1f s old", secondsSinceSnapshot));
            if (scanRunningSeconds > 0) b.append(String.format(Locale.ROOT, ", a scan has run for %.1f s", scanRunningSeconds));
            if (!Double.isNaN(lastScanSeconds)) {
                b.append(String.format(Locale.ROOT, "; the last took %.1f s for %,d processes", lastScanSeconds, processes));
            }
        }
        b.append(": ").append(why());
        return b.toString();
    }

    private String why() {
        if (runnable > 4 * cores) {
            return String.format(Locale.ROOT, "the machine is overloaded (%,d tasks runnable on %d cores, load %,.0f);"
                    + " the scan waits its turn for a CPU", runnable, cores, load1);
        }
        return String.format(Locale.ROOT, "reading /proc is slow now (load %,.1f on %d cores)", load1, cores);
    }
}
