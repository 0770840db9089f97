// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.analysis;

import dev.runaway.model.Units;

import java.util.Locale;
import java.util.function.Function;

/**
 * The columns of a group row, defined once: the terminal view, the scan table and the window
 * show the same titles, units and formatting.
 */
public enum GroupColumn {
    TASKS("TASKS", "tasks (threads) in the group", 7, g -> Integer.toString(g.tasks())),
    GROWTH("GROWTH", "shape of the task count over the last 10 s", 11, GroupFigures::growthShape),
    RATE("RATE", "tasks per second", 9, g -> Units.perSecond(g.rate())),
    MEMORY("MEMORY", "memory of the group: its cgroup's charge, else PSS, else summed RSS at most the machine's used", 10,
            g -> Units.bytes(g.memoryBytes())),
    CPU("CPU", "share of all cores over the last ~10 s", 6, null,
            g -> Double.isNaN(g.cpuShare()) ? "-" : String.format(Locale.ROOT, "%.0f%%", g.cpuShare() * 100)),
    EXHAUSTS("RUNS OUT", "time until memory, pid_max, threads-max or the cgroup cap runs out; AT CAP when it has", 16,
            g -> g.atCap() ? "AT CAP " + g.cap().map(GroupCap::limit).orElse("")
                    : g.secondsToExhaustion().isPresent()
                    ? String.format(Locale.ROOT, "%.0fs %s", g.secondsToExhaustion().getAsDouble(), g.exhaustedBy())
                    : "-"),
    CHAINS("CHAINS", "chains, and dN: the deepest has N levels", 11, g -> g.chainCount() + " d" + g.deepestChain()),
    FLAGS("FLAGS", "C at a cap (forks refused), R recursive, I all parented to init, S this console", 6,
            g -> (g.atCap() ? "C" : "") + (g.recursive() ? "R" : "") + (g.parentedToInit() ? "I" : "") + (g.self() ? "S" : "")),
    STATES("T/Z", "members stopped (T) and zombies (Z)", 8, null, g -> g.stopped() + g.zombies() == 0 ? "-"
            : (g.stopped() > 0 ? g.stopped() + "T" : "") + (g.stopped() > 0 && g.zombies() > 0 ? " " : "")
            + (g.zombies() > 0 ? g.zombies() + "Z" : "")),
    COMMAND("COMMAND", "command key: executable, or the script or module an interpreter runs", 0, GroupFigures::command);

    private final String title;
    private final String description;
    private final int width;
    private final Function<GroupFigures, String> figures;
    private final Function<Group, String> live;

    /** A column of the figures live and recorded groups share. */
    GroupColumn(String title, String description, int width, Function<GroupFigures, String> figures) {
        this(title, description, width, figures, null);
    }

    /** With {@code live}: a column only the live group has (a recording does not keep it). */
    GroupColumn(String title, String description, int width, Function<GroupFigures, String> figures, Function<Group, String> live) {
        this.title = title;
        this.description = description;
        this.width = width;
        this.figures = figures;
        this.live = live;
    }

    public String title() {
        return title;
    }

    public String description() {
        return description;
    }

    /** Column width in characters; 0 for the last, which takes what is left. */
    public int width() {
        return width;
    }

    public String value(Group g) {
        return live != null ? live.apply(g) : figures.apply(g);
    }

    /** The cell of a live or a recorded group; "-" for a column a recording does not keep. */
    public String value(GroupFigures g) {
        if (g instanceof Group live) return value(live);
        return figures != null ? figures.apply(g) : "-";
    }

    /** A whole row (or, with null, the header), fitted to {@code totalWidth}. */
    public static String row(Group g, int totalWidth) {
        return row(g, totalWidth, "");
    }

    /** A row whose command is preceded by {@code marker} (a drill's id), fitted to {@code totalWidth}. */
    public static String row(Group g, int totalWidth, String marker) {
        StringBuilder b = new StringBuilder();
        for (GroupColumn c : values()) {
            String text = g == null ? c.title : dev.runaway.model.SafeText.terminal(c.value(g)); // names are their owners' choice
            if (c.width > 0) {
                b.append(text.length() >= c.width ? text.substring(0, c.width - 1) : text);
                b.append(" ".repeat(Math.max(1, c.width - Math.min(text.length(), c.width - 1))));
            } else {
                b.append(g == null ? "" : marker);
                int room = Math.max(8, totalWidth - b.length());
                b.append(text.length() > room ? "…" + text.substring(text.length() - room + 1) : text);
            }
        }
        return b.toString();
    }
}
