// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sys;

/**
 * The errno values Runaway tells apart, by name (Linux's numbers, the same on every
 * architecture it runs on: asm-generic/errno-base.h and errno.h). Every comparison of a
 * failed call's errno in the main code uses these.
 */
public final class Errno {
    public static final int EPERM = 1;
    public static final int ENOENT = 2;
    public static final int ESRCH = 3;
    public static final int EINTR = 4;
    public static final int EAGAIN = 11;
    public static final int EACCES = 13;
    public static final int EXDEV = 18;
    public static final int ENOTDIR = 20;
    public static final int EINVAL = 22;
    public static final int ESPIPE = 29;
    public static final int EPIPE = 32;
    public static final int ENOSYS = 38;
    public static final int ELOOP = 40;
    public static final int ENOBUFS = 105;

    private Errno() {
    }
}
