// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop.helper;

import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** What the user reads when pkexec gives no helper: the cause, in words, one line. */
class PkexecFailureTest {
    @Test
    void eachPkexecOutcomeHasItsOwnWords() {
        assertThat(PkexecFailure.describe(true, Optional.of(126), "")).isEqualTo("the password dialog was cancelled");
        assertThat(PkexecFailure.describe(true, Optional.of(127), "Error executing command as another user: Not authorized\n\n"
                + "This incident has been reported.\n")).startsWith("not authorized: wrong password");
        assertThat(PkexecFailure.describe(true, Optional.of(127),
                "Error executing command as another user: No authentication agent found.\n")).startsWith("no polkit authentication agent");
        assertThat(PkexecFailure.describe(false, Optional.of(3), "runaway-helper: must run as root (through pkexec)\n"))
                .isEqualTo("the helper exited with status 3: runaway-helper: must run as root (through pkexec)");
        assertThat(PkexecFailure.describe(true, Optional.empty(), "")).startsWith("the helper did not answer");
        assertThat(PkexecFailure.describe(false, Optional.of(1), "bad\u001b[2J\n")).doesNotContain("\u001b");
    }
}
