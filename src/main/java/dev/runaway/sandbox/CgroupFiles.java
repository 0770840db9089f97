// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sandbox;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.OptionalLong;
import java.util.Set;

/** Small reads and writes of cgroupfs files, where a missing file means "gone", not an error. */
public final class CgroupFiles {
    private CgroupFiles() {
    }

    static void write(Path file, String value) throws IOException {
        Files.writeString(file, value);
    }

    /** Writes and reports success; for levers that may be absent on this kernel. */
    static boolean tryWrite(Path file, String value) {
        try {
            Files.writeString(file, value);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    static int readInt(Path file, int fallback) {
        try {
            String text = Files.readString(file).trim();
            return text.equals("max") ? Integer.MAX_VALUE : Integer.parseInt(text);
        } catch (IOException | NumberFormatException e) {
            return fallback;
        }
    }

    /** The number after {@code key} in a "key value" file such as pids.events or cgroup.events. */
    static OptionalLong readKeyed(Path file, String key) {
        return dev.runaway.procfs.CgroupPids.keyed(file, key);
    }

    /**
     * Whether this cgroup or one below it holds a process, from the kernel's own flag in
     * cgroup.events (a few bytes, where the member list of thousands is kilobytes to parse); a
     * cgroup that is gone holds none. Without that file (not v2), from the member lists.
     */
    public static boolean populated(Path dir) {
        Path events = dir.resolve("cgroup.events");
        OptionalLong flag = readKeyed(events, "populated");
        if (flag.isPresent()) return flag.getAsLong() != 0;
        if (!Files.isDirectory(dir)) return false;
        return !membersRecursive(dir).isEmpty();
    }

    /** Members of this cgroup and of every cgroup below it. */
    public static Set<Integer> membersRecursive(Path dir) {
        Set<Integer> pids = new HashSet<>();
        collect(dir, pids);
        return pids;
    }

    private static void collect(Path dir, Set<Integer> into) {
        try {
            for (String line : Files.readAllLines(dir.resolve("cgroup.procs"))) {
                if (!line.isBlank()) into.add(Integer.parseInt(line.trim()));
            }
            try (DirectoryStream<Path> children = Files.newDirectoryStream(dir, Files::isDirectory)) {
                for (Path child : children) collect(child, into);
            }
        } catch (NoSuchFileException gone) {
            // removed while we read: nothing more to count here
        } catch (IOException | RuntimeException e) {
            // unreadable member list, or removed meanwhile: count what we have
        }
    }

    /** Removes a cgroup and its children, deepest first (cgroupfs has no recursive rmdir). */
    static boolean removeTree(Path dir) {
        try (DirectoryStream<Path> children = Files.newDirectoryStream(dir, Files::isDirectory)) {
            for (Path child : children) removeTree(child);
        } catch (IOException e) {
            // gone already, or not a directory
        }
        try {
            Files.deleteIfExists(dir);
            return true;
        } catch (IOException e) {
            return !Files.exists(dir);
        }
    }
}
