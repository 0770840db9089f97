// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sys;

import com.sun.jna.Memory;
import com.sun.jna.Platform;

/**
 * A directory's raw entries, read with getdents64 into one native buffer the reader keeps and
 * handed over as struct linux_dirent64 records, unparsed: at 50,000 processes making a string
 * per entry of /proc ({@code File.list()}) costs more than the read itself.
 */
public final class DirectoryEntries {
    private static final long SYS_GETDENTS64 = Platform.isIntel() && Platform.is64Bit() ? 217
            : Platform.isARM() && Platform.is64Bit() ? 61 : -1;

    /** A batch of records: {@code length} bytes of linux_dirent64 at the start of {@code records}. */
    public interface Batch {
        void records(byte[] records, int length);
    }

    private final Memory buffer;
    private final byte[] bytes;

    public DirectoryEntries(int bufferBytes) {
        this.buffer = new Memory(bufferBytes);
        this.bytes = new byte[bufferBytes];
    }

    /** Whether this architecture has the system call (its number is known here). */
    public static boolean available() {
        return SYS_GETDENTS64 >= 0;
    }

    /** Hands every batch of {@code dir}'s records to {@code batch}; false when the directory could not be read to its end. */
    public boolean read(String dir, Batch batch) {
        int fd = LibC.INSTANCE.open(dir, LibC.O_RDONLY | LibC.O_DIRECTORY | LibC.O_CLOEXEC);
        if (fd < 0) return false;
        try {
            while (true) {
                long got = LibC.INSTANCE.syscall(SYS_GETDENTS64, fd, buffer, bytes.length);
                if (got < 0) return false;
                if (got == 0) return true;
                buffer.read(0, bytes, 0, (int) got);
                batch.records(bytes, (int) got);
            }
        } finally {
            LibC.INSTANCE.close(fd);
        }
    }
}
