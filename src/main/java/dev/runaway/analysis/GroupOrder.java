// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.analysis;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Severity: groups ranked by what they threaten. First the tier (at a cap now, heading to a
 * limit, growing, steady), then within it what makes one worse than another (the larger
 * group at a cap, the sooner exhaustion, the faster growth; among the steady, recursion, then
 * size). The console's own processes are never above anyone's.
 *
 * <p>The worst group has hysteresis ({@link Worst}): a challenger of the same tier must lead
 * for {@link Worst#HOLD_SECONDS} before it replaces the incumbent, so a short-lived group that
 * grows for one scan (an apt-get, a shell running a file descriptor) does not take the header
 * from a group pressing on its cap.
 */
public final class GroupOrder {
    /** Growth slower than this is noise: a build starting a few compilers, a shell's pipeline. */
    public static final double GROWING_TASKS_PER_SECOND = 0.5;

    private GroupOrder() {
    }

    /** Least to most severe. */
    public enum Tier { SELF, STEADY, GROWING, EXHAUSTING, AT_CAP }

    public static Tier tier(RankedGroup g) {
        if (g.self()) return Tier.SELF;
        if (g.atCap()) return Tier.AT_CAP;
        if (!Double.isNaN(g.secondsLeft())) return Tier.EXHAUSTING;
        GrowthShape shape = g.tasksGrowth().shape();
        boolean shaped = shape == GrowthShape.LINEAR || shape == GrowthShape.EXPONENTIAL;
        if (shaped && g.rate() >= GROWING_TASKS_PER_SECOND) return Tier.GROWING;
        return Tier.STEADY;
    }

    /** Most severe first. */
    public static <T extends RankedGroup> Comparator<T> severity() {
        return (a, b) -> {
            Tier ta = tier(a);
            Tier tb = tier(b);
            if (ta != tb) return tb.compareTo(ta);
            int c = switch (ta) {
                case AT_CAP, SELF -> Integer.compare(b.tasks(), a.tasks());
                case EXHAUSTING -> Double.compare(a.secondsLeft(), b.secondsLeft());
                case GROWING -> Double.compare(b.rate(), a.rate());
                case STEADY -> a.recursive() != b.recursive() ? (a.recursive() ? -1 : 1) : Integer.compare(b.tasks(), a.tasks());
            };
            return c != 0 ? c : a.command().compareTo(b.command());
        };
    }

    /** Keeps the worst group first while a challenger of its own tier has not yet led long enough. */
    public static final class Worst {
        public static final double HOLD_SECONDS = 3;
        private String incumbent;
        private String challenger;
        private double challengerSince;

        /** The groups in severity order, with the incumbent put back first when it holds. */
        public synchronized <T extends RankedGroup> List<T> order(List<T> sorted, double nowSeconds) {
            if (sorted.isEmpty()) {
                incumbent = null;
                return sorted;
            }
            T first = sorted.get(0);
            if (incumbent != null && !first.command().equals(incumbent)) {
                int at = indexOf(sorted, incumbent);
                if (at > 0 && tier(sorted.get(at)) == tier(first)) {
                    if (!first.command().equals(challenger)) {
                        challenger = first.command();
                        challengerSince = nowSeconds;
                    }
                    if (nowSeconds - challengerSince < HOLD_SECONDS) {
                        List<T> held = new ArrayList<>(sorted.size());
                        held.add(sorted.get(at));
                        for (int i = 0; i < sorted.size(); i++) if (i != at) held.add(sorted.get(i));
                        return held;
                    }
                }
            }
            incumbent = first.command();
            challenger = null;
            return sorted;
        }

        private static <T extends RankedGroup> int indexOf(List<T> groups, String command) {
            for (int i = 0; i < groups.size(); i++) if (groups.get(i).command().equals(command)) return i;
            return -1;
        }
    }
}
