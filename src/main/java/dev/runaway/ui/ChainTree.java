// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.ui;

import dev.runaway.view.ConsoleRow;
import dev.runaway.analysis.Chain;
import dev.runaway.analysis.Group;
import dev.runaway.timeline.GroupPoint;
import dev.runaway.view.RowOrder;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.scene.control.TreeItem;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The chains view's model: groups, then chains, then processes, as tree items reused by row
 * identity from one scan to the next (expansion survives churn). Children are made only when
 * their parent is expanded, so 50,000 processes cost 50,000 rows only for what is open. Call
 * from the JavaFX thread once the items are in a table; plain JUnit can drive it otherwise.
 */
public final class ChainTree {
    /**
     * Chains listed per group, at most. Past a few thousand rows in one expanded group, JavaFX's
     * TreeTableView spends its time in its focus model (a walk of every row per tree event) and
     * the window stalls; the rest is one "and N more" row, and a stop of the group takes them all.
     */
    public static final int MAX_CHAIN_ROWS = 2_000;
    private final TreeItem<ConsoleRow> root = new TreeItem<>();
    private final Map<String, GroupItem> items = new HashMap<>();
    /** Keys of expanded groups, read by {@link #prepare} on another thread. */
    private final java.util.Set<String> expanded = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private List<Group> lastGroups = List.of();
    private List<GroupPoint> lastPoints = List.of();
    private String filter = "";
    /**
     * The chain rows the last {@link #prepare} made, by chain object. The analysis hands over the
     * same Chain while it is unchanged, so its row is the same too: 2,000 rows made anew every
     * scan were garbage the collector had to copy while the table still held them.
     */
    private volatile Map<Chain, ConsoleRow> chainRowsMade = Map.of();
    /** Where rows may be: they hold still under the pointer (see {@link RowOrder}). */
    final RowOrder order = new RowOrder();
    private RowOrder.Shown lastShown = new RowOrder.Shown(List.of(), java.util.Set.of(), false, false);

    public ChainTree() {
        root.setExpanded(true);
    }

    public TreeItem<ConsoleRow> root() {
        return root;
    }

    /**
     * A scan's rows, made off the JavaFX thread: the groups that pass the filter, and the chain
     * rows of the groups that are expanded (50,000 chain rows take ~300 ms to make: not on the
     * thread that draws). Pure: no tree items in it.
     */
    public record Prepared(List<Group> all, List<Group> groups, List<ConsoleRow> rows, Map<String, List<ConsoleRow>> chainRows,
                           String filter) {
    }

    /** Call from any thread; hand the result to {@link #show(Prepared)} on the JavaFX thread. */
    public Prepared prepare(List<Group> groups, String filterText) {
        Map<Chain, ConsoleRow> before = chainRowsMade;
        Map<Chain, ConsoleRow> rowsOfChains = new IdentityHashMap<>();
        List<Group> kept = new ArrayList<>();
        List<ConsoleRow> rows = new ArrayList<>();
        Map<String, List<ConsoleRow>> chainRows = new HashMap<>();
        for (Group g : groups) {
            ConsoleRow row = ConsoleRow.of(g);
            if (!row.matches(filterText)) continue;
            kept.add(g);
            rows.add(row);
            if (expanded.contains(row.key())) {
                chainRows.put(row.key(), dev.runaway.view.ChainRows.of(g, MAX_CHAIN_ROWS, before, rowsOfChains));
            }
        }
        chainRowsMade = rowsOfChains;
        return new Prepared(groups, kept, rows, chainRows, filterText);
    }

    /** The filter text {@link #prepare} should use (read it on the JavaFX thread). */
    public String filterText() {
        return filter;
    }

    /** A live scan's groups, most severe first (prepared and shown at once: tests, small tables). */
    public void show(List<Group> groups) {
        show(prepare(groups, filter));
    }

    /** Shows prepared rows; on the JavaFX thread once the items are in a table. */
    public void show(Prepared p) {
        lastGroups = p.all();
        lastPoints = List.of();
        if (!p.filter().equals(filter)) {
            show(prepare(p.all(), filter)); // the filter changed meanwhile
            return;
        }
        Map<String, GroupItem> kept = new HashMap<>();
        for (int i = 0; i < p.rows().size(); i++) {
            ConsoleRow row = p.rows().get(i);
            GroupItem item = items.computeIfAbsent(row.key(), k -> new GroupItem());
            item.update(row, p.groups().get(i), p.chainRows().get(row.key()));
            kept.put(row.key(), item);
        }
        replace(ordered(p.rows(), kept), kept);
    }

    /** The row shown first whatever the order (the runaway the window opened on, while selected); null: none. */
    private String first;

    /** Puts this row first from the next scan on (null: the severity order alone); see {@link dev.runaway.view.ConsoleState#firstRow}. */
    public void first(String key) {
        first = key;
    }

