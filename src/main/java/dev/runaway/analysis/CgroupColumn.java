// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.analysis;

import dev.runaway.model.Units;

import java.util.Locale;
import java.util.function.Function;

/**
 * The columns of the cgroup lens, defined once for {@code scan --by-cgroup}, the terminal view
 * and the window: tasks, growth, the cap and its headroom, per cgroup.
 */
public enum CgroupColumn {
    TASKS("TASKS", "tasks (threads) in the cgroup", 7, c -> Integer.toString(c.tasks())),
    GROWTH("GROWTH", "shape of its task count over the last 10 s", 11, CgroupLoad::growthShape),
    RATE("RATE", "tasks per second", 9, c -> Units.perSecond(c.rate())),
    CAP("CAP", "its pids.max", 8, c -> c.pidsMax() < 0 ? "-" : Long.toString(c.pidsMax())),
    ROOM("ROOM", "tasks its pids.max still allows", 7, c -> c.room() < 0 ? "-" : Long.toString(c.room())),
    STATE("STATE", "AT CAP (forks refused), or time until its cap runs out", 20, CgroupColumn::state),
    GROUPS("GROUPS", "command groups its processes fall in (many: copied or renamed binaries)", 8,
            c -> Integer.toString(c.groups())),
    CGROUP("CGROUP", "the v2 cgroup path", 0, c -> c.self() ? c.path() + "  (this console)" : c.path());

    private final String title;
    private final String description;
    private final int width;
    private final Function<CgroupLoad, String> value;

    CgroupColumn(String title, String description, int width, Function<CgroupLoad, String> value) {
        this.title = title;
        this.description = description;
        this.width = width;
        this.value = value;
    }

    public String title() {
        return title;
    }

    public String description() {
        return description;
    }

    public int width() {
        return width;
    }

    public String value(CgroupLoad c) {
        return value.apply(c);
    }

    private static String state(CgroupLoad c) {
        if (c.atCap()) return c.forksRefused() > 0 ? "AT CAP " + c.forksRefused() + " refused" : "AT CAP";
        if (!Double.isNaN(c.secondsLeft())) return String.format(Locale.ROOT, "%.0fs to cap", c.secondsLeft());
        return "-";
    }

    /** A whole row (or, with null, the header), fitted to {@code totalWidth}. */
    public static String row(CgroupLoad c, int totalWidth) {
        StringBuilder b = new StringBuilder();
        for (CgroupColumn col : values()) {
            String text = c == null ? col.title : dev.runaway.model.SafeText.terminal(col.value(c)); // a delegated cgroup's name is its owner's choice
            if (col.width > 0) {
                b.append(text.length() >= col.width ? text.substring(0, col.width - 1) : text);
                b.append(" ".repeat(Math.max(1, col.width - Math.min(text.length(), col.width - 1))));
            } else {
                int room = Math.max(8, totalWidth - b.length());
                b.append(text.length() > room ? "…" + text.substring(text.length() - room + 1) : text);
            }
        }
        return b.toString();
    }
}
