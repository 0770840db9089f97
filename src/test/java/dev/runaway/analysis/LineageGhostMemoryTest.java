// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.analysis;

import dev.runaway.model.Argv;
import dev.runaway.model.ProcessSample;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.runaway.analysis.Procs.proc;
import static org.assertj.core.api.Assertions.assertThat;

/** A ghost (a gone parent a living process descends from) keeps its key, not its command line: nothing counts that memory any more. */
class LineageGhostMemoryTest {

    @Test
    void aGhostDropsItsCommandLineAndKeepsItsKey() {
        ProcessSample parent = proc(600, 1).exe("/usr/bin/python3.11").args("python3", "/srv/p.py", "a".repeat(8000)).build();
        ProcessSample child = proc(601, 600).exe("/usr/bin/python3.11").args("python3", "/srv/c.py").build();
        ProcessSample adopted = proc(601, 1).exe("/usr/bin/python3.11").args("python3", "/srv/c.py").build();
        Lineage lineage = new Lineage();
        step(lineage, List.of(parent, child));
        assertThat(lineage.cmdlineCharsHeld()).isEqualTo(Argv.chars(parent.cmdline()) + Argv.chars(child.cmdline()));
        for (int i = 0; i < 10; i++) step(lineage, List.of(adopted)); // the parent gone: a ghost its child descends from

        assertThat(lineage.originalParent(adopted.identity())).as("still remembered").isEqualTo(parent.identity());
        assertThat(lineage.commandKey(parent.identity())).isEqualTo("/srv/p.py");
        assertThat(lineage.cmdlineCharsHeld()).as("only the living keep theirs").isEqualTo(Argv.chars(adopted.cmdline()));
    }

    /** One scan, as the analyzer feeds it: each living process's key, then the update. */
    private static void step(Lineage lineage, List<ProcessSample> processes) {
        List<String> keyNames = new ArrayList<>();
        int[] keyOf = new int[processes.size()];
        for (int i = 0; i < processes.size(); i++) {
            String key = lineage.keyOf(processes.get(i));
            if (!keyNames.contains(key)) keyNames.add(key);
            keyOf[i] = keyNames.indexOf(key);
        }
        lineage.update(processes, PidIndex.of(processes), keyOf, keyNames);
    }
}