    /** The items in the order {@link RowOrder} allows now; gone rows it holds stay, marked gone. */
    private List<TreeItem<ConsoleRow>> ordered(List<ConsoleRow> rows, Map<String, GroupItem> kept) {
        List<String> wanted = new ArrayList<>(rows.size());
        java.util.Set<String> critical = new java.util.HashSet<>();
        for (ConsoleRow r : rows) {
            wanted.add(r.key());
            if (r.critical()) critical.add(r.key());
        }
        if (first != null && wanted.remove(first)) {
            wanted.add(0, first);
            critical.add(first);
        }
        lastShown = order.order(wanted, critical, System.nanoTime()); // a critical row is never held out of sight
        List<TreeItem<ConsoleRow>> shown = new ArrayList<>(lastShown.keys().size());
        for (String key : lastShown.keys()) {
            GroupItem item = kept.get(key);
            if (item == null) {
                item = items.get(key);
                if (item == null) continue;
                ConsoleRow was = current(item);
                if (was != null) item.update(was.gone(), null, null);
                kept.put(key, item);
            }
            shown.add(item);
        }
        return shown;
    }

    /** How the last {@link #show} placed the rows: whether the order is held, or just moved. */
    public RowOrder.Shown lastShown() {
        return lastShown;
    }

    /** A recorded scan's groups: no chains were recorded, so the rows have no children. */
    public void showRecorded(List<GroupPoint> groups) {
        lastPoints = groups;
        lastGroups = List.of();
        List<ConsoleRow> rows = new ArrayList<>();
        Map<String, GroupItem> kept = new HashMap<>();
        for (GroupPoint g : groups) {
            ConsoleRow row = ConsoleRow.of(g);
            if (!row.matches(filter)) continue;
            GroupItem item = items.computeIfAbsent(row.key(), k -> new GroupItem());
            item.update(row, null, null);
            kept.put(row.key(), item);
            rows.add(row);
        }
        replace(ordered(rows, kept), kept);
    }

    private void replace(List<TreeItem<ConsoleRow>> shown, Map<String, GroupItem> kept) {
        items.keySet().retainAll(kept.keySet());
        expanded.retainAll(kept.keySet());
        if (!shown.equals(root.getChildren())) root.getChildren().setAll(shown);
    }

    /** Shows only groups whose command (or whose chains' commands) contain the text. */
    public void filter(String text) {
        filter = text == null ? "" : text;
        order.forget(); // the user asked for other rows: show them at once, in order
        if (!lastPoints.isEmpty()) showRecorded(lastPoints);
        else show(lastGroups);
    }

    /** The item with this row key among what is made (a group, or a child of an expanded row). */
    public TreeItem<ConsoleRow> find(String key) {
        if (key == null) return null;
        for (TreeItem<ConsoleRow> g : root.getChildren()) {
            if (g.getValue().key().equals(key)) return g;
            GroupItem group = (GroupItem) g;
            if (!group.made) continue;
            for (TreeItem<ConsoleRow> c : g.getChildren()) {
                if (c.getValue().key().equals(key)) return c;
                if (!(c instanceof ChainItem chain) || !chain.made) continue;
                for (TreeItem<ConsoleRow> p : c.getChildren()) if (p.getValue().key().equals(key)) return p;
            }
        }
        return null;
    }

    /** Rows made so far (the root's children and what expansion created): what laziness saves. */
    public int madeRows() {
        int n = 0;
        for (TreeItem<ConsoleRow> g : root.getChildren()) {
            n++;
            if (((GroupItem) g).made) {
                for (TreeItem<ConsoleRow> c : g.getChildren()) n += 1 + (c instanceof ChainItem chain && chain.made ? c.getChildren().size() : 0);
            }
        }
        return n;
    }

    /**
     * A row whose figures change in place. The item's value stays the row as first made (its key,
     * kind and command never change); the figures as now are in {@link #rowProperty()}, which the
     * cells show. Setting a TreeItem's value fires a value-changed event, on which TreeTableView
     * throws away and rebuilds every visible cell, each with a CSS pass: at 50,000 processes,
     * four times a second, that held the JavaFX thread for 50-140 ms.
     */
    public static class RowItem extends TreeItem<ConsoleRow> {
        private final ReadOnlyObjectWrapper<ConsoleRow> row = new ReadOnlyObjectWrapper<>();

        RowItem() {
        }

        RowItem(ConsoleRow first) {
            super(first);
            row.set(first);
        }

        /** The row as now. */
        public ReadOnlyObjectProperty<ConsoleRow> rowProperty() {
            return row.getReadOnlyProperty();
        }

