// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sys;

import java.io.IOException;

/** A system call failed: its errno (compare with {@link Errno}), its message libc's words for it. */
public final class ErrnoException extends IOException {
    private final int errno;

    ErrnoException(int errno, String words, Throwable cause) {
        super(words, cause);
        this.errno = errno;
    }

    public int errno() {
        return errno;
    }
}
