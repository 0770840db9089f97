// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop.helper;

import dev.runaway.model.ProcessIdentity;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The stop the user confirmed, as the helper is bound to it (docs/helper-protocol.md, BIND):
 * its cgroup, when it has one, and its processes by pid and start time. From CONFIRM on, the
 * helper acts only on that set and on new members it finds itself (in that cgroup, below a named
 * process, or of the same executable, owner and script as one).
 *
 * @param command what the user confirmed, for messages
 */
public record HelperBinding(String command, Optional<String> cgroup, List<ProcessIdentity> targets) {

    /** The protocol lines, in order: BIND, one TARGET per process, CONFIRM. */
    public List<String> requests() {
        List<String> lines = new ArrayList<>(targets.size() + 2);
        lines.add("BIND " + cgroup.orElse("-"));
        for (ProcessIdentity id : targets) lines.add("TARGET " + id.pid() + " " + id.startTicks());
        lines.add("CONFIRM");
        return lines;
    }
}
