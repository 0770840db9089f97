// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import dev.runaway.model.Argv;
import dev.runaway.model.ProcessSample;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The process table's budget for long command lines, across all its processes: each line is
 * bounded already ({@link Argv#KEPT_CHARS}), but 50,000 processes of distinct 8 KiB lines would
 * still hold 400 million characters. Lines longer than {@link Argv#FLOOR_CHARS} are counted,
 * each distinct one once (50,000 processes of one command share one line: the table hands out
 * equal statics as one object), and once {@link #TABLE_CHARS} is spent a new long line is kept
 * only to the floor. The count is taken again from the table itself at the first long line of
 * a scan, so a process that is gone frees its share without any bookkeeping on the way out.
 */
final class CmdlineBudget {
    /** Long command lines the table keeps, in characters: 16 Mi (32 MiB of heap at most). */
    static final long TABLE_CHARS = 16L << 20;

    private final long tableChars;
    private final Map<List<String>, Boolean> counted = new IdentityHashMap<>();
    private long used;
    private boolean fresh;

    CmdlineBudget() {
        this(TABLE_CHARS);
    }

    /** With another budget (tests). */
    CmdlineBudget(long tableChars) {
        this.tableChars = tableChars;
    }

    /** A new scan: the table has changed since the count. */
    void stale() {
        fresh = false;
    }

    /** The line as the table may keep it: itself when short, already kept, or within what is left; else cut to the floor. */
    List<String> keep(List<String> args, Iterable<ProcessSample> table) {
        long chars = Argv.chars(args);
        if (chars <= Argv.FLOOR_CHARS) return args;
        if (!fresh) recount(table);
        if (counted.containsKey(args)) return args;
        if (used + chars > tableChars) return Argv.bounded(args, Argv.FLOOR_CHARS);
        counted.put(args, Boolean.TRUE);
        used += chars;
        return args;
    }

    /** Characters of long lines counted now. */
    long used() {
        return used;
    }

    private void recount(Iterable<ProcessSample> table) {
        counted.clear();
        used = 0;
        for (ProcessSample p : table) {
            long chars = Argv.chars(p.cmdline());
            if (chars > Argv.FLOOR_CHARS && counted.put(p.cmdline(), Boolean.TRUE) == null) used += chars;
        }
        fresh = true;
    }
}
