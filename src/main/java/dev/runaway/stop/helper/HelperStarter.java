// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop.helper;

import java.util.Optional;

/**
 * Starts the privileged helper. {@code confirmedStop} is the stop the user just confirmed when
 * the helper starts for it (pkexec's prompt then names it), empty when it starts ahead of need.
 * Returns null when there is no helper for this console (root, a test, a bench); throws
 * {@link HelperUnavailable} with the reason in words when it could not start.
 */
@FunctionalInterface
public interface HelperStarter {
    /**
     * No helper for this console, whatever the machine has installed: the planner then plans
     * with this user's own rights only (a test as nobody, a bench), never "through the helper".
     */
    HelperStarter NONE = confirmedStop -> null;

    HelperClient start(Optional<HelperBinding> confirmedStop);
}
