// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop;

import dev.runaway.stop.plan.Disposable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The plan's own copy of the helper's file rules (no process is started here). */
class DisposableTest {
    @TempDir
    Path tmp; // under /tmp: a disposable root

    private Path executable(Path dir, String name) throws Exception {
        Path file = Files.createFile(dir.resolve(name));
        Files.setAttribute(file, "unix:mode", 0755);
        return file;
    }

    @Test
    void aRegularFileUnderTmpIsDisposable() throws Exception {
        Disposable d = new Disposable(List.of(Path.of("/tmp")), Path.of("/nonexistent-home"));
        assertThat(d.check(executable(tmp, "tool").toString()).disposable()).isTrue();
        assertThat(new Disposable(List.of(), Path.of("/nonexistent-home")).check(executable(tmp, "other").toString())
                .disposable()).as("without /tmp among the roots").isFalse();
    }

    @Test
    void systemPathsSymlinksHardLinksSetuidAndDirectoriesAreNot() throws Exception {
        Disposable d = new Disposable(List.of(Path.of("/tmp"), Path.of("/usr/local")), Path.of("/nonexistent-home"));
        assertThat(d.check("/usr/bin/python3").why()).contains("not disposable (a system path)");
        assertThat(d.check("/usr/local/bin/anything").disposable()).as("a system path even when configured").isFalse();
        Path tool = executable(tmp, "tool");
        Path link = Files.createSymbolicLink(tmp.resolve("link"), tool);
        assertThat(d.check(link.toString()).why()).contains("symlink");
        Path twin = Files.createLink(tmp.resolve("twin"), executable(tmp, "original"));
        assertThat(d.check(twin.toString()).why()).contains("hard link");
        Path setuid = executable(tmp, "setuid");
        Files.setAttribute(setuid, "unix:mode", 04755);
        assertThat(d.check(setuid.toString()).why()).contains("setuid");
        assertThat(d.check(tmp.toString()).why()).contains("not a regular file");
        assertThat(d.check("relative/tool").disposable()).isFalse();
        assertThat(d.check(tmp + "/../x").disposable()).isFalse();
    }

    @Test
    void buildOutputUnderTheHomeIsDisposableAndTheRestOfTheHomeIsNot() throws Exception {
        Path home = Files.createDirectory(tmp.resolve("home"));
        Disposable d = new Disposable(List.of(), home);
        Path target = Files.createDirectories(home.resolve("project/target/native"));
        assertThat(d.check(executable(target, "worker").toString()).why()).contains("build output");
        Path cache = Files.createDirectories(home.resolve(".cache/tool"));
        assertThat(d.check(executable(cache, "cached").toString()).disposable()).isTrue();
        Path bin = Files.createDirectories(home.resolve("bin"));
        assertThat(d.check(executable(bin, "mine").toString()).why()).contains("not disposable");
    }
}
