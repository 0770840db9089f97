// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.model;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * An unmodifiable list of pids held as one int array. A group of 50,000 processes as a list of
 * Integers is 50,000 objects made again every scan, which the collector then has to copy and
 * promote; this is one array. Elements are boxed only when read as Integers. Most chains are
 * one process long: their list holds the pid itself, with no array.
 */
public final class PidList extends AbstractList<Integer> implements RandomAccess {
    private static final PidList EMPTY = new PidList(new int[0]);

    private final int[] pids; // null: the list is {only}
    private final int only;

    private PidList(int[] pids) {
        this.pids = pids;
        this.only = 0;
    }

    private PidList(int only) {
        this.pids = null;
        this.only = only;
    }

    /** The first {@code count} pids of {@code from}, copied. */
    public static PidList copyOf(int[] from, int count) {
        if (count == 1) return new PidList(from[0]);
        return count == 0 ? EMPTY : new PidList(Arrays.copyOf(from, count));
    }

    public static PidList of(int... pids) {
        return copyOf(pids, pids.length);
    }

    @Override
    public Integer get(int index) {
        return getInt(index);
    }

    /** The pid at {@code index}, unboxed. */
    public int getInt(int index) {
        if (pids != null) return pids[index];
        Objects.checkIndex(index, 1);
        return only;
    }

    @Override
    public int size() {
        return pids == null ? 1 : pids.length;
    }

    /** True when this holds exactly the first {@code count} pids of {@code other}, in order. */
    public boolean sameAs(int[] other, int count) {
        if (pids == null) return count == 1 && other[0] == only;
        return count == pids.length && Arrays.equals(pids, 0, count, other, 0, count);
    }

    @Override
    public boolean contains(Object o) {
        if (!(o instanceof Integer pid)) return false;
        for (int i = 0; i < size(); i++) if (getInt(i) == pid) return true;
        return false;
    }
}
