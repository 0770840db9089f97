// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.timeline;

import com.fasterxml.jackson.databind.JsonNode;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A recorded incident read back: its timeline with every rate derived again from the raw
 * figures, and the scans as they were recorded live (to check that replay equals live).
 *
 * @param files           the files read, oldest first (a rotated FILE.1, then FILE)
 * @param end             the {@code end} record of a finished {@code runaway run}, if any
 * @param tornLineSkipped a recorder killed mid-line left a torn last line, which was skipped
 */
public record Incident(List<Path> files, JsonNode header, Timeline timeline, List<GroupScan> recordedScans,
                       Optional<JsonNode> end, boolean tornLineSkipped) {
}
