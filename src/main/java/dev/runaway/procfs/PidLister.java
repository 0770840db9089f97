// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import com.sun.jna.Memory;
import com.sun.jna.Platform;
import dev.runaway.sys.LibC;

import java.io.File;
import java.util.Arrays;

/**
 * Lists the numeric entries of a /proc directory. At 50,000 processes {@code File.list()}
 * spends ~90 ms making 50,000 strings; reading the directory with getdents64 into one buffer
 * and parsing the names as digits in place takes a fraction of that (see
 * {@code runaway bench scan}, "incremental rescan"). Falls back to {@code File.list()} where
 * the system call is not available.
 */
final class PidLister {
    private static final long SYS_GETDENTS64 = Platform.isIntel() && Platform.is64Bit() ? 217
            : Platform.isARM() && Platform.is64Bit() ? 61 : -1;
    private static final int BUFFER_BYTES = 256 * 1024;

    private final String dir;
    private Memory buffer; // allocated on first use: a reader that only reads files needs none
    private byte[] bytes;
    private int[] pids = new int[4096];

    PidLister(String dir) {
        this.dir = dir;
    }

    int[] list() {
        if (SYS_GETDENTS64 < 0) return listPortably();
        if (buffer == null) {
            buffer = new Memory(BUFFER_BYTES);
            bytes = new byte[BUFFER_BYTES];
        }
        int fd = LibC.INSTANCE.open(dir, LibC.O_RDONLY | LibC.O_DIRECTORY | LibC.O_CLOEXEC);
        if (fd < 0) return listPortably();
        int n = 0;
        try {
            while (true) {
                long got = LibC.INSTANCE.syscall(SYS_GETDENTS64, fd, buffer, BUFFER_BYTES);
                if (got < 0) return listPortably();
                if (got == 0) break;
                buffer.read(0, bytes, 0, (int) got);
                n = parse(bytes, (int) got, n);
            }
        } finally {
            LibC.INSTANCE.close(fd);
        }
        int[] result = Arrays.copyOf(pids, n);
        Arrays.sort(result);
        return result;
    }

    /**
     * struct linux_dirent64 { u64 d_ino; s64 d_off; u16 d_reclen; u8 d_type; char d_name[]; }:
     * the name starts at byte 19 of each record and ends at a NUL.
     */
    private int parse(byte[] b, int length, int n) {
        int at = 0;
        while (at + 19 < length) {
            int reclen = (b[at + 16] & 0xff) | (b[at + 17] & 0xff) << 8;
            if (reclen <= 0) break;
            int pid = 0;
            int i = at + 19;
            boolean digits = b[i] >= '1' && b[i] <= '9';
            for (; digits && i < at + reclen && b[i] != 0; i++) {
                int d = b[i] - '0';
                if (d < 0 || d > 9) digits = false;
                else pid = pid * 10 + d;
            }
            if (digits && pid > 0) {
                if (n == pids.length) pids = Arrays.copyOf(pids, n * 2);
                pids[n++] = pid;
            }
            at += reclen;
        }
        return n;
    }

    private int[] listPortably() {
        String[] names = new File(dir).list();
        if (names == null) return new int[0];
        int[] result = new int[names.length];
        int n = 0;
        for (String name : names) {
            int pid = parsePid(name);
            if (pid > 0) result[n++] = pid;
        }
        result = Arrays.copyOf(result, n);
        Arrays.sort(result);
        return result;
    }

    static int parsePid(String name) {
        if (name.isEmpty() || name.length() > 9 || name.charAt(0) == '0') return -1;
        int value = 0;
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < '0' || c > '9') return -1;
            value = value * 10 + (c - '0');
        }
        return value;
    }
}
