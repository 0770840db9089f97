// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.cli;

import dev.runaway.timeline.IncidentRecorder;
import dev.runaway.timeline.RecordingWriter;
import dev.runaway.timeline.Timeline;
import dev.runaway.timeline.oom.OomEvent;
import dev.runaway.timeline.oom.OomHistory;
import dev.runaway.timeline.oom.OomTimeline;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code runaway oom}: past out-of-memory kills from the logs, as a list or an incident file to chart. */
@Command(name = "oom", mixinStandardHelpOptions = true,
        description = {"Lists past out-of-memory kills: the kernel's (one process each) and systemd-oomd's (a whole cgroup,"
                + " with how many processes went), from the journal where it has them, else the kernel's ring buffer.",
                "With --record FILE they become an incident file: 'runaway export FILE --out DIR' charts them."})
public final class OomCommand implements Callable<Integer> {
    private static final DateTimeFormatter LOCAL = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    @Spec
    CommandSpec spec;

    @Option(names = "--since", paramLabel = "TIME", defaultValue = "24h", converter = Since.class,
            description = "from: an ISO time (2026-11-28T09:00:00Z), a local date or date and time (2026-11-28, "
                    + "'2026-11-28 09:00'), today, yesterday, or an age (90m, 24h, 7d) (default: ${DEFAULT-VALUE})")
    Instant since;

    @Option(names = "--until", paramLabel = "TIME", converter = Since.class, description = "to (default: now)")
    Instant until;

    @Option(names = "--record", paramLabel = "FILE", description = "also write the kills as an incident file")
    Path record;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Instant to = until != null ? until : Instant.now();
        if (!since.isBefore(to)) throw new CommandLine.ParameterException(spec.commandLine(), "--since must be before --until");
        OomHistory.Result history = OomHistory.read(since, to);
        out.printf("%d out-of-memory kills from %s to %s (source: %s)%n", history.events().size(),
                LOCAL.format(since.atZone(ZoneId.systemDefault())), LOCAL.format(to.atZone(ZoneId.systemDefault())),
                history.source());
        for (OomEvent e : history.events()) {
            out.printf("  %s  %s%n", LOCAL.format(e.time().atZone(ZoneId.systemDefault())), dev.runaway.model.SafeText.terminal(e.summary())); // a victim's name is its owner's
        }
        if (record != null) {
            Timeline timeline = new Timeline(since, 0, "oom history");
            var header = RecordingWriter.fields().put("source", "oom history").put("started", since.toString())
                    .put("until", to.toString()).put("oomSource", history.source());
            try (IncidentRecorder recorder = new IncidentRecorder(timeline, Optional.of(new RecordingWriter(record,
                    Long.MAX_VALUE, header)))) {
                for (OomEvent e : history.events()) recorder.event(OomTimeline.event(e, timeline));
            }
            out.println("wrote " + record);
        }
        return 0;
    }

    /** Times as people type them: ISO instants, local dates and times, or an age before now. */
    static final class Since implements CommandLine.ITypeConverter<Instant> {
        @Override
        public Instant convert(String text) {
            String t = text.trim();
            if (t.equals("today")) return LocalDate.now().atStartOfDay(ZoneId.systemDefault()).toInstant();
            if (t.equals("yesterday")) return LocalDate.now().minusDays(1).atStartOfDay(ZoneId.systemDefault()).toInstant();
            if (t.matches("\\d+[mhd]")) {
                long n = Long.parseLong(t.substring(0, t.length() - 1));
                long seconds = switch (t.charAt(t.length() - 1)) {
                    case 'm' -> n * 60;
                    case 'h' -> n * 3600;
                    default -> n * 86400;
                };
                return Instant.now().minusSeconds(seconds);
            }
            try {
                if (t.endsWith("Z") || t.matches(".*[+-]\\d\\d:\\d\\d$")) return java.time.OffsetDateTime.parse(t).toInstant();
                if (t.matches("\\d{4}-\\d\\d-\\d\\d")) return LocalDate.parse(t).atStartOfDay(ZoneId.systemDefault()).toInstant();
                return LocalDateTime.parse(t.replace(' ', 'T')).atZone(ZoneId.systemDefault()).toInstant();
            } catch (DateTimeParseException e) {
                throw new CommandLine.TypeConversionException("not a time (try 2026-11-28, '2026-11-28 09:00', 24h): " + text);
            }
        }
    }
}
