// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.analysis;

import dev.runaway.model.ProcessSample;
import dev.runaway.procfs.ProcPaths;

/**
 * What a process was started to do, beyond its command key: its whole command line and its
 * working directory, as one 64-bit digest. A runaway recursion starts the same invocation again
 * and again down one line (deploy.sh runs the tests, a test runs deploy.sh, the same words in
 * the same directory); a build that descends does not: {@code make -C sub} runs in another
 * directory at each level, a task runner in each package's, {@code git submodule foreach} in
 * each submodule's, Makefile.build with another {@code obj=}. Read once per exec, with the key
 * (one readlink of /proc/PID/cwd); a {@code make -C} that changes directory after its exec is
 * seen in its parent's or its own, both another level's.
 */
final class Invocations {
    /** Not known: a ghost the scans never saw, a command line not read yet, a kernel thread. */
    static final long UNKNOWN = 0;

    private Invocations() {
    }

    static long of(ProcessSample p, ProcPaths paths) {
        if (p.cmdlineUnread() || p.cmdline().isEmpty()) return UNKNOWN;
        long h = 0xcbf29ce484222325L;
        for (String arg : p.cmdline()) h = mix(mix(h, arg), "\0");
        h = mix(h, "\1" + paths.cwd(p.pid()).orElse(""));
        return h == UNKNOWN ? 1 : h;
    }

    /** FNV-1a over the string's chars. */
    private static long mix(long h, String s) {
        for (int i = 0; i < s.length(); i++) {
            h ^= s.charAt(i);
            h *= 0x100000001b3L;
        }
        return h;
    }
}
