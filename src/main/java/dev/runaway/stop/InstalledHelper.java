// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The installed privileged helper, started through pkexec (polkit asks for the password). */
public final class InstalledHelper {
    public static final Path PATH = Path.of("/usr/libexec/runaway/runaway-helper");

    private InstalledHelper() {
    }

    /** The helper, or null when it is not installed or pkexec cannot start. */
    public static HelperClient start() {
        if (!Files.isExecutable(PATH)) return null;
        try {
            return new HelperClient(new ProcessBuilder("pkexec", PATH.toString())
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start());
        } catch (IOException e) {
            return null;
        }
    }
}
