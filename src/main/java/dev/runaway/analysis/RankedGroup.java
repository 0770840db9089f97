// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.analysis;

/**
 * What severity ranks a group by, shared by the live {@link Group} and a recorded group, so a
 * replay orders groups (and names the worst) exactly as the live console did.
 */
public interface RankedGroup {
    String command();

    int tasks();

    boolean atCap();

    boolean recursive();

    /** The console's own processes: never the worst group. */
    boolean self();

    /** Seconds until a limit runs out at this rate; NaN when not heading to one. */
    double secondsLeft();

    /** The shape and rate of the task count over the growth window. */
    GrowthFit tasksGrowth();

    /** Tasks per second over the growth window. */
    default double rate() {
        return tasksGrowth().perSecond();
    }

    /** The growth shape as JSON names it: steady, linear, exponential, ... */
    default String growthShape() {
        return tasksGrowth().shape().json();
    }
}
