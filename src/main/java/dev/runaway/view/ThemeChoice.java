// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.view;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Light or dark: {@code --dark} first, then the theme the person last chose in the window
 * (remembered in {@link #file}), then the desktop's {@code color-scheme} (the freedesktop
 * settings portal: 1 prefers dark, 2 prefers light, 0 no preference), else light.
 */
public final class ThemeChoice {
    /** The portal's org.freedesktop.appearance color-scheme values. */
    public static final int PREFER_DARK = 1;
    private static final String KEY = "theme=";

    private ThemeChoice() {
    }

    public static boolean dark(boolean darkFlag, Optional<Boolean> remembered, OptionalInt desktopScheme) {
        if (darkFlag) return true;
        if (remembered.isPresent()) return remembered.get();
        return desktopScheme.isPresent() && desktopScheme.getAsInt() == PREFER_DARK;
    }

    /** $XDG_CONFIG_HOME/runaway/console (else ~/.config/runaway/console): one line, theme=dark or theme=light. */
    public static Path file(String xdgConfigHome, String home) {
        Path base = xdgConfigHome != null && xdgConfigHome.startsWith("/") ? Path.of(xdgConfigHome) : Path.of(home, ".config");
        return base.resolve("runaway").resolve("console");
    }

    /** The remembered choice; empty when none was made or the file says something else. */
    public static Optional<Boolean> read(Path file) {
        try {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                String l = line.strip();
                if (l.equals(KEY + "dark")) return Optional.of(true);
                if (l.equals(KEY + "light")) return Optional.of(false);
            }
        } catch (IOException | RuntimeException none) {
            // no choice remembered (or unreadable): the desktop decides
        }
        return Optional.empty();
    }

    /** Remembers a choice made in the window (Ctrl+T). */
    public static void write(Path file, boolean dark) throws IOException {
        Files.createDirectories(file.getParent());
        Path next = file.resolveSibling(file.getFileName() + ".new");
        Files.writeString(next, KEY + (dark ? "dark" : "light") + "\n", StandardCharsets.UTF_8);
        Files.move(next, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }
}
