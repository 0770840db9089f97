// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.analysis;

import dev.runaway.model.ProcessIdentity;
import dev.runaway.model.ProcessSample;

import java.util.List;
import java.util.Optional;

/**
 * What a stop of a group would take: its members, every living process below them (whatever
 * its command: a runaway's children are part of it), and the cgroup they are in when that
 * cgroup holds nothing else (then freezing or killing the cgroup reaches even members a scan
 * has not seen yet).
 *
 * @param samples  the targets as the scan saw them (identity, executable, command line)
 * @param cgroup   the v2 path of a cgroup that holds only targets
 */
public record TargetSet(String command, List<ProcessSample> samples, Optional<String> cgroup) {

    /** By identity, so a pid reused after planning is never hit. */
    public List<ProcessIdentity> processes() {
        return samples.stream().map(ProcessSample::identity).toList();
    }
}
