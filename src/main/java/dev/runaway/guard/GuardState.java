// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.guard;

import dev.runaway.model.Json;
import dev.runaway.procfs.RootFiles;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The guard's holds, for every other face of Runaway: {@code /run/runaway/guard/held.json},
 * root's, replaced whole on each change. Readers trust it only when root alone could have
 * written it (a false HELD would hide a runaway behind a word).
 */
public final class GuardState {
    public static final Path DEFAULT_DIR = Path.of("/run/runaway/guard");
    private static final long MAX_BYTES = 4L << 20;

    private GuardState() {
    }

    /** {@code -Drunaway.guard.dir} (tests), else {@link #DEFAULT_DIR}. */
    public static Path dir() {
        String set = System.getProperty("runaway.guard.dir");
        return set == null || set.isEmpty() ? DEFAULT_DIR : Path.of(set);
    }

    record File(int version, int pid, List<HeldGroup> held) {
    }

    /** Replaces the file with these holds (the guard's, root only). */
    static void write(List<HeldGroup> held) throws IOException {
        Path dir = dir();
        RootFiles.directory(dir);
        RootFiles.replace(dir.resolve("held.json"), out -> Json.STATE.writeValue(out, new File(1, (int) ProcessHandle.current().pid(), held)));
    }

    /** Removes the file: the guard stopped, nothing is held by it any more. */
    static void clear() {
        try {
            Files.deleteIfExists(dir().resolve("held.json"));
        } catch (IOException e) {
            // a file left names a gone guard's pid: readers check it
        }
    }

    /** The holds of a running guard by command key; empty when there is none, or its file is not root's alone. */
    public static Map<String, HeldGroup> read() {
        Path file = dir().resolve("held.json");
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) return Map.of();
        try (InputStream in = Channels.newInputStream(Files.newByteChannel(file, Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)))) {
            RootFiles.refuseUnsafe(dir(), true, 0);
            RootFiles.refuseUnsafe(file, false, MAX_BYTES);
            File f = Json.STATE.readValue(in, File.class);
            if (f.version() != 1 || ProcessHandle.of(f.pid()).isEmpty()) return Map.of(); // a guard gone without clearing
            Map<String, HeldGroup> out = new LinkedHashMap<>();
            for (HeldGroup h : f.held()) out.put(h.key(), h);
            return out;
        } catch (IOException | RuntimeException e) {
            return Map.of();
        }
    }
}
