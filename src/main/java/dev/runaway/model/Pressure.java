// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.model;

/**
 * Memory pressure from /proc/pressure/memory: the share of time in the last 10 s that some
 * (or all) non-idle tasks were stalled on memory, in percent, and the total stall time.
 */
public record Pressure(double someAvg10, double fullAvg10, long someTotalMicros, long fullTotalMicros) {
}
