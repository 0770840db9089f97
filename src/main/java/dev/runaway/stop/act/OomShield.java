// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop.act;

import dev.runaway.stop.StopException;
import dev.runaway.model.ProcessIdentity;
import dev.runaway.procfs.ProcStat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Lowers the console's own OOM score, so that when memory runs out the kernel (and oomd, which
 * reads the same score) takes the runaway and not the console watching it. Lowering needs
 * privilege: root writes it directly; an ordinary user only through a helper already running
 * (the console never prompts for a password just for this). Off with {@code RUNAWAY_OOM_PROTECT=0}.
 */
public final class OomShield {
    /** Low enough to be passed over for almost anything, not so low that it can never be killed. */
    public static final int SCORE_ADJ = -800;

    private OomShield() {
    }

    public static boolean enabled() {
        return !"0".equals(System.getenv("RUNAWAY_OOM_PROTECT"));
    }

    /** Lowers this process's score; returns what was done, in words, or empty when disabled. */
    public static Optional<String> protectSelf(Path procRoot, Actuator helperIfRunning) {
        if (!enabled()) return Optional.empty();
        int pid = (int) ProcessHandle.current().pid();
        Path file = procRoot.resolve(pid + "/oom_score_adj");
        try {
            Files.writeString(file, Integer.toString(SCORE_ADJ));
            return Optional.of("OOM score lowered to " + SCORE_ADJ);
        } catch (IOException denied) {
            if (helperIfRunning == null) {
                return Optional.of("OOM score left as it is (lowering it needs CAP_SYS_RESOURCE: root, or the helper)");
            }
            ProcessIdentity self = ProcStat.read(procRoot, pid).orElseThrow().identity();
            try {
                return Optional.of(helperIfRunning.oomAdjust(self, SCORE_ADJ)
                        ? "OOM score lowered to " + SCORE_ADJ + " through the helper"
                        : "OOM score left as it is (the helper refused)");
            } catch (StopException e) {
                return Optional.of("OOM score left as it is: " + e.getMessage());
            }
        }
    }
}