        void show(ConsoleRow now) {
            if (getValue() == null) setValue(now);
            if (!now.equals(row.get())) row.set(now); // an unchanged row repaints nothing
        }
    }

    /** The row an item shows now (its value is the row as first made; see {@link RowItem}). */
    public static ConsoleRow current(TreeItem<ConsoleRow> item) {
        if (item == null) return null;
        return item instanceof RowItem r ? r.row.get() : item.getValue();
    }

    /** A group row; its chains are made on first expansion and refreshed while expanded. */
    final class GroupItem extends RowItem {
        private Group group;
        boolean made;
        private final Map<String, ChainItem> chains = new HashMap<>();
        private RowItem moreItem;

        GroupItem() {
            expandedProperty().addListener((o, was, is) -> {
                if (getValue() != null) {
                    if (is) expanded.add(getValue().key());
                    else expanded.remove(getValue().key());
                }
                if (is) makeChildren(null);
            });
        }

        void update(ConsoleRow row, Group g, List<ConsoleRow> chainRows) {
            show(row);
            group = g;
            if (made && isExpanded()) makeChildren(chainRows);
            else if (made) {
                made = false; // stale: made again when next expanded
                chains.clear();
                getChildren().clear();
            }
        }

        @Override
        public boolean isLeaf() {
            return group == null || group.chains().isEmpty();
        }

        /** @param prepared the chain rows made off the JavaFX thread, in the group's chain order, or null */
        private void makeChildren(List<ConsoleRow> prepared) {
            if (group == null) return;
            List<TreeItem<ConsoleRow>> shown = new ArrayList<>();
            Map<String, ChainItem> kept = new HashMap<>();
            List<Chain> all = group.chains();
            int listed = Math.min(MAX_CHAIN_ROWS, all.size());
            boolean usable = prepared != null && prepared.size() == listed;
            for (int i = 0; i < listed; i++) {
                Chain c = all.get(i);
                ConsoleRow row = usable ? prepared.get(i) : ConsoleRow.of(group, c);
                ChainItem item = chains.computeIfAbsent(row.key(), k -> new ChainItem());
                item.update(row, c, group.command());
                kept.put(row.key(), item);
                shown.add(item);
            }
            if (all.size() > listed) {
                ConsoleRow more = ConsoleRow.more(group, listed, all.size());
                if (moreItem == null) moreItem = new RowItem(more);
                else moreItem.show(more);
                shown.add(moreItem);
            }
            chains.keySet().retainAll(kept.keySet());
            made = true;
            sync(getChildren(), shown);
        }
    }

    /** A chain row; its processes are made on expansion. */
    static final class ChainItem extends RowItem {
        private Chain chain;
        private String command;
        boolean made;

        ChainItem() {
            expandedProperty().addListener((o, was, is) -> {
                if (is) makeChildren();
            });
        }

        void update(ConsoleRow row, Chain c, String groupCommand) {
            show(row);
            chain = c;
            command = groupCommand;
            if (made && isExpanded()) makeChildren();
            else if (made) {
                made = false;
                getChildren().clear();
            }
        }

        @Override
        public boolean isLeaf() {
            return chain == null || chain.pids().isEmpty();
        }

        private void makeChildren() {
            List<TreeItem<ConsoleRow>> shown = new ArrayList<>(chain.pids().size());
            Map<String, TreeItem<ConsoleRow>> old = new HashMap<>();
            for (TreeItem<ConsoleRow> p : getChildren()) old.put(p.getValue().key(), p);
            for (int pid : chain.pids()) {
                ConsoleRow row = ConsoleRow.of(chain, pid, command);
                TreeItem<ConsoleRow> item = old.get(row.key());
                if (item == null) item = new RowItem(row);
                else ((RowItem) item).show(row);
                shown.add(item);
            }
            made = true;
            sync(getChildren(), shown);
        }
    }

    /**
     * Makes {@code list} hold {@code wanted} with as small a change as it can: rows that stay keep
     * their place, gone rows leave in one removal, new ones are appended. Replacing a list of
     * thousands of chains every second stalled the JavaFX thread; the table sorts if asked.
     */
    static void sync(javafx.collections.ObservableList<TreeItem<ConsoleRow>> list, List<TreeItem<ConsoleRow>> wanted) {
        if (list.equals(wanted)) return;
        java.util.Set<TreeItem<ConsoleRow>> keep = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        keep.addAll(wanted);
        java.util.Set<TreeItem<ConsoleRow>> have = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        have.addAll(list);
        if (!keep.containsAll(list)) list.removeIf(i -> !keep.contains(i));
        List<TreeItem<ConsoleRow>> fresh = new ArrayList<>();
        for (TreeItem<ConsoleRow> i : wanted) if (!have.contains(i)) fresh.add(i);
        if (!fresh.isEmpty()) list.addAll(fresh);
    }
}
