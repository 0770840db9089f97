// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.export;

import java.nio.file.Path;
import java.time.ZoneId;
import java.util.EnumSet;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * What to export and how.
 *
 * @param out            the directory written to (created when missing)
 * @param formats        what to write; all of them when empty
 * @param range          only this stretch of the timeline (seconds since it started)
 * @param zone           the zone clock times are shown in (the machine's by default)
 * @param width          chart width in pixels at 1x
 * @param height         chart height in pixels at 1x
 * @param hiDpi          also write each PNG at 2x ({@code NAME@2x.png})
 * @param memoryCapBytes a memory limit to mark on the memory chart, when known
 * @param groups         the command keys the export is about; empty: the groups the guided stop stopped
 */
public record ExportOptions(Path out, Set<Format> formats, Optional<TimeRange> range, ZoneId zone, int width,
                            int height, boolean hiDpi, OptionalLong memoryCapBytes, java.util.List<String> groups) {
    public static final int WIDTH = 1200;
    public static final int HEIGHT = 500;

    public ExportOptions {
        formats = formats.isEmpty() ? EnumSet.allOf(Format.class) : EnumSet.copyOf(formats);
        if (width < 300 || height < 200) throw new IllegalArgumentException("a chart needs at least 300x200 pixels");
        groups = java.util.List.copyOf(groups);
    }

    /** Every format into {@code out}, 1200x500, local time, the whole timeline. */
    public static ExportOptions to(Path out) {
        return new ExportOptions(out, Set.of(), Optional.empty(), ZoneId.systemDefault(), WIDTH, HEIGHT, false,
                OptionalLong.empty(), java.util.List.of());
    }

    public ExportOptions formats(Set<Format> chosen) {
        return new ExportOptions(out, chosen, range, zone, width, height, hiDpi, memoryCapBytes, groups);
    }

    public ExportOptions range(TimeRange r) {
        return new ExportOptions(out, formats, Optional.of(r), zone, width, height, hiDpi, memoryCapBytes, groups);
    }

    public ExportOptions zone(ZoneId z) {
        return new ExportOptions(out, formats, range, z, width, height, hiDpi, memoryCapBytes, groups);
    }

    public ExportOptions size(int w, int h) {
        return new ExportOptions(out, formats, range, zone, w, h, hiDpi, memoryCapBytes, groups);
    }

    public ExportOptions hiDpi(boolean on) {
        return new ExportOptions(out, formats, range, zone, width, height, on, memoryCapBytes, groups);
    }

    public ExportOptions memoryCap(long bytes) {
        return new ExportOptions(out, formats, range, zone, width, height, hiDpi, OptionalLong.of(bytes), groups);
    }

    /** The export about these groups (command keys as scan shows them), whatever was stopped. */
    public ExportOptions groups(java.util.List<String> keys) {
        return new ExportOptions(out, formats, range, zone, width, height, hiDpi, memoryCapBytes, keys);
    }

    public boolean wants(Format f) {
        return formats.contains(f);
    }
}
