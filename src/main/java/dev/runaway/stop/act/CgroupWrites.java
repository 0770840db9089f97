// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop.act;

import dev.runaway.sys.Beneath;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Writes to cgroup control files as the in-process stop makes them, through descriptors: the
 * cgroup's directory opened from "/" with no symlink on the way, its control file beneath it
 * with no symlink and no mount crossed. A user who owns a delegated subtree can rename its
 * cgroups (within their parent), so the pids.max a stop set to 0 is put back through the same
 * directory descriptor it was set through: the very cgroup, never another that took its name.
 */
public final class CgroupWrites {
    private CgroupWrites() {
    }

    /** The kernel refused us the file: the caller may ask the helper. */
    public static final class Denied extends IOException {
        Denied(String message) {
            super(message);
        }
    }

    /** A pids.max set to 0, with the directory it is in held open and the value to put back. */
    public static final class Capped {
        private final Beneath.Fd dir;
        private final String old;

        private Capped(Beneath.Fd dir, String old) {
            this.dir = dir;
            this.old = old;
        }

        /** Puts the old value back into the same cgroup; quiet when it was removed meanwhile. */
        public void putBack() {
            try {
                Beneath.write(dir, "pids.max", old);
            } catch (Beneath.Failed gone) {
                // the cgroup emptied and was removed: nothing to put back
            } finally {
                dir.close();
            }
        }
    }

    /** Writes VALUE to NAME in the cgroup directory DIR. */
    public static void write(Path dir, String name, String value) throws IOException {
        try (Beneath.Fd fd = Beneath.directory(dir.toString())) {
            Beneath.write(fd, name, value);
        } catch (Beneath.Failed e) {
            if (e.errno() == Beneath.EACCES || e.errno() == Beneath.EPERM) throw new Denied(e.getMessage());
            throw new IOException(e.getMessage());
        }
    }

    /** Sets the pids.max FILE to 0, remembering its value; empty when it cannot be written. */
    public static Optional<Capped> cap(Path file) {
        Beneath.Fd dir = null;
        try {
            dir = Beneath.directory(file.getParent().toString());
            String old = Files.readString(file).trim();
            Beneath.write(dir, file.getFileName().toString(), "0");
            return Optional.of(new Capped(dir, old));
        } catch (Beneath.Failed | IOException | RuntimeException e) {
            if (dir != null) dir.close();
            return Optional.empty();
        }
    }

    /** Takes over a pids.max FILE set to 0 before this process (runaway-rt), OLD to put back. */
    public static Optional<Capped> adopt(Path file, String old) {
        try {
            return Optional.of(new Capped(Beneath.directory(file.getParent().toString()), old));
        } catch (Beneath.Failed | RuntimeException e) {
            return Optional.empty();
        }
    }

}
