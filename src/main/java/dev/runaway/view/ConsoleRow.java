// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.view;

import dev.runaway.analysis.Chain;
import dev.runaway.analysis.Group;
import dev.runaway.analysis.GroupColumn;
import dev.runaway.model.ProcessIdentity;
import dev.runaway.timeline.GroupPoint;

import java.util.ArrayList;
import java.util.List;

/**
 * One row of the chains view: a group, a chain of it, or a process of a chain. The key is the
 * row's identity while rows churn: the command key, the chain's top process (pid and start
 * time), the process's pid within its chain. Cells follow {@link GroupColumn}'s order.
 *
 * @param stopLabel what a stop of this row takes, in words
 * @param tasks     for sorting; growth likewise (tasks per second)
 * @param repeats   how many times a recursive group's key occurs along its deepest line (live rows)
 * @param capText   the limit an at-cap group presses on ("pids.max 600"), or ""
 * @param standing  whether the row is this machine's now, a recording's, or gone
 * @param exhausting the group runs out of a limit at its rate (its RUNS OUT cell shows when)
 */
public record ConsoleRow(Kind kind, String key, String name, List<String> cells, String command, ProcessIdentity top,
                         int pid, double tasks, double growth, boolean recursive, boolean parentedToInit,
                         List<String> cycle, String stopLabel, boolean atCap, String capText, int repeats,
                         Standing standing, boolean exhausting) {

    /** MORE stands for the chains past {@link ChainTree#MAX_CHAIN_ROWS}: it can be read, not stopped. */
    public enum Kind { GROUP, CHAIN, PROCESS, MORE }

    /** LIVE rows can be stopped; a RECORDED row is a replay's, a GONE row is held in place after its processes left. */
    public enum Standing { LIVE, RECORDED, GONE }

    /** The row after the first {@code shown} chains of a group that has {@code total}. */
    public static ConsoleRow more(Group g, int shown, int total) {
        List<String> cells = new ArrayList<>();
        for (GroupColumn c : GroupColumn.values()) cells.add("");
        return new ConsoleRow(Kind.MORE, "m:" + g.command(), String.format(java.util.Locale.ROOT,
                "… and %,d more chains (the first %,d are listed; stop the group to take them all)", total - shown, shown),
                List.copyOf(cells), g.command(), null, -1, 0, 0, false, false, List.of(), "", false, "", 1, Standing.LIVE, false);
    }

    public static ConsoleRow of(Group g) {
        List<String> cells = new ArrayList<>();
        for (GroupColumn c : GroupColumn.values()) cells.add(c.value(g));
        return new ConsoleRow(Kind.GROUP, "g:" + g.command(), g.command(), List.copyOf(cells), g.command(), null, -1,
                g.tasks(), g.tasksGrowth().perSecond(), g.recursive(), g.parentedToInit(), g.cycle(),
                "every process of " + g.command() + " and all below them", g.atCap(),
                g.cap().map(dev.runaway.analysis.GroupCap::text).orElse(""), g.repeats(), Standing.LIVE,
                g.secondsToExhaustion().isPresent());
    }

    /** A group as a recording kept it: no chains, so the chains cell comes from the recorded counts. */
    public static ConsoleRow of(GroupPoint g) {
        List<String> cells = new ArrayList<>();
        for (GroupColumn c : GroupColumn.values()) cells.add(c.value(g));
        return new ConsoleRow(Kind.GROUP, "g:" + g.command(), g.command(), List.copyOf(cells), g.command(), null, -1,
                g.tasks(), g.rate(), g.recursive(), g.parentedToInit(), g.cycle(), "recorded: nothing to stop",
                g.atCap(), g.cap().map(dev.runaway.analysis.GroupCap::text).orElse(""), 1, // a recording keeps the cycle, not the count
                Standing.RECORDED, g.secondsToExhaustion().isPresent());
    }

    public static ConsoleRow of(Group g, Chain c) {
        List<String> cells = new ArrayList<>();
        for (GroupColumn col : GroupColumn.values()) {
            cells.add(switch (col) {
                case TASKS -> Integer.toString(c.tasks());
                case CHAINS -> "depth " + c.depth();
                case COMMAND -> String.join(" > ", c.commands());
                default -> "";
            });
        }
        boolean orphan = g.parentedToInit();
        String name = "chain from pid " + c.rootPid() + (orphan ? "  (parented to init)" : "");
        return new ConsoleRow(Kind.CHAIN, chainKey(c.root()), name, List.copyOf(cells), g.command(), c.root(), c.rootPid(),
                c.tasks(), 0, false, orphan, List.of(), "the chain from pid " + c.rootPid() + " and all below it", false, "", 1,
                Standing.LIVE, false);
    }

    public static ConsoleRow of(Chain c, int pid, String command) {
        List<String> cells = new ArrayList<>();
        for (GroupColumn col : GroupColumn.values()) cells.add(col == GroupColumn.COMMAND ? command : "");
        return new ConsoleRow(Kind.PROCESS, chainKey(c.root()) + "/p:" + pid, "pid " + pid, List.copyOf(cells), command,
                c.root(), pid, 1, 0, false, false, List.of(), "pid " + pid + " and all below it", false, "", 1, Standing.LIVE, false);
    }

    public static String chainKey(ProcessIdentity root) {
        return "c:" + root.pid() + "@" + root.startTicks();
    }

    /** This row once its group (chain, process) is gone, held in place under the pointer: nothing to stop. */
    public ConsoleRow gone() {
        if (standing == Standing.GONE) return this;
        List<String> empty = new ArrayList<>();
        for (int i = 0; i < cells.size(); i++) empty.add(i == GroupColumn.COMMAND.ordinal() ? cells.get(i) : "");
        return new ConsoleRow(kind, key, name + "  (gone)", List.copyOf(empty), command, top, pid, 0, 0, false, false,
                List.of(), "gone", false, "", 1, Standing.GONE, false);
    }

    /** The badge: held by the guard, at a cap (the most severe), the recursion's cycle, orphans, or "". */
    public String badge() {
        if (kind == Kind.GROUP) {
            dev.runaway.guard.HeldGroup h = GuardHolds.of(command);
            if (h != null) return (h.dryRun() ? "WOULD HOLD: " : "HELD: ") + h.rule().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
        }
        if (atCap) return "AT CAP " + capText;
        if (!recursive) return parentedToInit && kind == Kind.GROUP ? "orphans (init)" : "";
        return "⟳ " + String.join(" → ", cycle.stream().map(HeaderFigures::shortCommand).toList())
                + (repeats > 1 ? "  ×" + repeats + " along one line" : "");
    }

    /** The badge's words in full, for its tooltip: a hold's whose, why and what to do; else the badge itself. */
    public String badgeWhy() {
        if (kind == Kind.GROUP) {
            dev.runaway.guard.HeldGroup h = GuardHolds.of(command);
            if (h != null) return (h.dryRun() ? "The guard would hold this group (dry run): " : "Held by the guard: ")
                    + h.rule().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ') + ". STOP takes it from there.";
        }
        return badge();
    }

    /** The badge's style: held by the guard, at a cap, recursive, or orphans (as {@link #badge} chooses its words). */
    public String badgeStyle() {
        if (kind == Kind.GROUP && GuardHolds.of(command) != null) return "badge-held";
        return atCap ? "badge-atcap" : recursive ? "badge-recursive" : "badge-orphans";
    }

    /**
     * A group that must be in sight: held by the guard, at a cap, recursive, or running out of a
     * limit. The window opens on the first such row and never holds one below a calm row.
     */
    public boolean critical() {
        if (kind != Kind.GROUP) return false;
        return atCap || recursive || exhausting || GuardHolds.of(command) != null;
    }

    public boolean matches(String filter) {
        if (filter == null || filter.isBlank()) return true;
        String f = filter.toLowerCase(java.util.Locale.ROOT);
        return name.toLowerCase(java.util.Locale.ROOT).contains(f) || command.toLowerCase(java.util.Locale.ROOT).contains(f);
    }
}
