// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.tui;

import dev.runaway.analysis.Group;
import dev.runaway.analysis.GroupColumn;
import dev.runaway.analysis.ScanStatus;
import dev.runaway.analysis.Snapshot;
import dev.runaway.model.SafeText;
import dev.runaway.model.ShellWords;
import dev.runaway.model.Units;
import dev.runaway.view.ChainRows;
import dev.runaway.view.ConsoleRow;

import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * What {@code runaway top} shows and how keys change it, with no terminal in it (tests drive it
 * with keys and read frames): the machine lines, a legend, the groups (filtered with /, sorted
 * with F6 or &lt; &gt;, one selected with the arrows or a click, the selection following its group
 * when the order changes), their chains as a tree (F5 or t), the help (F1 or ?), and the guided
 * stop panel that F9 or k opens for the selected group. The keys are htop's where it has one.
 */
final class TopView {
    /** The columns and flags explained, one item each; lines break between items. */
    static final List<String> LEGEND = List.of("TASKS now", "GROWTH over 10 s", "RATE tasks/s", "CPU: share of all cores",
            "RUNS OUT: time to a limit", "CHAINS: n dN = n chains, the deepest N levels",
            "FLAGS: C at a cap, R recursive, I parented to init, S this console",
            "T/Z: stopped, zombies");
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss");
    private static final String BOLD = "\033[1m";
    private static final String RED = "\033[31m";
    private static final String YELLOW = "\033[33m";
    private static final String REVERSE = "\033[7m";
    private static final String RESET = "\033[0m";

    /** What a key asks the screen to do beyond redrawing. */
    enum Outcome { NONE, QUIT }

    /** The help screen (F1 or ?), one key a line. */
    static final List<String> HELP = List.of(
            "RUNAWAY TOP: KEYS (as in htop)",
            "",
            "  Up/Down, PgUp/PgDn, Home/End   select a group (or click its row)",
            "  F9  or k                       stop the selected group: its plan first, Enter runs it, Esc cancels",
            "  F5  or t                       tree: each group's chains (processes that started one another)",
            "  F6  or > / <                   sort by the next / previous column: " + String.join(", ", sortNames()),
            "  /                              filter by command (Enter keeps it, Esc clears it)",
            "  F1  or ?                       this help",
            "  F10 or q                       quit (Ctrl-C too); the terminal is given back as it was",
            "",
            "Severity order: held by the guard, at a cap, recursive, growing to exhaustion, then by tasks.",
            "",
            "Any key closes this help.");

    /** The orders F6 and &lt; &gt; step through; SEVERITY is the analysis's own. */
    enum Sort {
        SEVERITY("severity", null),
        TASKS("tasks", java.util.Comparator.comparingInt(Group::tasks)),
        RATE("rate", java.util.Comparator.comparingDouble(g -> g.tasksGrowth().perSecond())),
        MEMORY("memory", java.util.Comparator.comparingLong(Group::memoryBytes)),
        CPU("cpu", java.util.Comparator.comparingDouble(g -> Double.isNaN(g.cpuShare()) ? -1 : g.cpuShare()));

        final String title;
        /** Ascending; rows are shown largest first. */
        final java.util.Comparator<Group> ascending;

        Sort(String title, java.util.Comparator<Group> ascending) {
            this.title = title;
            this.ascending = ascending;
        }

        Sort step(int by) {
            Sort[] all = values();
            return all[Math.floorMod(ordinal() + by, all.length)];
        }
    }

    private static List<String> sortNames() {
        List<String> out = new ArrayList<>();
        for (Sort o : Sort.values()) out.add(o.title);
        return out;
    }

    /** Chains shown under each group in the tree; the rest are one "and N more" row. */
    static final int TREE_CHAINS = 3;

    private final Function<String, TerminalStop> stopOpener;
    private final ZoneId zone;
    private String filter = "";
    private boolean editingFilter;
    private String selected;       // a group's command key; follows the group when rows re-sort
    private int selectedIndex;     // where the selection was, for when its group goes away
    private TerminalStop stop;
    private boolean help;
    private boolean tree;
    private Sort sort = Sort.SEVERITY;
    /** The group key on each line of the last frame (null where a line is not a group's): clicks select by it. */
    private List<String> groupOnLine = List.of();

    /** @param stopOpener opens the guided stop of a command key (plans it on a worker thread) */
    TopView(Function<String, TerminalStop> stopOpener, ZoneId zone) {
        this.stopOpener = stopOpener;
        this.zone = zone;
    }

    String filter() {
        return filter;
    }

    String selected() {
        return selected;
    }

