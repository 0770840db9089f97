// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.ui;

import dev.runaway.model.ProcessIdentity;
import dev.runaway.procfs.FakeProc;
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
        stat("Xvfb");
    }

    private void stat(String comm) throws Exception {
        Files.writeString(proc.resolve("4242/stat"), FakeProc.statLine(4242, comm, 'S', 1, 4242, 4242, 1, 1, 1, START, 100));
    }

    private static final long START = 987_654L;

    @Test
    void aLocalDisplayNamesItsServerByPidAndStartTime() {
        ProcessIdentity xvfb = new ProcessIdentity(4242, START);
        assertThat(DisplayServer.local(":7", tmp, proc)).contains(xvfb);
        assertThat(DisplayServer.local(":7.0", tmp, proc)).contains(xvfb);
        assertThat(DisplayServer.local("unix:7", tmp, proc)).contains(xvfb);
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
        stat("bash");
        assertThat(DisplayServer.local(":7", tmp, proc)).isEmpty();
        Files.delete(proc.resolve("4242/stat"));
        assertThat(DisplayServer.local(":7", tmp, proc)).as("gone").isEmpty();
    }
}
