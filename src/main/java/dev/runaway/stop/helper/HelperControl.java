// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop.helper;

import java.util.Optional;

/**
 * What {@link HelperKeeper} asks of whoever holds the helper (the stop's actuator): start it,
 * say whether it runs and why not. An interface here so the helper package needs no other part
 * of the stop.
 */
public interface HelperControl {
    /** Starts the helper now, ahead of need; true when it runs. */
    boolean warmUp();

    /** Why the helper is not available, or empty. */
    Optional<String> helperUnavailable();

    /** The user asked again: the next need may start a helper once more. */
    void retryHelper();

    /** True when a helper has been started and still runs. */
    boolean hasHelper();
}
