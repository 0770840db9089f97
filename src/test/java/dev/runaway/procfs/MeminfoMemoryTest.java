// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class MeminfoMemoryTest {
    @Test
    void readsTheFourFiguresInBytes() {
        MemoryFigures m = MeminfoMemory.parse("""
                MemTotal:       24622172 kB
                MemFree:        20000000 kB
                MemAvailable:   22500000 kB
                Buffers:          120000 kB
                SwapCached:            0 kB
                SwapTotal:       2097148 kB
                SwapFree:        1048576 kB
                HugePages_Total:       0
                """);
        assertThat(m).isEqualTo(new MemoryFigures(24622172L * 1024, 22500000L * 1024, 2097148L * 1024, 1048576L * 1024));
    }

    @Test
    void anOldKernelWithoutMemAvailableGivesMemFree() {
        assertThat(MeminfoMemory.parse("MemTotal: 100 kB\nMemFree: 40 kB\n").availableBytes()).isEqualTo(40 * 1024);
    }

    @Test
    void theLiveFiguresAreConsistent() {
        MemoryFigures live = new MeminfoMemory(Path.of("/proc")).get();
        assertThat(live.totalBytes()).isGreaterThan(64L << 20);
        assertThat(live.availableBytes()).isBetween(1L, live.totalBytes());
        assertThat(live.swapFreeBytes()).isBetween(0L, live.swapTotalBytes());
    }
}
