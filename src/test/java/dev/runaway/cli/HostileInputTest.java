// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.cli;

import com.sun.jna.Library;
import com.sun.jna.Native;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * replay and export given what no recorder wrote: a device, a FIFO, a directory, a huge file,
 * absurd numbers. Each is refused with one clear line, at once, with no memory to speak of.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HostileInputTest {
    interface Fifo extends Library {
        Fifo C = Native.load("c", Fifo.class);

        int mkfifo(String path, int mode);
    }

    @TempDir
    Path dir;

    private static void refusedInOneLine(ExportCommandTest.Run run, String why) {
        assertThat(run.status()).as(run.err()).isEqualTo(2);
        assertThat(run.err().strip().lines()).as(run.err()).hasSize(1);
        assertThat(run.err()).contains(why);
    }

    @Test
    void aDeviceAFifoAndADirectoryAreNotRecordings() throws Exception {
        Path fifo = dir.resolve("fifo");
        assertThat(Fifo.C.mkfifo(fifo.toString(), 0600)).isZero();
        for (String file : new String[] {"/dev/zero", fifo.toString(), dir.toString()}) {
            refusedInOneLine(ExportCommandTest.run("replay", file), "not a regular file");
            refusedInOneLine(ExportCommandTest.run("export", file, "--out", dir.resolve("out").toString(), "--csv"), "not a regular file");
        }
        refusedInOneLine(ExportCommandTest.run("replay", dir.resolve("missing.jsonl").toString()), "no such recording");
    }

    @Test
    void aFileLargerThanAnyRecordingIsRefusedUnread() throws Exception {
        Path huge = dir.resolve("huge.jsonl");
        try (RandomAccessFile f = new RandomAccessFile(huge.toFile(), "rw")) {
            f.setLength((256L << 20) + 1); // sparse: nothing written
        }
        refusedInOneLine(ExportCommandTest.run("replay", huge.toString()), "more than a recording can be");
    }

    @Test
    void absurdTimesAreSkippedAndAbsurdRangesRefused() throws Exception {
        Path file = ExportCommandTest.recording(dir);
        String absurd = "{\"type\":\"pulse\",\"time\":\"2026-11-29T10:00:00Z\",\"seconds\":1e300,\"tasks\":5}\n"
                + "{\"type\":\"event\",\"time\":\"2026-11-29T10:00:00Z\",\"seconds\":\"soon\",\"kind\":\"stop-step\"}\n"
                + "{\"type\":\"pulse\",\"seconds\":" + "9".repeat(40) + "}\n";
        Files.writeString(file, absurd, StandardOpenOption.APPEND);
        ExportCommandTest.Run replay = ExportCommandTest.run("replay", file.toString());
        assertThat(replay.status()).as(replay.err()).isZero();
        assertThat(replay.out()).contains("120 pulses").contains("a torn last line was skipped");

        refusedInOneLine(ExportCommandTest.run("export", file.toString(), "--out", dir.resolve("out").toString(), "--png",
                "--from", "-1e15"), "ten years");
        ExportCommandTest.Run wide = ExportCommandTest.run("export", file.toString(), "--out", dir.resolve("wide").toString(),
                "--svg", "--from", "-300000000", "--to", "300000000");
        assertThat(wide.status()).as(wide.err()).isZero();
    }

    @Test
    void anOverlongLineIsSkippedNotHeld() throws Exception {
        Path file = ExportCommandTest.recording(dir);
        byte[] line = new byte[(16 << 20) + 10];
        java.util.Arrays.fill(line, (byte) 'x');
        Files.write(file, line, StandardOpenOption.APPEND);
        Files.writeString(file, "\n", StandardOpenOption.APPEND);
        ExportCommandTest.Run replay = ExportCommandTest.run("replay", file.toString());
        assertThat(replay.status()).as(replay.err()).isZero();
        assertThat(replay.out()).contains("a torn last line was skipped");
    }
}
