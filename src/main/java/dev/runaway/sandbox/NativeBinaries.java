// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sandbox;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds the C programs built from src/main/c: beside the build output in a checkout
 * (target/native), where the package installs them (/usr/libexec/runaway), or where the
 * {@code runaway.native.dir} property or {@code RUNAWAY_NATIVE_DIR} points.
 */
public final class NativeBinaries {
    public static final String SANDBOX = "runaway-sandbox";
    public static final String DRILL_WORKER = "runaway-drill-worker";

    private NativeBinaries() {
    }

    public static Path find(String name) {
        List<Path> tried = new ArrayList<>();
        for (Path dir : candidates()) {
            Path file = dir.resolve(name);
            if (Files.isExecutable(file)) return file.toAbsolutePath();
            tried.add(file);
        }
        throw new IllegalStateException(name + " was not found (looked at " + tried
                + "); build it with: mvn -q package -DskipTests, or set runaway.native.dir");
    }

    private static List<Path> candidates() {
        List<Path> dirs = new ArrayList<>();
        String property = System.getProperty("runaway.native.dir");
        if (property != null && !property.isBlank()) dirs.add(Path.of(property));
        String env = System.getenv("RUNAWAY_NATIVE_DIR");
        if (env != null && !env.isBlank()) dirs.add(Path.of(env));
        try {
            // target/classes or target/runaway.jar: the programs sit in target/native.
            Path code = Path.of(NativeBinaries.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (code.getParent() != null) dirs.add(code.getParent().resolve("native"));
        } catch (URISyntaxException | SecurityException | NullPointerException ignored) {
            // no code source (unusual class loader): the other places remain
        }
        dirs.add(Path.of("/usr/libexec/runaway"));
        return dirs;
    }
}
