// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sys;

import com.sun.jna.Library;
import com.sun.jna.LastErrorException;
import com.sun.jna.Pointer;

/** The few libc calls Java has no API for: signals other than SIGTERM/SIGKILL ({@link Signal}), and our uid. */
public interface LibC extends Library {
    LibC INSTANCE = Jna.libc(LibC.class);

    int kill(int pid, int signal);

    int geteuid();

    /** Dropping privilege for good: every thread (glibc applies it process-wide). */
    int setresuid(int ruid, int euid, int suid);

    int setresgid(int rgid, int egid, int sgid);

    int setgroups(long size, int[] list);

    int getpagesize();

    /** libc's words for an errno. */
    String strerror(int errno);

    int CLOCK_REALTIME = 0;
    int CLOCK_MONOTONIC = 1;
    int CLOCK_BOOTTIME = 7;

    /** clock_gettime(clock, timespec): the buffer gets seconds and nanoseconds (two longs on 64-bit Linux). */
    int clock_gettime(int clock, long[] timespec);

    /** Schedules every dirty page for writing back; returns once written (Linux). */
    void sync();

    int O_RDONLY = 0;
    int O_DIRECTORY = 0x10000;
    int O_CLOEXEC = 0x80000;
    /** A descriptor that only names a file (no read, no write): for a socket, its inode to connect through /proc/self/fd. */
    int O_PATH = 0x200000;
    int O_NOFOLLOW = 0x20000;

    int open(String path, int flags);

    int close(int fd);

    long readlink(String path, byte[] buffer, long size);

    /** glibc 2.33 and later export stat itself; the buffer is a raw struct stat. */
    int stat(String path, byte[] statBuffer);

    /** pidfd_open(pid, flags): a descriptor that names this process and no later one. */
    int syscall(long number, int pid, int flags) throws LastErrorException;

    /** pidfd_send_signal(pidfd, sig, info, flags). */
    int syscall(long number, int pidfd, int signal, Pointer info, int flags) throws LastErrorException;

    /** A raw system call with three int arguments (setresuid, setresgid: for the calling thread alone). */
    int syscall(long number, int a, int b, int c) throws LastErrorException;

    /** A raw system call with three arguments (getdents64: fd, buffer, size). */
    long syscall(long number, long a, Pointer b, long c);

    int PR_SET_DUMPABLE = 4;
    int PR_GET_DUMPABLE = 3;

    /** prctl(option, ...): PR_SET_DUMPABLE 0 keeps other processes of the user out of /proc/self/fd. */
    int prctl(int option, long arg2, long arg3, long arg4, long arg5);
}
