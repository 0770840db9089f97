// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop.helper;

import java.util.Optional;

/**
 * Why pkexec did not give us a helper, in the user's words. pkexec exits 126 when the user
 * dismissed the dialog and 127 when authorization failed (wrong password, not allowed) or could
 * not be asked for at all (no polkit authentication agent: pkexec says so on stderr).
 */
final class PkexecFailure {
    static final int DISMISSED = 126;
    static final int NOT_AUTHORIZED = 127;

    private PkexecFailure() {
    }

    static String describe(boolean pkexec, Optional<Integer> exit, String stderr) {
        String said = lastLine(stderr);
        if (exit.isEmpty()) return "the helper did not answer and is still running" + (said.isEmpty() ? "" : ": " + said);
        int code = exit.get();
        if (pkexec && code == DISMISSED) return "the password dialog was cancelled";
        if (pkexec && code == NOT_AUTHORIZED) {
            if (stderr.contains("No authentication agent")) {
                return "no polkit authentication agent is running (a desktop session has one; in a terminal, run pkttyagent"
                        + " or use sudo runaway)";
            }
            if (stderr.contains("Not authorized") || stderr.isBlank()) {
                return "not authorized: wrong password, or polkit does not allow this user (actions dev.runaway.helper and dev.runaway.helper.stop)";
            }
            return "pkexec failed: " + said;
        }
        return "the helper exited with status " + code + (said.isEmpty() ? "" : ": " + said);
    }

    private static String lastLine(String text) {
        String[] lines = text.strip().split("\n");
        return dev.runaway.model.SafeText.terminal(lines[lines.length - 1].strip());
    }
}
