// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.cli;

import picocli.CommandLine;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads durations as people type them: {@code 90}, {@code 90s}, {@code 10m}, {@code 1h}. */
final class Durations implements CommandLine.ITypeConverter<Duration> {
    private static final Pattern FORM = Pattern.compile("(\\d+)(ms|s|m|h)?");

    @Override
    public Duration convert(String text) {
        Matcher m = FORM.matcher(text.trim());
        if (!m.matches()) throw new CommandLine.TypeConversionException("not a duration (try 90s, 10m, 1h): " + text);
        long n = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "s" : m.group(2);
        return switch (unit) {
            case "ms" -> Duration.ofMillis(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofSeconds(n);
        };
    }
}
