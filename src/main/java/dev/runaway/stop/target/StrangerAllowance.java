// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop.target;

/**
 * How many processes of a key's cgroup may look like strangers at the first reading before a
 * freeze is not even tried: children caught mid-exec still show their parent's executable or
 * none, and a second look while frozen clears them (a real stranger then thaws it at once).
 * The one definition: runaway-rt, which makes the same decision before the JVM starts, reads
 * these two numbers from a header that src/main/c/gen-stranger-allowance.sh writes from this
 * file at build time (keep each a plain literal on its own line).
 */
public final class StrangerAllowance {
    /** At least this many. */
    public static final int MIN = 16;
    /** Or this share of the key's processes read, per mille, when that is more. */
    public static final int PER_MILLE = 10;

    private StrangerAllowance() {
    }

    /** The strangers allowed beside {@code matches} processes read as the key's. */
    public static int allowed(int matches) {
        return Math.max(MIN, matches * PER_MILLE / 1000);
    }
}
