// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.ui;

import dev.runaway.model.ProcessIdentity;
import dev.runaway.procfs.ProcStat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The local X server the window draws through. The JavaFX thread waits for its replies (GTK's
 * round trips), so while a runaway holds thousands of runnable tasks an ordinary X server
 * starves the window however high its own threads are: at 20,000 pressing tasks the JavaFX
 * thread's worst freezes (315 ms to 14 s, bench ui) were all in GTK's poll for Xvfb. X servers
 * write their pid to {@code /tmp/.X<N>-lock}; a remote display (over SSH: {@code localhost:10})
 * has no local server to raise. On a Wayland session this finds Xwayland, not the compositor.
 */
public final class DisplayServer {
    /** {@code :N}, {@code :N.S} or {@code unix:N[.S]}: a local display; anything with a host name is not. */
    private static final Pattern LOCAL = Pattern.compile("(?:unix)?:(\\d+)(?:\\.\\d+)?");

    private DisplayServer() {
    }

    /** The X server of {@code display} on this machine (pid and start time), when it is local and running. */
    public static Optional<ProcessIdentity> local(String display) {
        return local(display, Path.of("/tmp"), Path.of("/proc"));
    }

    static Optional<ProcessIdentity> local(String display, Path tmp, Path proc) {
        if (display == null) return Optional.empty();
        Matcher m = LOCAL.matcher(display.strip());
        if (!m.matches()) return Optional.empty();
        try {
            int pid = Integer.parseInt(Files.readString(tmp.resolve(".X" + m.group(1) + "-lock"), StandardCharsets.US_ASCII).strip());
            // A stale lock's pid may have been reused: only an X server (Xorg, Xvfb, Xwayland, Xvnc...) is raised.
            return ProcStat.read(proc, pid).filter(st -> st.comm().startsWith("X")).map(ProcStat::identity);
        } catch (IOException | RuntimeException noServer) {
            return Optional.empty();
        }
    }

    /** Whether {@code id}'s pid still names that process (not exited, not reused). */
    static boolean stillRuns(ProcessIdentity id) {
        return ProcStat.read(Path.of("/proc"), id.pid()).map(ProcStat::identity).filter(id::equals).isPresent();
    }
}
