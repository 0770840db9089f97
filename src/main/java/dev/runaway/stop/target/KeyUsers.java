// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop.target;

import java.util.Map;
import java.util.OptionalInt;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Whose processes a command key's definition found, by real uid: a key of a shared tool spans
 * several users. A person's stop of the key takes them all (and the plan says whose they are);
 * a guard's hold takes only its runaway's uid ({@code only}), and the plan says how many of other
 * users' it left out.
 *
 * @param only           the uid the selector takes alone; empty when it takes every user's
 * @param processesByUid how many processes of the definition (members and, with {@code only},
 *                       those left out) run as each uid; those gone before it was read are not counted
 */
public record KeyUsers(OptionalInt only, SortedMap<Integer, Integer> processesByUid) {
    /** Not a command key's definition, or not known. */
    public static final KeyUsers NONE = new KeyUsers(OptionalInt.empty(), new TreeMap<>());

    public KeyUsers {
        processesByUid = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(processesByUid));
    }

    /** Whether the key's processes run as more than one user. */
    public boolean spansUsers() {
        return processesByUid.size() > 1;
    }

    /** Processes of other users than {@code only} that the definition left out (0 when it takes every user's). */
    public int leftOut() {
        if (only.isEmpty()) return 0;
        int n = 0;
        for (Map.Entry<Integer, Integer> e : processesByUid.entrySet()) if (e.getKey() != only.getAsInt()) n += e.getValue();
        return n;
    }

    /** The plan's line, when there is something to say: several users, or a restriction to one. */
    public java.util.Optional<String> words() {
        if (!spansUsers() && only.isEmpty()) return java.util.Optional.empty();
        StringBuilder by = new StringBuilder();
        for (Map.Entry<Integer, Integer> e : processesByUid.entrySet()) {
            if (by.length() > 0) by.append(", ");
            by.append("uid ").append(e.getKey()).append(": ").append(e.getValue());
        }
        String whose = spansUsers() ? "the key spans " + processesByUid.size() + " users (" + by + ")" : "the key runs as " + by;
        if (only.isEmpty()) return java.util.Optional.of(whose + "; every user's processes are targets, as asked by key");
        return java.util.Optional.of(whose + "; only uid " + only.getAsInt() + "'s are targets"
                + (leftOut() > 0 ? ", " + leftOut() + " of other users' left alone" : ""));
    }
}
