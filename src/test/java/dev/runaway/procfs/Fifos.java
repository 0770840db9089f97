// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** For tests: a /proc file that waits (a FIFO in its place, whose open waits for a writer), and its release. */
public final class Fifos {
    interface C extends com.sun.jna.Library {
        C LIBC = dev.runaway.sys.Jna.libc(C.class);

        int mkfifo(String path, int mode);
    }

    private Fifos() {
    }

    /** Replaces the file with a FIFO: a read of it waits until {@link #release}. */
    public static void inPlaceOf(Path file) throws IOException {
        Files.deleteIfExists(file);
        if (C.LIBC.mkfifo(file.toString(), 0600) != 0) throw new IOException("mkfifo " + file + " failed");
    }

    /** Lets the read waiting on the FIFO go (this waits for a reader to open it). */
    public static void release(Path fifo) throws IOException {
        try (var writer = new java.io.FileOutputStream(fifo.toFile())) {
            writer.write('\n');
        }
    }
}
