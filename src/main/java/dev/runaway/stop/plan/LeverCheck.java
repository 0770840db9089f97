// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop.plan;

/** Whether a lever can be pulled by this user on this machine for these targets, and why (or why not). */
public record LeverCheck(Lever lever, Feasible feasible, String why) {

    public enum Feasible {
        /** With the user's own rights. */
        AS_YOU,
        /** Only through the helper (root). */
        VIA_HELPER,
        /** Not at all, for the reason given. */
        NO
    }

    public boolean possible() {
        return feasible != Feasible.NO;
    }
}
