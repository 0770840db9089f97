// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sys;

import java.io.IOException;

/**
 * A system call failed: its errno, to compare with {@link Errno}. The message, libc's words for
 * it, is looked up only when asked: a non-blocking read fails with EAGAIN whenever it is ahead.
 */
public final class ErrnoException extends IOException {
    private final int errno;

    ErrnoException(int errno, Throwable cause) {
        super(cause);
        this.errno = errno;
    }

    public int errno() {
        return errno;
    }

    @Override
    public String getMessage() {
        return LibC.INSTANCE.strerror(errno);
    }
}
