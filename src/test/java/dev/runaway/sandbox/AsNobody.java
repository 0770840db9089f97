// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sandbox;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * For tests that run a JVM as {@code nobody} (through setpriv, inside their own sandbox):
 * nobody cannot read /root/.m2 or perhaps the checkout, so the classpath and the native
 * programs are copied into a folder it can read; its findings come back as "key value" lines.
 */
public final class AsNobody {
    private AsNobody() {
    }

    /** Copies this JVM's test classpath and the native programs into DIR; returns the new classpath. */
    public static String readableClasspath(Path dir) throws Exception {
        List<String> entries = new ArrayList<>();
        int n = 0;
        for (String entry : System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")).split(File.pathSeparator)) {
            Path from = Path.of(entry);
            if (!Files.exists(from)) continue;
            Path to = dir.resolve("cp" + n++ + (Files.isDirectory(from) ? "" : ".jar"));
            copy(from, to);
            entries.add(to.toString());
        }
        copy(Path.of(System.getProperty("runaway.native.dir")), dir.resolve("native"));
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.toList()) {
                Files.setAttribute(p, "unix:mode", Files.isDirectory(p) || Files.isExecutable(p) ? 0777 : 0644);
            }
        }
        return String.join(File.pathSeparator, entries);
    }

    /** The first value of each key in "key value" lines. */
    public static Map<String, String> keyValues(String output) {
        Map<String, String> found = new HashMap<>();
        for (String line : output.split("\n")) {
            int space = line.indexOf(' ');
            if (space > 0) found.putIfAbsent(line.substring(0, space), line.substring(space + 1));
        }
        return found;
    }

    private static void copy(Path from, Path to) throws Exception {
        if (!Files.isDirectory(from)) {
            Files.copy(from, to, StandardCopyOption.COPY_ATTRIBUTES);
            return;
        }
        try (Stream<Path> all = Files.walk(from)) {
            for (Path p : all.toList()) {
                Path dest = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) Files.createDirectories(dest);
                else Files.copy(p, dest, StandardCopyOption.COPY_ATTRIBUTES);
            }
        }
    }
}
