// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop.helper;

import dev.runaway.sys.LibC;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** The installed privileged helper, started through pkexec (polkit asks for the password). */
public final class InstalledHelper {
    public static final Path PATH = Path.of("/usr/libexec/runaway/runaway-helper");
    /** The longest --stop description the helper accepts (STOP_TEXT_CHARS in runaway-helper.c). */
    public static final int DESCRIPTION_CHARS = 160;

    private InstalledHelper() {
    }

    /**
     * The helper once it answered HELLO. Throws {@link HelperUnavailable} with the reason in words
     * when it is not installed, pkexec is missing, the dialog was cancelled or authorization
     * failed. Before pkexec runs, this console is made non-dumpable: the helper refuses a console
     * whose /proc/PID/fd another process of the same user could open to write to the helper.
     */
    public static HelperClient start(Optional<HelperBinding> confirmedStop) {
        if (!Files.isExecutable(PATH)) throw new HelperUnavailable("no helper is installed (" + PATH + ")");
        if (Files.isExecutable(Path.of("/usr/bin/pkexec")) || Files.isExecutable(Path.of("/bin/pkexec"))) {
            guardConsole();
            return HelperClient.start(new ProcessBuilder(command(confirmedStop)), HelperClient.START_TIMEOUT);
        }
        throw new HelperUnavailable("pkexec is not installed (Debian: polkitd and pkexec)");
    }

    /**
     * pkexec's command line. Its first argument picks the polkit action and so the prompt
     * (packaging/polkit): --prepare ahead of need, --stop with the stop's description when the
     * user just confirmed one, shown as $(command_line). The helper only checks and logs it.
     */
    public static List<String> command(Optional<HelperBinding> confirmedStop) {
        return confirmedStop.map(stop -> List.of("pkexec", PATH.toString(), "--stop", description(stop)))
                .orElseGet(() -> List.of("pkexec", PATH.toString(), "--prepare"));
    }

    /**
     * The plan's selector and target count, e.g. "chain of pid 4242 (312 processes)", in what the
     * helper accepts: at most {@value #DESCRIPTION_CHARS} printable ASCII characters without
     * &lt; &gt; &amp; $ (anything else becomes '?', a long selector ends in "...").
     */
    public static String description(HelperBinding stop) {
        int n = stop.targets().size();
        String count = " (" + n + (n == 1 ? " process)" : " processes)");
        StringBuilder label = new StringBuilder(stop.command().length());
        stop.command().chars().forEach(c -> label.append(c >= 0x20 && c <= 0x7e && "<>&$".indexOf(c) < 0 ? (char) c : '?'));
        int room = DESCRIPTION_CHARS - count.length();
        if (label.length() > room) label.replace(room - 3, label.length(), "...");
        return label + count;
    }

    /** PR_SET_DUMPABLE 0: /proc/self/fd becomes root's, so no other process of the user can reach the pipe. */
    public static void guardConsole() {
        if (LibC.INSTANCE.prctl(LibC.PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) {
            throw new HelperUnavailable("cannot make the console non-dumpable (prctl PR_SET_DUMPABLE failed), so the helper would refuse it");
        }
    }
}
