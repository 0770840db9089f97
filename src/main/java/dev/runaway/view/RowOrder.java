// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.view;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The order rows are shown in, so that a hand can use the table: the most severe first, but
 * never moving under the pointer. While the pointer is over the table, and for
 * {@link #SETTLE_NANOS} after a click or a key, rows keep their places: a row whose group is
 * gone stays (shown as gone) so nothing below it moves up, new rows are added at the end. When
 * the hold ends, the order catches up in one move, and says so ({@link Shown#moved()}) for the
 * view to cue. One exception: a critical row (at a cap, recursive, running out, held by the
 * guard: {@link ConsoleRow#critical()}) is never held below a calm one: while the order holds,
 * the critical rows come first, so a group that became the runaway under a resting pointer is
 * not left at row 18 (issue 38: the screenshot of the orphans drill). Times are the caller's monotonic nanoseconds, so tests drive it without a clock.
 */
public final class RowOrder {
    public static final long SETTLE_NANOS = 3_000_000_000L;
    private List<String> shown = List.of();
    private boolean pointerInside;
    private long lastTouch = Long.MIN_VALUE / 2;

    /**
     * @param keys     the rows to show, in order
     * @param gone     keys shown though their group is gone (held in place)
     * @param pending  the shown order differs from the severity order: it will move when released
     * @param moved    this call moved rows that were already shown (the view cues it)
     */
    public record Shown(List<String> keys, Set<String> gone, boolean pending, boolean moved) {
    }

    public synchronized void pointer(boolean inside) {
        pointerInside = inside;
    }

    /** Drops the held places: the next order is the severity order (the filter changed, say). */
    public synchronized void forget() {
        shown = List.of();
    }

    /** A click or a key on the table: the order holds for a few seconds after it. */
    public synchronized void touched(long nowNanos) {
        lastTouch = nowNanos;
    }

    public synchronized boolean held(long nowNanos) {
        return pointerInside || nowNanos - lastTouch < SETTLE_NANOS;
    }

    /** The order to show, given the severity order {@code wanted} of the rows that exist now. */
    public synchronized Shown order(List<String> wanted, long nowNanos) {
        return order(wanted, Set.of(), nowNanos);
    }

    /**
     * As {@link #order(List, long)}; the {@code critical} rows go before every other while the
     * order holds (among themselves in the severity order), and move nothing when they are first
     * in that order already.
     */
    public synchronized Shown order(List<String> wanted, Set<String> critical, long nowNanos) {
        if (!held(nowNanos)) {
            boolean moved = movedAny(shown, wanted);
            shown = List.copyOf(wanted);
            return new Shown(shown, Set.of(), false, moved);
        }
        Set<String> now = new HashSet<>(wanted);
        LinkedHashSet<String> keys = new LinkedHashSet<>(shown);
        Set<String> gone = new HashSet<>();
        for (String k : shown) if (!now.contains(k)) gone.add(k);
        keys.addAll(wanted); // new rows at the end
        List<String> first = new ArrayList<>();
        for (String k : wanted) if (critical.contains(k)) first.add(k); // among themselves, most severe first
        if (!first.isEmpty()) {
            LinkedHashSet<String> raised = new LinkedHashSet<>(first);
            raised.addAll(keys);
            boolean moves = !List.copyOf(raised).equals(List.copyOf(keys));
            shown = List.copyOf(raised);
            List<String> present = new ArrayList<>(shown);
            present.removeAll(gone);
            return new Shown(shown, gone, !present.equals(wanted) || !gone.isEmpty(), moves);
        }
        shown = List.copyOf(keys);
        List<String> present = new ArrayList<>(shown);
        present.removeAll(gone);
        return new Shown(shown, gone, !present.equals(wanted) || !gone.isEmpty(), false);
    }

    /** Whether any row in both lists is at a different place relative to the others. */
    private static boolean movedAny(List<String> before, List<String> after) {
        Set<String> common = new HashSet<>(before);
        common.retainAll(new HashSet<>(after));
        List<String> a = new ArrayList<>(before);
        a.retainAll(common);
        List<String> b = new ArrayList<>(after);
        b.retainAll(common);
        return !a.equals(b);
    }
}
