// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.timeline.oom;

import java.io.IOException;

/**
 * Starts the journalctl children. The console starts them directly; tests pass a sandbox's
 * {@code start}, so every process a test makes is inside a sandbox it owns.
 */
@FunctionalInterface
public interface Launcher {
    Process start(ProcessBuilder builder) throws IOException;

    static Launcher direct() {
        return ProcessBuilder::start;
    }
}
