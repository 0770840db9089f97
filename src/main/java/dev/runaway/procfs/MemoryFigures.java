// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.procfs;

/** System memory and swap, in bytes, as the pulse needs them. */
public record MemoryFigures(long totalBytes, long availableBytes, long swapTotalBytes, long swapFreeBytes) {
}
