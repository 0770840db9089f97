package dev.runaway.procfs;

import java.util.HashMap;
import java.util.Map;

/**
 * Equal values seen lately, handed out as one object. Bounded: when it holds {@code capacity}
 * values it starts over, so a flood of distinct command lines costs at most that much. Not
 * thread-safe: the scanning thread alone uses it.
 */
final class Canon<T> {
    private final int capacity;
    private final Map<T, T> seen = new HashMap<>();

    Canon(int capacity) {
        this.capacity = capacity;
    }

    T of(T value) {
        T known = seen.get(value);
        if (known != null) return known;
        if (seen.size() >= capacity) seen.clear();
        seen.put(value, value);
        return value;
    }
}
