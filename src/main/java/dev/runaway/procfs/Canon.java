// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Equal values seen lately, handed out as one object. Bounded: when it holds {@code capacity}
 * values it starts over, so a flood of distinct command lines costs at most that much. Safe
 * for the scanning thread and its helper at once.
 */
final class Canon<T> {
    private final int capacity;
    private final Map<T, T> seen = new ConcurrentHashMap<>();

    Canon(int capacity) {
        this.capacity = capacity;
    }

    T of(T value) {
        T known = seen.get(value);
        if (known != null) return known;
        if (seen.size() >= capacity) seen.clear();
        known = seen.putIfAbsent(value, value);
        return known != null ? known : value;
    }
}
