// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sys;

import com.sun.jna.Library;
import com.sun.jna.Native;

/**
 * libc through JNA without starting a process. Left to itself, JNA runs {@code /sbin/ldconfig -p}
 * when it first loads a library (to learn the search path), and asked for "c" it looks for
 * libc.so, a linker script; a stop's first native call would start a process, which during a
 * fire waits behind the runaway (issue 14: over a minute at 20,000 pressing tasks) and at a task
 * cap cannot start. The platform path is given here instead, and libc is named by its file.
 */
public final class Jna {
    public static final String LIBC = "libc.so.6";
    private static final String PLATFORM_PATH = "jna.platform.library.path";

    private Jna() {
    }

    /** The libc functions of {@code type}. */
    public static <T extends Library> T libc(Class<T> type) {
        knownPaths();
        return Native.load(LIBC, type);
    }

    /** The directories JNA would have asked ldconfig for, unless the user set them. */
    static synchronized void knownPaths() {
        if (System.getProperty(PLATFORM_PATH) != null) return;
        String arch = switch (System.getProperty("os.arch", "")) {
            case "amd64", "x86_64" -> "x86_64-linux-gnu";
            case "aarch64" -> "aarch64-linux-gnu";
            case "riscv64" -> "riscv64-linux-gnu";
            default -> System.getProperty("os.arch", "") + "-linux-gnu";
        };
        System.setProperty(PLATFORM_PATH, String.join(java.io.File.pathSeparator,
                "/lib/" + arch, "/usr/lib/" + arch, "/lib64", "/usr/lib64", "/lib", "/usr/lib"));
    }
}
