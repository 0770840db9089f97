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

    /** Tasks per second over the growth window. */
    double rate();

    /** The growth shape as JSON names it: steady, linear, exponential, ... */
    String growthShape();
}
