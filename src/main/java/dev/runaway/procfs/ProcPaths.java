package dev.runaway.procfs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The few links of /proc/PID a command key may need: the working directory a relative script
 * path is resolved against, and what a file descriptor is (a script run as /dev/fd/N). Read
 * only for the processes that need them, once per exec (the key is remembered).
 */
public final class ProcPaths {
    /** Knows no process: keys from the command line alone (synthetic and recorded data). */
    public static final ProcPaths NONE = new ProcPaths(null);
    private final Path procRoot;

    public ProcPaths(Path procRoot) {
        this.procRoot = procRoot;
    }

    public static ProcPaths live() {
        return new ProcPaths(Path.of("/proc"));
    }

    /** The working directory of a process; empty when gone or not ours to read. */
    public Optional<String> cwd(int pid) {
        return link(pid + "/cwd");
    }

    /** What file descriptor {@code fd} of a process points at: a path, or "pipe:[N]" and the like. */
    public Optional<String> fd(int pid, int fd) {
        return link(pid + "/fd/" + fd);
    }

    private Optional<String> link(String relative) {
        if (procRoot == null) return Optional.empty();
        try {
            String target = Files.readSymbolicLink(procRoot.resolve(relative)).toString();
            return Optional.of(target.endsWith(" (deleted)") ? target.substring(0, target.length() - 10) : target);
        } catch (IOException | UnsupportedOperationException e) {
            return Optional.empty();
        }
    }
}
