// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sys;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;

import java.io.IOException;
import java.util.Arrays;

/**
 * The controlling terminal's mode through termios, with no process started: at a task cap
 * {@code stty} cannot run, and a terminal view opened before the fire must still set and give
 * back the mode. Keys are read byte by byte (no line buffering, no echo); Ctrl-C still signals.
 */
public final class Tty implements AutoCloseable {
    interface Calls extends Library {
        Calls INSTANCE = Jna.libc(Calls.class);

        int open(String path, int flags) throws LastErrorException;

        int close(int fd);

        int tcgetattr(int fd, byte[] termios) throws LastErrorException;

        int tcsetattr(int fd, int when, byte[] termios) throws LastErrorException;

        int ioctl(int fd, long request, short[] winsize) throws LastErrorException;
    }

    private static final int O_RDWR = 2;
    private static final int O_NOCTTY = 0x100;
    private static final int O_CLOEXEC = 0x80000;
    private static final int TCSANOW = 0;
    private static final long TIOCGWINSZ = 0x5413;
    /** struct termios is 60 bytes in glibc on Linux (x86_64, aarch64, riscv64); room to spare. */
    private static final int TERMIOS_BYTES = 64;
    /** c_lflag is the fourth 32-bit flag word; c_cc starts after it and the one-byte c_line. */
    private static final int LFLAG_OFFSET = 12;
    private static final int CC_OFFSET = 17;
    private static final int VTIME = 5;
    private static final int VMIN = 6;
    private static final int ICANON = 0x2;
    private static final int ECHO = 0x8;

    private final int fd;
    private final byte[] saved;

    private Tty(int fd, byte[] saved) {
        this.fd = fd;
        this.saved = saved;
    }

    /** Opens the controlling terminal and remembers its mode. */
    public static Tty open(String path) throws IOException {
        int fd;
        try {
            fd = Calls.INSTANCE.open(path, O_RDWR | O_NOCTTY | O_CLOEXEC);
        } catch (LastErrorException e) {
            throw new IOException("cannot open " + path + ": errno " + e.getErrorCode(), e);
        }
        byte[] mode = new byte[TERMIOS_BYTES];
        try {
            Calls.INSTANCE.tcgetattr(fd, mode);
        } catch (LastErrorException e) {
            Calls.INSTANCE.close(fd);
            throw new IOException(path + " is not a terminal: errno " + e.getErrorCode(), e);
        }
        return new Tty(fd, mode);
    }

    /** Keys one at a time, not echoed; reads block until a key comes. */
    public void raw() throws IOException {
        byte[] mode = Arrays.copyOf(saved, saved.length);
        int lflag = readInt(mode, LFLAG_OFFSET) & ~(ICANON | ECHO);
        writeInt(mode, LFLAG_OFFSET, lflag);
        mode[CC_OFFSET + VMIN] = 1;
        mode[CC_OFFSET + VTIME] = 0;
        set(mode);
    }

    /** The mode as it was when opened. */
    public void restore() throws IOException {
        set(saved);
    }

    /** Whether the terminal now has line buffering and echo (what a shell expects). */
    public boolean cooked() throws IOException {
        byte[] now = new byte[TERMIOS_BYTES];
        try {
            Calls.INSTANCE.tcgetattr(fd, now);
        } catch (LastErrorException e) {
            throw new IOException("tcgetattr failed: errno " + e.getErrorCode(), e);
        }
        return (readInt(now, LFLAG_OFFSET) & (ICANON | ECHO)) == (ICANON | ECHO);
    }

    /** {rows, columns}, or empty when the terminal cannot tell (a size of 0). */
    public int[] size() {
        short[] winsize = new short[4];
        try {
            Calls.INSTANCE.ioctl(fd, TIOCGWINSZ, winsize);
        } catch (LastErrorException e) {
            return new int[0];
        }
        int rows = winsize[0] & 0xffff;
        int columns = winsize[1] & 0xffff;
        return rows == 0 || columns == 0 ? new int[0] : new int[] {rows, columns};
    }

    private void set(byte[] mode) throws IOException {
        try {
            Calls.INSTANCE.tcsetattr(fd, TCSANOW, mode);
        } catch (LastErrorException e) {
            throw new IOException("tcsetattr failed: errno " + e.getErrorCode(), e);
        }
    }

    private static int readInt(byte[] b, int at) {
        return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8 | (b[at + 2] & 0xff) << 16 | (b[at + 3] & 0xff) << 24;
    }

    private static void writeInt(byte[] b, int at, int v) {
        b[at] = (byte) v;
        b[at + 1] = (byte) (v >> 8);
        b[at + 2] = (byte) (v >> 16);
        b[at + 3] = (byte) (v >> 24);
    }

    @Override
    public void close() {
        Calls.INSTANCE.close(fd);
    }
}
