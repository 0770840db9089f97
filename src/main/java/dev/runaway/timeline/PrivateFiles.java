// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.timeline;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Recordings hold every user's command lines, so they and the state directory are the
 * recorder's alone: directories 0700, files 0600, opened without following a symlink (a link
 * planted where a root recorder writes would otherwise truncate whatever it points at).
 */
public final class PrivateFiles {
    private static final Set<PosixFilePermission> DIR = PosixFilePermissions.fromString("rwx------");
    private static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");

    private PrivateFiles() {
    }

    /**
     * Makes DIR (and missing parents) 0700; an existing DIR must be a real directory owned by us.
     * With TIGHTEN (the default state directory, ours alone) an existing one is made 0700 too.
     */
    public static void directory(Path dir, boolean tighten) throws IOException {
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(DIR));
        }
        PosixFileAttributes a = Files.readAttributes(dir, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (a.isSymbolicLink()) throw new IOException(dir + " is a symlink: refusing to record through it");
        if (!a.isDirectory()) throw new IOException(dir + " is not a directory");
        if (tighten && !a.permissions().equals(DIR)) {
            var me = dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(System.getProperty("user.name"));
            if (!a.owner().equals(me)) throw new IOException(dir + " belongs to " + a.owner().getName() + ": refusing to record there");
            Files.setPosixFilePermissions(dir, DIR);
        }
    }

    /** FILE truncated (created 0600 when missing), never through a symlink; an existing file is made 0600. */
    public static void truncate(Path file) throws IOException {
        open(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE).close();
    }

    /** FILE for appending, never through a symlink. */
    public static OutputStream append(Path file) throws IOException {
        return open(file, StandardOpenOption.APPEND, StandardOpenOption.WRITE);
    }

    private static OutputStream open(Path file, OpenOption... options) throws IOException {
        OpenOption[] all = java.util.Arrays.copyOf(options, options.length + 1);
        all[options.length] = LinkOption.NOFOLLOW_LINKS; // O_NOFOLLOW
        boolean created = !Files.exists(file, LinkOption.NOFOLLOW_LINKS);
        OutputStream out;
        try {
            out = created ? java.nio.channels.Channels.newOutputStream(Files.newByteChannel(file, Set.of(all),
                    PosixFilePermissions.asFileAttribute(FILE))) : Files.newOutputStream(file, all);
        } catch (FileAlreadyExistsException raced) {
            out = Files.newOutputStream(file, all);
        } catch (IOException e) {
            if (Files.isSymbolicLink(file)) throw new IOException(file + " is a symlink: refusing to write through it");
            throw e;
        }
        PosixFileAttributes a = Files.readAttributes(file, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (!a.isRegularFile()) {
            out.close();
            throw new IOException(file + " is not a regular file: refusing to record into it");
        }
        if (!a.permissions().equals(FILE)) Files.setPosixFilePermissions(file, FILE); // checked above: not a link
        return out;
    }
}
