// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Files a root service writes for other processes to trust (a sampler's lineage, the guard's
 * holds): replaced whole by rename, and read only when they and their directory are root's and
 * writable by root alone, and not links.
 */
public final class RootFiles {
    private RootFiles() {
    }

    /** How a file's new content is written. */
    public interface Content {
        void write(OutputStream out) throws IOException;
    }

    /** Writes beside the file and renames it over: a reader sees the old file or the new one whole. Mode 0644. */
    public static void replace(Path file, Content content) throws IOException {
        Path tmp = file.resolveSibling("." + file.getFileName() + ".tmp");
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(tmp, StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS), 1 << 16)) {
            content.write(out);
        }
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-r--r--"));
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** Makes a directory of root's (0755) when missing, and checks it is root's alone. */
    public static void directory(Path dir) throws IOException {
        Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        refuseUnsafe(dir, true, 0);
    }

    /** Throws unless P is a directory (or a regular file of at most MAX_BYTES) that only root can have written. */
    public static void refuseUnsafe(Path p, boolean directory, long maxBytes) throws IOException {
        PosixFileAttributes a = Files.readAttributes(p, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        boolean kind = directory ? a.isDirectory() : a.isRegularFile();
        Set<PosixFilePermission> perms = a.permissions();
        if (!kind || !a.owner().getName().equals("root") || perms.contains(PosixFilePermission.GROUP_WRITE)
                || perms.contains(PosixFilePermission.OTHERS_WRITE) || (!directory && a.size() > maxBytes)) {
            throw new IOException(p + " is not root's alone");
        }
    }
}
