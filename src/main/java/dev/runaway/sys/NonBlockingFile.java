// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sys;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Pointer;

import java.nio.file.Path;

/**
 * A file read through a raw non-blocking descriptor, one read(2) at a time, for what Java lacks:
 * a /dev/kmsg read returns exactly one record per read(2), which no Java stream promises, and
 * only lseek(SEEK_END) on the descriptor skips the records already in the ring buffer. Failed
 * calls throw {@link ErrnoException} with the errno, for the caller to tell apart.
 */
public final class NonBlockingFile implements AutoCloseable {
    private static final int O_RDONLY = 0;
    private static final int O_NONBLOCK = 0x800;
    private static final int O_CLOEXEC = 0x80000;
    private static final int SEEK_END = 2;
    private static final short POLLIN = 0x1;

    interface Calls extends Library {
        Calls INSTANCE = Jna.libc(Calls.class);

        int open(String path, int flags) throws LastErrorException;

        long read(int fd, byte[] buffer, long count) throws LastErrorException;

        long lseek(int fd, long offset, int whence) throws LastErrorException;

        /** poll(fds, nfds, timeout) on one struct pollfd {int fd; short events; short revents;}. */
        int poll(Pointer fds, long nfds, int timeoutMillis) throws LastErrorException;

        int close(int fd);
    }

    private final int fd;

    private NonBlockingFile(int fd) {
        this.fd = fd;
    }

    /** Opens {@code path} for reading, non-blocking. */
    public static NonBlockingFile open(Path path) throws ErrnoException {
        try {
            return new NonBlockingFile(Calls.INSTANCE.open(path.toString(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
        } catch (LastErrorException e) {
            throw failed(e);
        }
    }

    /** Moves to the end of the file (fails with {@link Errno#ESPIPE} on a pipe, which has none). */
    public void seekEnd() throws ErrnoException {
        try {
            Calls.INSTANCE.lseek(fd, 0, SEEK_END);
        } catch (LastErrorException e) {
            throw failed(e);
        }
    }

    /** One read(2) into {@code buffer}: the bytes read, 0 at a plain file's end. */
    public long read(byte[] buffer) throws ErrnoException {
        try {
            return Calls.INSTANCE.read(fd, buffer, buffer.length);
        } catch (LastErrorException e) {
            throw failed(e);
        }
    }

    /** Waits up to {@code waitMillis} for something to read; returns early when interrupted by a signal (EINTR). */
    public void awaitReadable(int waitMillis) {
        try (Memory pollfd = new Memory(8)) {
            pollfd.setInt(0, fd);
            pollfd.setShort(4, POLLIN);
            pollfd.setShort(6, (short) 0);
            Calls.INSTANCE.poll(pollfd, 1, waitMillis);
        } catch (LastErrorException interrupted) {
            // EINTR: the caller reads again, and waits again on its next call
        }
    }

    @Override
    public void close() {
        Calls.INSTANCE.close(fd);
    }

    private static ErrnoException failed(LastErrorException e) {
        return new ErrnoException(e.getErrorCode(), e);
    }
}
