// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.guard;

/** Why the guard holds a group: the policy's three lines (see {@link GuardPolicy}). */
public enum GuardRule {
    GROWING_RECURSION, AT_CAP, EXHAUSTION
}
