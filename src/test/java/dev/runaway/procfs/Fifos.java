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

    /**
     * Lets every read waiting on the FIFO go, and any read that comes later find the file gone.
     * Opened for reading and writing, which never waits (an open for writing alone waits for a
     * reader, and a read never started would hold the test forever); a read blocked in its open
     * wakes then and gets the line or, once this closes, the end.
     */
    public static void release(Path fifo) throws IOException {
        try (var both = new java.io.RandomAccessFile(fifo.toFile(), "rw")) {
            both.write('\n');
            Files.deleteIfExists(fifo);
        }
    }
}
