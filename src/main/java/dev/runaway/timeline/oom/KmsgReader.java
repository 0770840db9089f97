// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.timeline.oom;

import dev.runaway.sys.Errno;
import dev.runaway.sys.ErrnoException;
import dev.runaway.sys.NonBlockingFile;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads /dev/kmsg (or, for tests, any file written in its format) through a raw non-blocking
 * descriptor. A kmsg read(2) returns exactly one record; it fails with EINVAL when the buffer is
 * smaller than the record (the buffer grows and the read is retried) and with EPIPE when
 * records were overwritten in the ring buffer before we read them (counted in {@link #lost()};
 * the next read returns the oldest record still there). With no new record it fails with
 * EAGAIN, and poll(2) waits for one. A plain file instead returns several lines per read and 0
 * at its end; both are split into lines here, so a test can append records to a file and the
 * reader follows it like {@code tail -f}.
 */
final class KmsgReader implements AutoCloseable {
    private static final int FIRST_BUFFER = 8192;
    private static final int MAX_BUFFER = 1 << 20;
    private static final long PLAIN_FILE_WAIT_MILLIS = 100;

    private final Path path;
    private final NonBlockingFile file;
    private final ByteArrayOutputStream partial = new ByteArrayOutputStream();
    private byte[] buffer;
    private long lost;
    private int grown;
    private boolean closed;

    /**
     * Opens {@code path}; {@code fromEnd} skips every record already there (a live reader wants
     * only new ones; a history reads the ring buffer from its oldest record).
     */
    KmsgReader(Path path, boolean fromEnd) throws IOException {
        this(path, fromEnd, FIRST_BUFFER);
    }

    /** With a first buffer of {@code bufferBytes} (tests make it tiny to see a kmsg read fail with EINVAL and grow it). */
    KmsgReader(Path path, boolean fromEnd, int bufferBytes) throws IOException {
        this.path = path;
        this.buffer = new byte[bufferBytes];
        try {
            file = NonBlockingFile.open(path);
        } catch (ErrnoException e) {
            throw new IOException(path + " is not readable: " + e.getMessage(), e);
        }
        if (fromEnd) {
            try {
                file.seekEnd();
            } catch (ErrnoException e) {
                if (e.errno() != Errno.ESPIPE) { // a pipe has no end to seek to: everything in it is new
                    file.close();
                    throw new IOException("cannot seek to the end of " + path + ": " + e.getMessage(), e);
                }
            }
        }
    }

    /**
     * The lines readable now; when there are none, waits up to {@code waitMillis} for some.
     * Continuation lines (starting with a space) are returned too; {@link KmsgRecord#parse} skips them.
     */
    synchronized List<String> read(int waitMillis) throws IOException {
        List<String> lines = new ArrayList<>();
        boolean waited = false;
        while (!closed) {
            long n;
            try {
                n = file.read(buffer);
            } catch (ErrnoException e) {
                int errno = e.errno();
                if (errno == Errno.EINTR) continue;
                if (errno == Errno.EPIPE) {
                    lost++;
                    continue;
                }
                if (errno == Errno.EINVAL && buffer.length < MAX_BUFFER) {
                    buffer = new byte[buffer.length * 2];
                    grown++;
                    continue;
                }
                if (errno != Errno.EAGAIN) throw new IOException("reading " + path + ": " + e.getMessage(), e);
                if (!lines.isEmpty() || waited || waitMillis <= 0) break;
                file.awaitReadable(waitMillis);
                waited = true;
                continue;
            }
            if (n > 0) {
                split(n, lines);
                continue;
            }
            // 0: the end of a plain file (a device never returns it); wait once, as for EAGAIN
            if (!lines.isEmpty() || waited || waitMillis <= 0) break;
            sleep(Math.min(waitMillis, PLAIN_FILE_WAIT_MILLIS));
            waited = true;
        }
        return lines;
    }

    /** How often a record did not fit the buffer and it grew. */
    int grown() {
        return grown;
    }

    /** Records lost to the ring buffer's overwriting while we were not reading. */
    long lost() {
        return lost;
    }

    private void split(long n, List<String> lines) {
        int start = 0;
        for (int i = 0; i < n; i++) {
            if (buffer[i] != '\n') continue;
            partial.write(buffer, start, i - start);
            lines.add(partial.toString(StandardCharsets.UTF_8));
            partial.reset();
            start = i + 1;
        }
        partial.write(buffer, start, (int) n - start); // a plain file's line still being written
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        file.close();
    }
}
