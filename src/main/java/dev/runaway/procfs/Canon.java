// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Equal values seen lately, handed out as one object. Bounded: when it holds {@code capacity}
 * values (or their weight passes its limit) it starts over, so a flood of distinct command
 * lines costs at most that much. Safe for the scanning thread and its helper at once.
 */
final class Canon<T> {
    private final int capacity;
    private final java.util.function.ToLongFunction<T> weight;
    private final long maxWeight;
    private final java.util.concurrent.atomic.AtomicLong weighed = new java.util.concurrent.atomic.AtomicLong();
    private final Map<T, T> seen = new ConcurrentHashMap<>();

    Canon(int capacity) {
        this(capacity, v -> 0, Long.MAX_VALUE);
    }

    /** Also starting over once the values held weigh more than {@code maxWeight} (command lines, by their characters). */
    Canon(int capacity, java.util.function.ToLongFunction<T> weight, long maxWeight) {
        this.capacity = capacity;
        this.weight = weight;
        this.maxWeight = maxWeight;
    }

    T of(T value) {
        T known = seen.get(value);
        if (known != null) return known;
        long w = weight.applyAsLong(value);
        if (seen.size() >= capacity || weighed.get() + w > maxWeight) {
            seen.clear();
            weighed.set(0);
        }
        known = seen.putIfAbsent(value, value);
        if (known == null) weighed.addAndGet(w);
        return known != null ? known : value;
    }
}
