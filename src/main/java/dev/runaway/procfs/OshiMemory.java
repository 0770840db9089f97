// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

import oshi.SystemInfo;
import oshi.hardware.GlobalMemory;
import oshi.hardware.VirtualMemory;
import oshi.util.GlobalConfig;

import java.util.function.Supplier;

/**
 * Memory and swap from OSHI, which reads them well. OSHI caches its answers for 300 ms by
 * default; the pulse runs at 10 Hz, so the cache is shortened before OSHI starts.
 */
public final class OshiMemory implements Supplier<MemoryFigures> {
    static {
        GlobalConfig.set("oshi.util.memoizer.expiration", 50);
    }

    private final GlobalMemory memory = new SystemInfo().getHardware().getMemory();

    @Override
    public MemoryFigures get() {
        VirtualMemory virtual = memory.getVirtualMemory();
        long swapTotal = virtual.getSwapTotal();
        return new MemoryFigures(memory.getTotal(), memory.getAvailable(), swapTotal, swapTotal - virtual.getSwapUsed());
    }
}