    TerminalStop stop() {
        return stop;
    }

    boolean help() {
        return help;
    }

    boolean tree() {
        return tree;
    }

    Sort sort() {
        return sort;
    }

    /** The groups shown: the snapshot's, most severe first, those the filter matches. */
    List<Group> rows(Snapshot s) {
        if (s == null) return List.of();
        List<Group> out = new ArrayList<>();
        String f = filter.toLowerCase(Locale.ROOT);
        for (Group g : s.groups()) if (filter.isEmpty() || g.command().toLowerCase(Locale.ROOT).contains(f)) out.add(g);
        if (sort.ascending != null) out.sort(sort.ascending.reversed()); // stable: ties keep the severity order
        if (!held.isEmpty()) {
            // Held groups first: over SSH this is where a person meets what the guard holds for them.
            List<Group> first = new ArrayList<>();
            for (Group g : out) if (held.containsKey(g.command())) first.add(g);
            out.removeAll(first);
            first.addAll(out);
            return first;
        }
        return out;
    }

    private Map<String, dev.runaway.guard.HeldGroup> held = Map.of();

    /** What the running guard holds now, by command key (re-read by the screen every 2 s). */
    void held(Map<String, dev.runaway.guard.HeldGroup> now) {
        held = Map.copyOf(now);
    }

    /** Applies a key against the rows as shown now. */
    Outcome key(Keys.Key k, Snapshot s) {
        if (k.kind() == Keys.Kind.CLOSED) return Outcome.QUIT;
        if (stop != null) return stopKey(k);
        if (help) {
            help = false; // any key closes the help; Ctrl-C still quits
            return k.kind() == Keys.Kind.INTERRUPT ? Outcome.QUIT : Outcome.NONE;
        }
        if (editingFilter) return filterKey(k);
        List<Group> rows = rows(s);
        int at = indexOf(rows);
        switch (k.kind()) {
            case INTERRUPT, F10 -> {
                return Outcome.QUIT;
            }
            case F1 -> help = true;
            case F5 -> tree = !tree;
            case F6 -> sort = sort.step(1);
            case F9 -> openStop(rows, at);
            case CLICK -> click(rows, k.row());
            case UP -> select(rows, at - 1);
            case DOWN -> select(rows, at + 1);
            case PAGE_UP -> select(rows, at - 10);
            case PAGE_DOWN -> select(rows, at + 10);
            case HOME -> select(rows, 0);
            case END -> select(rows, rows.size() - 1);
            case ESCAPE -> filter = "";
            case CHAR -> {
                if (k.is('q') || k.is('Q')) return Outcome.QUIT;
                if (k.is('/')) editingFilter = true;
                if (k.is('k') || k.is('K')) openStop(rows, at);
                if (k.is('?')) help = true;
                if (k.is('t')) tree = !tree;
                if (k.is('>') || k.is('.')) sort = sort.step(1);
                if (k.is('<') || k.is(',')) sort = sort.step(-1);
            }
            default -> {
            }
        }
        return Outcome.NONE;
    }

    private void openStop(List<Group> rows, int at) {
        if (at >= 0) stop = stopOpener.apply(rows.get(at).command());
    }

    /** A click on a group's row selects it; elsewhere it does nothing. */
    private void click(List<Group> rows, int line) {
        if (line < 0 || line >= groupOnLine.size() || groupOnLine.get(line) == null) return;
        String key = groupOnLine.get(line);
        for (int i = 0; i < rows.size(); i++) if (rows.get(i).command().equals(key)) select(rows, i);
    }

    private Outcome filterKey(Keys.Key k) {
        switch (k.kind()) {
            case ENTER -> editingFilter = false;
            case ESCAPE -> {
                editingFilter = false;
                filter = "";
            }
            case BACKSPACE -> filter = filter.isEmpty() ? "" : filter.substring(0, filter.length() - 1);
            case INTERRUPT, F10 -> {
                return Outcome.QUIT;
            }
            case CHAR -> {
                if (k.ch() >= ' ') filter += k.ch();
            }
            default -> {
            }
        }
        return Outcome.NONE;
    }

    private Outcome stopKey(Keys.Key k) {
        switch (k.kind()) {
            case ENTER -> {
                if (stop.phase() == TerminalStop.Phase.READY) stop.confirm();
                else if (stop.phase() == TerminalStop.Phase.DONE || stop.phase() == TerminalStop.Phase.REFUSED) closeStop();
            }
            case ESCAPE -> {
                if (stop.closable()) closeStop();
            }
            case INTERRUPT -> {
                if (stop.closable()) {
                    closeStop();
                    return Outcome.QUIT;
                }
            }
            case F10 -> {
                if (stop.closable()) closeStop();
            }
            case CHAR -> {
                if ((k.is('q') || k.is('Q')) && stop.closable()) closeStop();
            }
            default -> {
            }
        }
        return Outcome.NONE;
    }

