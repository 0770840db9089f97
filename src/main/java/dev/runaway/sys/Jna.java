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
    private static final String BOOT_PATH = "jna.boot.library.path";

    private Jna() {
    }

    /** The libc functions of {@code type}. */
    public static <T extends Library> T libc(Class<T> type) {
        knownPaths();
        return Native.load(LIBC, type);
    }

    /**
     * Where JNA finds its own native part: the copy the build unpacked beside the C programs
     * ({@code target/native/jna}), when there is one; else JNA writes it to a temporary file on
     * every start (about 50 ms of a scan's start, measured; and a file written during a fire).
     * Set before JNA's first use: {@code Main} calls this first.
     */
    public static synchronized void knownPaths() {
        String nativeDir = System.getProperty("runaway.native.dir");
        if (System.getProperty(BOOT_PATH) == null && nativeDir != null) {
            java.nio.file.Path unpacked = java.nio.file.Path.of(nativeDir, "jna", "com", "sun", "jna", com.sun.jna.Platform.RESOURCE_PREFIX);
            if (java.nio.file.Files.isRegularFile(unpacked.resolve("libjnidispatch.so"))) System.setProperty(BOOT_PATH, unpacked.toString());
        }
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
