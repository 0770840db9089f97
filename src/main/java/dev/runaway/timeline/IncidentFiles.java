// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.timeline;

import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/** Where incidents are recorded by default: {@code $XDG_STATE_HOME/runaway/incidents/}. */
public final class IncidentFiles {
    /** Past this size a file rotates to FILE.1; the incident then spans at most twice this. */
    public static final long MAX_BYTES = 64L << 20;
    private static final DateTimeFormatter NAME = DateTimeFormatter.ofPattern("'incident-'yyyy-MM-dd'T'HH-mm-ss'.jsonl'");

    private IncidentFiles() {
    }

    public static Path directory() {
        String state = System.getenv("XDG_STATE_HOME");
        Path base = state != null && !state.isBlank() ? Path.of(state)
                : Path.of(System.getProperty("user.home"), ".local", "state");
        return base.resolve("runaway").resolve("incidents");
    }

    /** A new file name in the default directory, named for the local time it starts. */
    public static Path fresh() {
        return directory().resolve(LocalDateTime.now().format(NAME));
    }
}
