// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop.helper;

/**
 * The privileged helper could not be started, with the reason in words for the user (no polkit
 * agent, the dialog was cancelled, not authorized, not installed). Unchecked, so that a helper
 * starter can be a plain {@code Supplier}.
 */
public final class HelperUnavailable extends RuntimeException {
    public HelperUnavailable(String reason) {
        super(reason, null, false, false);
    }
}
