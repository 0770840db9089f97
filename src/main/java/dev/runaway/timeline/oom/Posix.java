// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.timeline.oom;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Pointer;

/**
 * The libc calls reading /dev/kmsg needs and Java lacks: a kmsg read returns exactly one
 * record per read(2), which no Java stream promises, and only lseek(SEEK_END) on the
 * descriptor skips the records already in the ring buffer.
 */
interface Posix extends Library {
    Posix INSTANCE = dev.runaway.sys.Jna.libc(Posix.class);

    int O_RDONLY = 0;
    int O_NONBLOCK = 0x800;
    int O_CLOEXEC = 0x80000;
    int SEEK_END = 2;
    short POLLIN = 0x1;
    int CLOCK_REALTIME = 0;
    int CLOCK_MONOTONIC = 1;

    int EINTR = 4;
    int EAGAIN = 11;
    int EINVAL = 22;
    int ESPIPE = 29;
    int EPIPE = 32;

    int open(String path, int flags) throws LastErrorException;

    long read(int fd, byte[] buffer, long count) throws LastErrorException;

    long lseek(int fd, long offset, int whence) throws LastErrorException;

    /** poll(fds, nfds, timeout) on one struct pollfd {int fd; short events; short revents;}. */
    int poll(Pointer fds, long nfds, int timeoutMillis) throws LastErrorException;

    int close(int fd);

    /** struct timespec as two longs (tv_sec, tv_nsec) on the 64-bit ABIs Runaway runs on. */
    int clock_gettime(int clock, long[] timespec);

    String strerror(int errno);
}
