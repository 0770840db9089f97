// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * The user drop-ins of {@code runaway protect}: one file per unit prefix under the user's systemd
 * configuration. systemd applies {@code app-.scope.d/} to every {@code app-*.scope} (where
 * desktops put each app and terminal window) and {@code vte-spawn-.scope.d/} to every terminal
 * tab of a VTE terminal. A runaway in one window then stops at the cap, and the rest of the
 * desktop carries on.
 */
final class DropIns {
    static final List<String> PREFIXES = List.of("app-.scope.d", "vte-spawn-.scope.d");
    static final String FILE = "50-runaway-protect.conf";

    private DropIns() {
    }

    /** The user's systemd configuration folder: $XDG_CONFIG_HOME/systemd/user, or ~/.config/... */
    static Path userDir(java.util.Map<String, String> env, String home) {
        String xdg = env.get("XDG_CONFIG_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(home, ".config");
        return base.resolve("systemd/user");
    }

    static String content(int tasksMax, OptionalLong memoryMaxBytes, OptionalLong swapMaxBytes) {
        StringBuilder b = new StringBuilder();
        b.append("# Written by runaway protect: a cap for each terminal window and app, so one runaway\n");
        b.append("# cannot take the whole desktop down. Remove with: runaway protect --undo\n");
        b.append("[Scope]\n");
        b.append("TasksMax=").append(tasksMax).append('\n');
        memoryMaxBytes.ifPresent(m -> b.append("MemoryMax=").append(m).append('\n'));
        swapMaxBytes.ifPresent(s -> b.append("MemorySwapMax=").append(s).append('\n'));
        return b.toString();
    }

    /** Writes the drop-ins; returns the files written. */
    static List<Path> write(Path dir, String content) throws IOException {
        List<Path> written = new ArrayList<>();
        for (String prefix : PREFIXES) {
            Path file = Files.createDirectories(dir.resolve(prefix)).resolve(FILE);
            Files.writeString(file, content);
            written.add(file);
        }
        return written;
    }

    /** Removes the drop-ins (and their folders when empty); returns the files removed. */
    static List<Path> remove(Path dir) throws IOException {
        List<Path> removed = new ArrayList<>();
        for (String prefix : PREFIXES) {
            Path file = dir.resolve(prefix).resolve(FILE);
            if (Files.deleteIfExists(file)) removed.add(file);
            try (var left = Files.list(dir.resolve(prefix))) {
                if (left.findAny().isEmpty()) Files.delete(dir.resolve(prefix));
            } catch (IOException absent) {
                // no folder: nothing to tidy
            }
        }
        return removed;
    }

    /** The drop-ins in force, file by file, as "prefix: the settings". */
    static List<String> status(Path dir) throws IOException {
        List<String> lines = new ArrayList<>();
        for (String prefix : PREFIXES) {
            Path file = dir.resolve(prefix).resolve(FILE);
            if (!Files.exists(file)) continue;
            List<String> settings = Files.readAllLines(file).stream().filter(l -> l.contains("=") && !l.startsWith("#")).toList();
            lines.add(prefix.replace(".d", "").replace("-.", "-*.") + ": " + String.join(" ", settings));
        }
        return lines;
    }
}