    private void closeStop() {
        stop.cancel();
        stop = null;
    }

    private void select(List<Group> rows, int index) {
        if (rows.isEmpty()) return;
        int i = Math.max(0, Math.min(rows.size() - 1, index));
        selected = rows.get(i).command();
        selectedIndex = i;
    }

    /** The selected group's row, choosing one when there is none (the first, or where the lost one was). */
    private int indexOf(List<Group> rows) {
        if (rows.isEmpty()) return -1;
        for (int i = 0; i < rows.size(); i++) if (rows.get(i).command().equals(selected)) return i;
        select(rows, selected == null ? 0 : selectedIndex);
        return selectedIndex;
    }

    /**
     * One screen of {@code width} x {@code height}. {@code drills} maps a sandbox's cgroup name to
     * the id of the drill running in it; {@code status} says whether the scans keep up.
     */
    String frame(Snapshot s, ScanStatus status, Map<String, String> drills, int width, int height, boolean colour) {
        List<String> lines = new ArrayList<>();
        if (s == null) {
            lines.add(bold("RUNAWAY", colour) + "  " + status.describe());
            lines.add("Waiting for the first scan...");
            return finish(lines, height);
        }
        var p = s.pulse();
        String drillNote = drills.isEmpty() ? "" : "   " + paint("DRILL " + String.join(", ", drills.values()), YELLOW + BOLD, colour)
                + " (contained practice)";
        lines.add(bold("RUNAWAY", colour) + String.format(Locale.ROOT, "  %s  tasks %d (%s %s)  forks %.0f/s",
                CLOCK.format(s.time().atZone(zone)), p.tasks(), s.totalGrowth().shape().json(),
                Units.perSecond(s.totalGrowth().perSecond()), s.forksPerSecond()) + drillNote);
        lines.add(String.format(Locale.ROOT, "memory %s / %s   swap %s / %s   pressure %s   scan %d processes in %d ms",
                Units.bytes(p.memoryUsedBytes()), Units.bytes(p.memoryTotalBytes()), Units.bytes(p.swapUsedBytes()),
                Units.bytes(p.swapTotalBytes()), p.pressure().map(x -> String.format(Locale.ROOT, "%.1f%%", x.someAvg10())).orElse("n/a"),
                s.processes(), s.scanNanos() / 1_000_000));
        lines.add(status.late() ? paint("SCAN LATE: " + status.describe(), RED + BOLD, colour)
                : status.worthSaying() ? paint(status.describe(), YELLOW, colour) : "");
        groupOnLine = List.of();
        if (stop != null) {
            for (String l : stop.lines()) lines.addAll(wrap(SafeText.terminal(l), width)); // the plan names users' keys and files
            return finish(lines, height);
        }
        if (help) {
            for (String l : HELP) lines.addAll(wrap(l, width));
            return finish(lines, height);
        }
        for (dev.runaway.guard.HeldGroup h : held.values()) {
            lines.addAll(wrap(paint((h.dryRun() ? "WOULD HOLD " : "HELD ") + SafeText.terminal(h.key()), RED + BOLD, colour) + " by the guard: "
                    + SafeText.terminal(h.why()) + ". Release: runaway guard --release " + ShellWords.quoteOnOneLine(h.key())
                    + "; or select it and press k to stop it", width));
        }
        lines.addAll(legend(width));
        lines.add(colour ? bold(GroupColumn.row(null, width), true) : "  " + GroupColumn.row(null, width - 2));
        List<Group> rows = rows(s);
        int at = indexOf(rows);
        int room = Math.max(1, height - lines.size() - 1);
        List<String> onLine = new ArrayList<>();
        List<String> table = new ArrayList<>();
        int selectedLine = 0;
        for (int i = 0; i < rows.size(); i++) {
            Group g = rows.get(i);
            String drill = drillOf(g, drills);
            String marker = (held.containsKey(g.command()) ? held.get(g.command()).dryRun() ? "WOULD HOLD " : "HELD " : "")
                    + (drill == null ? "" : "DRILL " + drill + " ");
            String text = GroupColumn.row(g, colour ? width : width - 2, marker);
            boolean alarming = g.recursive() || g.secondsToExhaustion().isPresent();
            if (i == at) selectedLine = table.size();
            if (i == at) table.add(colour ? REVERSE + text + RESET : "> " + text);
            else table.add(colour && alarming ? RED + text + RESET : colour ? text : "  " + text);
            onLine.add(g.command());
            if (!tree) continue;
            for (String branch : branches(g, width)) {
                table.add(branch);
                onLine.add(g.command()); // a click on a chain selects its group
            }
        }
        // Keep the selected row on screen, and in the tree its chains below it as far as they fit.
        int tail = tree ? Math.min(TREE_CHAINS + 1, room - 1) : 0;
        int first = Math.max(0, Math.min(selectedLine, selectedLine + tail - room + 1));
        List<String> mapping = new ArrayList<>(java.util.Collections.nCopies(lines.size(), (String) null));
        for (int i = first; i < table.size() && i < first + room; i++) {
            lines.add(table.get(i));
            mapping.add(onLine.get(i));
        }
        groupOnLine = mapping;
        if (rows.isEmpty()) lines.add(filter.isEmpty() ? "No groups." : "No group matches \"" + filter + "\" (Esc clears the filter).");
        String footer = String.format(Locale.ROOT, "%d groups%s, by %s%s.  Up/Down select  / filter  F9/k stop the selected group"
                        + "  F5/t tree  F6/<> sort  F1/? help  F10/q quit", s.groups().size(),
                filter.isEmpty() ? "" : ", " + rows.size() + " match \"" + filter + "\"", sort.title, tree ? ", tree" : "");
        if (footer.length() > width) footer = footer.substring(0, footer.indexOf('.') + 1) + "  F9/k stop the selected group  F1/? help  F10/q quit";
        if (editingFilter) footer = "Filter: " + filter + "_   (Enter keeps it, Esc clears it)";
        lines.add(footer);
        return finish(lines, height);
    }

