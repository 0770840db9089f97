// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.view;

import dev.runaway.analysis.Group;
import dev.runaway.guard.HeldGroup;
import dev.runaway.timeline.GroupScan;
import dev.runaway.timeline.PulsePoint;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The console window's view model: what is selected and why, what the window opens on, what the
 * header says, when the chains view takes a new scan. No JavaFX: the window ({@code
 * ui.ConsoleWindow}) copies what this decides into its controls, and tests drive it without a
 * display. Used on one thread (the JavaFX thread).
 */
public final class ConsoleState {
    /** The chains view takes a new scan once a second at most: in software rendering a full table costs ~100 ms to paint. */
    public static final long TREE_PERIOD_NANOS = 1_000_000_000L;

    /** A drill the console runs, as the window needs it: its id, and the pids of its sandbox now. */
    public record DrillRun(String id, Set<Integer> members) {
    }

    /**
     * The row to select on opening, the row an earlier opening expanded that now gives way (or
     * null), and whether to open its chains ({@link #OPEN_EXPANDED_CHAINS}).
     */
    public record Open(String key, String collapse, boolean expand) {
    }

    /**
     * A group the window opens on shows its chains when it has at most this many. A fire of
     * thousands of one-process chains (5,000 pressing: "chain from pid N, 1 task" 2,000 times) is
     * a list nobody reads, and the table takes it anew on the JavaFX thread with every scan, while
     * that thread is what the person's STOP and Enter wait for. Expanding it by hand still lists them.
     */
    public static final int OPEN_EXPANDED_CHAINS = 50;

    private final boolean live;
    private HeaderFigures header = HeaderFigures.empty();
    private String selectedKey;
    /** The drill id ("" for none) the window last opened on its runaway for; null before the first. */
    private String openedOn;
    /** The row key selected by {@link #openOn}, while it is the selection. */
    private String openedKey;
    /** True while a scan's rows are placed: selection changes then are JavaFX's, not the person's. */
    private boolean placingRows;
    private String shownDrill = "";
    private Object shownScan;
    private boolean scanShown;
    private long treeShownNanos = Long.MIN_VALUE / 2;
    private boolean preparing;

    public ConsoleState(boolean live) {
        this.live = live;
    }

    public boolean live() {
        return live;
    }

    /** The header from the newest pulse, the worst group of the newest scan and the guard's holds (live only). */
    public HeaderFigures header(PulsePoint pulse, GroupScan scan, Collection<HeldGroup> holds) {
        header = HeaderFigures.of(pulse, scan == null || scan.groups().isEmpty() ? null : scan.groups().get(0), live ? holds : List.of());
        return header;
    }

    public HeaderFigures header() {
        return header;
    }

    /** Whether the drill shown changed since last asked ("" for none): the banner and title then change. */
    public boolean drillChanged(String drillId) {
        if (drillId.equals(shownDrill)) return false;
        shownDrill = drillId;
        return true;
    }

    /**
     * A live scan to show: true when it is new, a second has passed since the last one shown and
     * none is being prepared (then it counts as being prepared until {@link #prepared}).
     */
    public boolean takeLive(Object snapshot, long nowNanos) {
        if (!live || snapshot == null || snapshot == shownScan || preparing || nowNanos - treeShownNanos < TREE_PERIOD_NANOS) return false;
        treeShownNanos = nowNanos;
        shownScan = snapshot;
        scanShown = true;
        preparing = true;
        return true;
    }

    /** The rows of the scan {@link #takeLive} took are placed. */
    public void prepared() {
        preparing = false;
    }

    /** A recorded scan to show: true when it is new. */
    public boolean takeRecorded(GroupScan scan) {
        if (live || scan == null || scan == shownScan) return false;
        shownScan = scan;
        return true;
    }

    /** Rows are being placed (true) or placed (false): selection changes meanwhile are not a person's. */
    public void placing(boolean placing) {
        placingRows = placing;
    }

    /**
     * The selection moved to {@code row} (null: nothing). True when it is a choice the charts and
     * the memory watch must follow; false while rows are placed (JavaFX moved it by index).
     */
    public boolean selected(ConsoleRow row) {
        if (placingRows || row == null) return false;
        selectedKey = row.key();
        return true;
    }

    /** The key of the row chosen, by a person or by the opening; null for none. */
    public String selectedKey() {
        return selectedKey;
    }

    /** A new drill starts: the window opens on its group once it shows. */
    public void forgetSelection() {
        selectedKey = null;
    }

    /** STOP is offered for a selected row of a live machine; a recording cannot be stopped. */
    public boolean stopOffered(ConsoleRow selected) {
        return selected != null && live;
    }

    /**
     * The window opens on the runaway ({@link Opening}): on a drill its group (the one with most of
     * the sandbox's processes), else the first row when it is critical; once per drill. A selection
     * of the person's own is kept; one made here gives way to the drill's group (a drill's sandbox
     * shows a scan or two after the window opened on another critical row).
     *
     * @param shownGroups the group rows in the order shown
     * @param drill       the drill the console runs, if any
     * @param groups      the newest live scan's groups (where the drill's group is found)
     * @return what to select and expand now, or empty
     */
    public Optional<Open> openOn(List<ConsoleRow> shownGroups, Optional<DrillRun> drill, List<Group> groups) {
        if ((selectedKey != null && !selectedKey.equals(openedKey)) || !scanShown) return Optional.empty();
        String drillId = drill.map(DrillRun::id).orElse("");
        if (openedOn != null && openedOn.equals(drillId)) return Optional.empty();
        String drillGroup = drill.map(d -> drillGroupKey(d.members(), groups)).orElse(null);
        if (drill.isPresent() && drillGroup == null) return Optional.empty();
        String key = Opening.rowToOpenOn(shownGroups, drillGroup);
        if (key == null || shownGroups.stream().noneMatch(r -> r.key().equals(key))) return Optional.empty();
        String collapse = openedKey != null && !openedKey.equals(key) ? openedKey : null;
        openedOn = drillId;
        openedKey = key;
        selectedKey = key;
        int chains = groups.stream().filter(g -> key.equals("g:" + g.command())).mapToInt(g -> g.chains().size()).max().orElse(0);
        return Optional.of(new Open(key, collapse, chains <= OPEN_EXPANDED_CHAINS));
    }

    /**
     * The row shown first whatever the severity order: the runaway the window opened on, while it
     * is the selection (on a shared machine a drill's group would come after other groups at their
     * caps, and the person would not see the runaway they are handling first). Null: none.
     */
    public String firstRow() {
        return openedKey != null && openedKey.equals(selectedKey) ? openedKey : null;
    }

    /**
     * The key of the group holding most of the drill's processes, or null when none does yet. Not
     * the console's own group: a drill's first processes are the console's forks until they exec.
     */
    static String drillGroupKey(Set<Integer> members, List<Group> groups) {
        String best = null;
        long bestCount = 0;
        for (Group g : groups) {
            if (g.self()) continue;
            long n = g.pids().stream().filter(members::contains).count();
            if (n > bestCount) {
                bestCount = n;
                best = g.command();
            }
        }
        return best == null ? null : "g:" + best;
    }

    /** The window's title: the drill's id, or the recording's source. */
    public static String title(String drillId, boolean live, String source) {
        if (!drillId.isEmpty()) return "Runaway console: DRILL " + drillId;
        return live ? "Runaway console" : "Runaway replay: " + source;
    }
}
