// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import dev.runaway.model.Pressure;
import dev.runaway.model.PulseSample;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class PulseReaderTest {
    private static final long GIB = 1024L * 1024 * 1024;
    private static final MemoryFigures MEMORY = new MemoryFigures(16 * GIB, 10 * GIB, 4 * GIB, 3 * GIB);

    @TempDir
    Path dir;

    private FakeProc proc;

    @BeforeEach
    void setUp() {
        proc = new FakeProc(dir.resolve("proc"));
        proc.loadavg("0.67 0.85 0.59 1/83 21241\n")
                .stat("cpu  10132153 290696 3084719 46828483 16683 0 25195 0 0 0\n"
                        + "cpu0 1393280 32966 572056 13343292 6130 0 17875 0 0 0\n"
                        + "intr 199292 0 0\n"
                        + "ctxt 1990473\n"
                        + "btime 1062191376\n"
                        + "processes 15862\n"
                        + "procs_running 2\n"
                        + "procs_blocked 0\n")
                .pidMax(32768)
                .threadsMax(126512);
    }

    private PulseSample read() {
        return new PulseReader(proc.root(), () -> MEMORY).read();
    }

    @Test
    void tasksComeFromTheFourthFieldOfLoadavg() {
        assertThat(read().tasks()).isEqualTo(83);
    }

    @Test
    void forksSinceBootComeFromTheProcessesLine() {
        assertThat(read().forksSinceBoot()).isEqualTo(15862L);
    }

    @Test
    void pressureIsParsedFromSomeAndFullLines() {
        proc.pressure("some avg10=1.50 avg60=0.00 avg300=0.00 total=1234\n"
                + "full avg10=0.25 avg60=0.00 avg300=0.00 total=99\n");

        assertThat(read().pressure()).contains(new Pressure(1.5, 0.25, 1234, 99));
    }

    @Test
    void absentPressureFileIsEmpty() {
        assertThat(read().pressure()).isEmpty();
    }

    @Test
    void kernelLimitsAreRead() {
        PulseSample pulse = read();

        assertThat(pulse.pidMax()).isEqualTo(32768);
        assertThat(pulse.threadsMax()).isEqualTo(126512);
    }

    @Test
    void memoryFiguresComeFromTheSupplier() {
        PulseSample pulse = read();

        assertThat(pulse.memoryTotalBytes()).isEqualTo(16 * GIB);
        assertThat(pulse.memoryAvailableBytes()).isEqualTo(10 * GIB);
        assertThat(pulse.swapTotalBytes()).isEqualTo(4 * GIB);
        assertThat(pulse.swapFreeBytes()).isEqualTo(3 * GIB);
        assertThat(pulse.memoryUsedBytes()).isEqualTo(6 * GIB);
        assertThat(pulse.swapUsedBytes()).isEqualTo(GIB);
    }

    @Test
    void missingFilesGiveMinusOne() {
        PulseSample pulse = new PulseReader(dir.resolve("empty"), () -> MEMORY).read();

        assertThat(pulse.tasks()).isEqualTo(-1);
        assertThat(pulse.forksSinceBoot()).isEqualTo(-1L);
        assertThat(pulse.pidMax()).isEqualTo(-1);
        assertThat(pulse.threadsMax()).isEqualTo(-1);
        assertThat(pulse.pressure()).isEmpty();
    }

    @Test
    void monotonicTimeDoesNotGoBackwards() {
        PulseReader reader = new PulseReader(proc.root(), () -> MEMORY);

        PulseSample first = reader.read();
        PulseSample second = reader.read();

        assertThat(second.monotonicNanos()).isGreaterThanOrEqualTo(first.monotonicNanos());
        assertThat(second.time()).isAfterOrEqualTo(first.time());
    }
}
