// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop;

import dev.runaway.sys.LibC;

import java.nio.file.Files;
import java.nio.file.Path;

/** The installed privileged helper, started through pkexec (polkit asks for the password). */
public final class InstalledHelper {
    public static final Path PATH = Path.of("/usr/libexec/runaway/runaway-helper");

    private InstalledHelper() {
    }

    /**
     * The helper once it answered HELLO. Throws {@link HelperUnavailable} with the reason in words
     * when it is not installed, pkexec is missing, the dialog was cancelled or authorization
     * failed. Before pkexec runs, this console is made non-dumpable: the helper refuses a console
     * whose /proc/PID/fd another process of the same user could open to write to the helper.
     */
    public static HelperClient start() {
        if (!Files.isExecutable(PATH)) throw new HelperUnavailable("no helper is installed (" + PATH + ")");
        if (Files.isExecutable(Path.of("/usr/bin/pkexec")) || Files.isExecutable(Path.of("/bin/pkexec"))) {
            guardConsole();
            return HelperClient.start(new ProcessBuilder("pkexec", PATH.toString()), HelperClient.START_TIMEOUT);
        }
        throw new HelperUnavailable("pkexec is not installed (Debian: polkitd and pkexec)");
    }

    /** PR_SET_DUMPABLE 0: /proc/self/fd becomes root's, so no other process of the user can reach the pipe. */
    public static void guardConsole() {
        if (LibC.INSTANCE.prctl(LibC.PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) {
            throw new HelperUnavailable("cannot make the console non-dumpable (prctl PR_SET_DUMPABLE failed), so the helper would refuse it");
        }
    }
}
