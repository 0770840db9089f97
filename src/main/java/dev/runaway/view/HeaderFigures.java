// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.view;

import dev.runaway.guard.HeldGroup;
import dev.runaway.model.Units;
import dev.runaway.timeline.GroupPoint;
import dev.runaway.timeline.PulsePoint;

import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The header strip's figures, as text with a severity each, from the newest pulse and the worst
 * group of the newest scan. Both come from the timeline, so a replay shows what live showed. When
 * the guard holds groups (live only: holds are not recorded), a figure more counts them.
 *
 * @param held "1 HELD by the guard" and whose, first in the strip; empty when the guard holds nothing
 */
public record HeaderFigures(List<Figure> figures, Optional<Figure> held) {

    /** One large figure: its caption, its text, and how alarming it is. */
    public record Figure(String caption, String text, Severity severity) {
    }

    public static final List<String> CAPTIONS = List.of("tasks", "forks/s", "memory", "swap", "pressure",
            "worst group", "its rate", "runs out in");

    public static HeaderFigures empty() {
        return new HeaderFigures(CAPTIONS.stream().map(c -> new Figure(c, "-", Severity.CALM)).toList(), Optional.empty());
    }

    /** The figures with nothing held (a replay, or no guard running). */
    public static HeaderFigures of(PulsePoint pulse, GroupPoint worst) {
        return of(pulse, worst, List.of());
    }

    /**
     * @param pulse the newest pulse, or null before the first
     * @param worst the most severe group of the newest scan, or null when there is none
     * @param holds what the running guard holds now ({@link GuardHolds#all}), dry-run holds included
     */
    public static HeaderFigures of(PulsePoint pulse, GroupPoint worst, Collection<HeldGroup> holds) {
        Figure[] f = empty().figures().toArray(new Figure[0]);
        if (pulse != null) {
            double taskShare = pulse.pidMax() > 0 ? (double) pulse.tasks() / pulse.pidMax() : Double.NaN;
            f[0] = new Figure("tasks", pulse.tasks() + (pulse.pidMax() > 0 ? " / " + pulse.pidMax() : ""),
                    Severity.of(taskShare, 0.5, 0.8));
            f[1] = new Figure("forks/s", String.format(Locale.ROOT, "%.0f", pulse.forksPerSecond()),
                    Severity.of(pulse.forksPerSecond(), 200, 2000));
            double memoryShare = pulse.memoryTotalBytes() > 0 ? (double) pulse.memoryUsedBytes() / pulse.memoryTotalBytes() : Double.NaN;
            f[2] = new Figure("memory", Units.bytes(pulse.memoryUsedBytes()) + " of " + Units.bytes(pulse.memoryTotalBytes()),
                    Severity.of(memoryShare, 0.75, 0.9));
            double swapShare = pulse.swapTotalBytes() > 0 ? (double) pulse.swapUsedBytes() / pulse.swapTotalBytes() : Double.NaN;
            f[3] = new Figure("swap", pulse.swapTotalBytes() == 0 ? "none" : Units.bytes(pulse.swapUsedBytes()),
                    Severity.of(swapShare, 0.25, 0.6));
            f[4] = new Figure("pressure", Double.isNaN(pulse.pressureSome10()) ? "n/a"
                    : String.format(Locale.ROOT, "%.1f%%", pulse.pressureSome10()), Severity.of(pulse.pressureSome10(), 5, 20));
        }
        if (worst != null && worst.atCap()) {
            // At a cap: every fork refused, the most severe state, whatever the growth fit says.
            String cap = worst.cap().map(c -> c.text()).orElse("a limit");
            f[5] = new Figure("worst group: " + shortCommand(worst.command()), "AT CAP", Severity.CRITICAL);
            f[6] = new Figure("its rate", worst.forksRefused() >= 0
                    ? String.format(Locale.ROOT, "%,d forks refused", worst.forksRefused())
                    : Units.perSecond(worst.rate()), Severity.CRITICAL);
            f[7] = new Figure("runs out in", "now: " + cap, Severity.CRITICAL);
        } else if (worst != null) {
            Severity growth = switch (worst.tasksGrowth().shape()) {
                case EXPONENTIAL -> Severity.CRITICAL;
                case LINEAR -> worst.rate() >= 10 ? Severity.CRITICAL : Severity.WATCH;
                case STEADY, SHRINKING, UNKNOWN -> Severity.CALM;
            };
            f[5] = new Figure("worst group: " + shortCommand(worst.command()), worst.growthShape(), growth);
            f[6] = new Figure("its rate", Units.perSecond(worst.rate()), growth);
            double left = worst.secondsLeft();
            f[7] = new Figure("runs out in", Double.isNaN(left) ? "-" : String.format(Locale.ROOT, "%.0f s (%s)", left, worst.exhaustedBy()),
                    Double.isNaN(left) ? Severity.CALM : left < 60 ? Severity.CRITICAL : left < 600 ? Severity.WATCH : Severity.CALM);
        }
        return new HeaderFigures(List.of(f), held(holds));
    }

    /**
     * "N HELD by the guard", captioned with the first held group and how many more; a hold waits for
     * a person, so it is watched, not calm. A dry run's holds are counted only when nothing is held.
     */
    static Optional<Figure> held(Collection<HeldGroup> holds) {
        List<HeldGroup> real = holds.stream().filter(h -> !h.dryRun()).toList();
        List<HeldGroup> shown = real.isEmpty() ? List.copyOf(holds) : real;
        if (shown.isEmpty()) return Optional.empty();
        String whose = shortCommand(shown.get(0).key()) + (shown.size() > 1 ? " and " + (shown.size() - 1) + " more" : "");
        return Optional.of(real.isEmpty()
                ? new Figure("guard, dry run: " + whose, shown.size() + " would be held", Severity.WATCH)
                : new Figure("guard: " + whose, real.size() + " HELD by the guard", Severity.WATCH));
    }

    /** The last path element (the whole key when that is too short to tell, like /dev/fd/3): the table shows the whole key. */
    public static String shortCommand(String command) {
        String first = command.split(" ", 2)[0];
        int slash = first.lastIndexOf('/');
        String name = slash >= 0 && first.length() - slash > 4 ? first.substring(slash + 1) + command.substring(first.length()) : command;
        return name.length() > 28 ? name.substring(0, 27) + "…" : name;
    }

    public Severity overall() {
        Severity s = held.map(Figure::severity).orElse(Severity.CALM);
        for (Figure f : figures) s = Severity.worst(s, f.severity());
        return s;
    }
}
