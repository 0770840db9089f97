// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sys;

/** The signals Runaway sends, by name (Linux's numbers on x86_64, aarch64 and riscv64). */
public final class Signal {
    /** Asks a JVM for a thread dump (a bench's stuck child, before it is killed). */
    public static final int SIGQUIT = 3;
    public static final int SIGKILL = 9;
    public static final int SIGCONT = 18;
    public static final int SIGSTOP = 19;

    private Signal() {
    }
}
