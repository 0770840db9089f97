// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop.plan;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Whether a binary may have its execute permission taken away: only a regular file, reached
 * without a symlink, not setuid or setgid, outside every system path, under a disposable root.
 * The helper checks the same again for itself (docs/helper-protocol.md); this copy lets the plan
 * say why a lever does or does not apply before anything is asked.
 */
public final class Disposable {
    public static final List<String> SYSTEM_PATHS = List.of("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64",
            "/libx32", "/opt", "/etc", "/boot", "/proc", "/sys", "/dev");
    static final Path CONFIG = Path.of("/etc/runaway/disposable-roots");

    /** The answer, with its reason in a few words. */
    public record Verdict(boolean disposable, String why) {
    }

    private final List<Path> roots;
    private final Path home;

    /** Exactly these roots, plus the home's cache and build directories. */
    public Disposable(List<Path> roots, Path home) {
        this.home = home;
        this.roots = new ArrayList<>(roots);
        this.roots.add(home.resolve(".cache"));
    }

    /** The defaults plus the root-owned config's lines, for the user running this. */
    public static Disposable forThisUser() {
        List<Path> extra = new ArrayList<>(List.of(Path.of("/tmp"), Path.of("/var/tmp")));
        try {
            if (Files.exists(CONFIG) && ((Integer) Files.getAttribute(CONFIG, "unix:uid")) == 0) {
                for (String line : Files.readAllLines(CONFIG)) {
                    String t = line.strip();
                    if (!t.isEmpty() && !t.startsWith("#") && t.startsWith("/")) extra.add(Path.of(t));
                }
            }
        } catch (IOException | RuntimeException e) {
            // an unreadable config adds nothing
        }
        return new Disposable(extra, Path.of(System.getProperty("user.home")));
    }

    /**
     * The disposable root FILE lies below, in the helper's order (/tmp, /var/tmp, the config's
     * roots, ~/.cache; the home for a build output), or empty for a system path or any other:
     * where {@link dev.runaway.stop.act.ExecBits} opens it from.
     */
    public Optional<String> rootOf(String file) {
        Path path = Path.of(file);
        if (!path.isAbsolute()) return Optional.empty();
        for (String system : SYSTEM_PATHS) {
            if (path.startsWith(system)) return Optional.empty();
        }
        for (Path root : roots) {
            if (path.startsWith(root) && !path.equals(root)) return Optional.of(root.toString());
        }
        if (path.startsWith(home)) {
            Path rel = home.relativize(path);
            for (int i = 0; i < rel.getNameCount() - 1; i++) {
                String part = rel.getName(i).toString();
                if (part.equals("target") || part.equals("build")) return Optional.of(home.toString());
            }
        }
        return Optional.empty();
    }

    public Verdict check(String file) {
        Path path = Path.of(file);
        if (!path.isAbsolute() || !path.normalize().equals(path)) return new Verdict(false, file + ": not a plain absolute path");
        for (String system : SYSTEM_PATHS) {
            if (path.startsWith(system)) return new Verdict(false, file + ": not disposable (a system path)");
        }
        try {
            if (!path.toRealPath().equals(path)) return new Verdict(false, file + ": reached through a symlink");
            PosixFileAttributes a = Files.readAttributes(path, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!a.isRegularFile()) return new Verdict(false, file + ": not a regular file");
            int mode = (Integer) Files.getAttribute(path, "unix:mode", LinkOption.NOFOLLOW_LINKS);
            if ((mode & 06000) != 0) return new Verdict(false, file + ": setuid or setgid");
            if ((Integer) Files.getAttribute(path, "unix:nlink", LinkOption.NOFOLLOW_LINKS) != 1) {
                return new Verdict(false, file + ": more than one hard link (it may be a system binary by another name)");
            }
        } catch (IOException | RuntimeException e) {
            return new Verdict(false, file + ": cannot be read (" + e.getMessage() + ")");
        }
        for (Path root : roots) {
            if (path.startsWith(root) && !path.equals(root)) return new Verdict(true, file + ": under " + root);
        }
        if (path.startsWith(home)) {
            for (Path part : home.relativize(path)) {
                if (part.toString().equals("target") || part.toString().equals("build")) {
                    return new Verdict(true, file + ": build output under " + home);
                }
            }
        }
        return new Verdict(false, file + ": not disposable (not under /tmp, /var/tmp, ~/.cache or a build directory)");
    }
}
