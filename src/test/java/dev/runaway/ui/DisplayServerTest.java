// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.ui;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** Which X server the window's overload raise finds: the local one named by its lock file, nothing else. */
class DisplayServerTest {
    @TempDir
    Path dir;
    private Path tmp;
    private Path proc;

    @BeforeEach
    void lockFiles() throws Exception {
        tmp = Files.createDirectories(dir.resolve("tmp"));
        proc = Files.createDirectories(dir.resolve("proc"));
        Files.writeString(tmp.resolve(".X7-lock"), "      4242\n"); // as X servers write it: ten columns
        Files.createDirectories(proc.resolve("4242"));
        Files.writeString(proc.resolve("4242/comm"), "Xvfb\n");
    }

    @Test
    void aLocalDisplayNamesItsServer() {
        assertThat(DisplayServer.local(":7", tmp, proc)).contains(4242);
        assertThat(DisplayServer.local(":7.0", tmp, proc)).contains(4242);
        assertThat(DisplayServer.local("unix:7", tmp, proc)).contains(4242);
    }

    @Test
    void aRemoteOrMissingDisplayHasNone() {
        assertThat(DisplayServer.local("localhost:7.0", tmp, proc)).as("forwarded over SSH").isEmpty();
        assertThat(DisplayServer.local(":8", tmp, proc)).as("no lock file").isEmpty();
        assertThat(DisplayServer.local(null, tmp, proc)).isEmpty();
        assertThat(DisplayServer.local("", tmp, proc)).isEmpty();
    }

    @Test
    void aStaleLockWhosePidIsNowAnotherProgramHasNone() throws Exception {
        Files.writeString(proc.resolve("4242/comm"), "bash\n");
        assertThat(DisplayServer.local(":7", tmp, proc)).isEmpty();
        Files.delete(proc.resolve("4242/comm"));
        assertThat(DisplayServer.local(":7", tmp, proc)).as("gone").isEmpty();
    }
}