    /**
     * The group's chains under its row, drawn from the same rows as the window's chains view
     * ({@link ChainRows}): each chain's top pid, depth, tasks and commands from the top.
     */
    static List<String> branches(Group g, int width) {
        List<ConsoleRow> chains = ChainRows.withMore(g, TREE_CHAINS);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < chains.size(); i++) {
            ConsoleRow c = chains.get(i);
            String branch = i == chains.size() - 1 ? "  └─ " : "  ├─ ";
            String text = c.kind() == ConsoleRow.Kind.MORE ? c.name() : String.format(Locale.ROOT, "%s, %s, %s tasks: %s",
                    c.name(), c.cells().get(GroupColumn.CHAINS.ordinal()), c.cells().get(GroupColumn.TASKS.ordinal()),
                    c.cells().get(GroupColumn.COMMAND.ordinal()));
            String line = branch + SafeText.terminal(text);
            out.add(line.length() > width ? line.substring(0, Math.max(0, width - 1)) + "…" : line);
        }
        return out;
    }

    /** The drill whose sandbox (a segment of the group's cgroup path, nested or not) holds the group, or null. */
    static String drillOf(Group g, Map<String, String> drills) {
        if (g.cgroup().isEmpty()) return null;
        String path = g.cgroup() + "/";
        for (Map.Entry<String, String> d : drills.entrySet()) {
            if (path.contains("/" + d.getKey() + "/")) return d.getValue();
        }
        return null;
    }

    private static String finish(List<String> lines, int height) {
        List<String> shown = lines.size() > height ? lines.subList(0, height) : lines;
        return String.join("\r\n", shown) + "\r\n";
    }

    /** The legend in as few lines of {@code width} as its items fit. */
    static List<String> legend(int width) {
        List<String> out = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String item : LEGEND) {
            if (line.length() > 0 && line.length() + 3 + item.length() > width) {
                out.add(line.toString());
                line.setLength(0);
            }
            line.append(line.length() > 0 ? " | " : "").append(item);
        }
        out.add(line.toString());
        return out;
    }

    /** Lines of at most {@code width}, broken at spaces (a word longer than the width is broken where it must). */
    static List<String> wrap(String text, int width) {
        List<String> out = new ArrayList<>();
        String rest = text;
        int w = Math.max(10, width);
        while (rest.length() > w) {
            int cut = rest.lastIndexOf(' ', w);
            if (cut <= 0) cut = w;
            out.add(rest.substring(0, cut));
            rest = rest.substring(cut).stripLeading();
            if (!rest.isEmpty()) rest = "  " + rest; // continued lines are indented
        }
        out.add(rest);
        return out;
    }

    private static String bold(String text, boolean colour) {
        return paint(text, BOLD, colour);
    }

    private static String paint(String text, String style, boolean colour) {
        return colour ? style + text + RESET : text;
    }
}
