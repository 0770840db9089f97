// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.timeline;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Recordings are the recorder's alone and never written through a planted symlink. */
class PrivateFilesTest {
    @TempDir
    Path dir;

    @Test
    void aRecordingAndTheDirectoriesMadeForItArePrivate() throws Exception {
        Path file = dir.resolve("state/runaway/incidents/incident.jsonl");
        try (RecordingWriter w = new RecordingWriter(file, 1 << 20, RecordingWriter.fields().put("source", "test"))) {
            w.record("pulse", RecordingWriter.fields().put("tasks", 1));
        }
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        for (Path d = file.getParent(); !d.equals(dir); d = d.getParent()) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(d))).as(d.toString()).isEqualTo("rwx------");
        }
        // An existing recording with wider permissions is made private when written again.
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        new RecordingWriter(file, 1 << 20, RecordingWriter.fields()).close();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    }

    @Test
    void aPlantedSymlinkIsRefusedAndWhatItPointsAtStaysAsItWas() throws Exception {
        Path precious = Files.writeString(dir.resolve("precious"), "keep me\n");
        Path planted = Files.createSymbolicLink(dir.resolve("incident.jsonl"), precious);
        assertThatThrownBy(() -> new RecordingWriter(planted, 1 << 20, RecordingWriter.fields()))
                .hasMessageContaining("symlink");
        assertThatThrownBy(() -> RecordingWriter.appendingTo(planted)).hasMessageContaining("symlink");
        assertThat(Files.readString(precious)).isEqualTo("keep me\n");

        Path linkedDir = Files.createSymbolicLink(dir.resolve("linked"), Files.createDirectory(dir.resolve("real")));
        assertThatThrownBy(() -> new RecordingWriter(linkedDir.resolve("x.jsonl"), 1 << 20, RecordingWriter.fields()))
                .hasMessageContaining("symlink");
        assertThat(Files.exists(dir.resolve("real/x.jsonl"), LinkOption.NOFOLLOW_LINKS)).isFalse();
    }
}
