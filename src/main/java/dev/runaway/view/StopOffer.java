// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.view;

import java.util.Locale;

/**
 * What the stop panel offers at each phase of a guided stop. Close is there at every phase (Esc
 * is not the only way out; it waits, disabled, while the stop runs, which it cannot undo); once
 * the stop ended, Stop again plans the same row afresh and Open report shows the incident's report.
 *
 * @param closeText     "Cancel" before anything ran, else "Close"
 * @param confirmText   the confirm button's words ("" when it is not shown)
 * @param confirmReady  the confirm button may be pressed (Enter confirms)
 * @param again         Stop again is shown
 * @param report        Open report is shown
 */
public record StopOffer(Phase phase, String closeText, boolean closeEnabled, String confirmText, boolean confirmReady,
                        boolean again, boolean report) {

    /** Where a guided stop is. */
    public enum Phase {
        /** The targets are being read. */
        PLANNING,
        /** The plan was refused: nothing to stop, nothing done. */
        REFUSED,
        /** The plan is shown and waits for one confirmation. */
        READY,
        /** Confirmed: the steps run. */
        RUNNING,
        /** The stop ended (zero confirmed or not). */
        DONE
    }

    /** @param members how many processes the plan stops (READY) */
    public static StopOffer of(Phase phase, int members) {
        return switch (phase) {
            case PLANNING -> new StopOffer(phase, "Cancel", true, "Stop", false, false, false);
            case READY -> new StopOffer(phase, "Cancel", true, String.format(Locale.ROOT, "Stop %d processes", members), true, false, false);
            case RUNNING -> new StopOffer(phase, "Close", false, "", false, false, false);
            case REFUSED -> new StopOffer(phase, "Close", true, "", false, true, false);
            case DONE -> new StopOffer(phase, "Close", true, "", false, true, true);
        };
    }

    /**
     * Whether the window holds its charts and figures still at this phase: while a confirmed stop
     * runs, every frame the window draws (real-time on an overloaded machine) is CPU the kernel's
     * kill of thousands is waiting for; at 5,000 pressing the window took a quarter of two cores
     * from Enter to zero. The panel's own steps are still drawn.
     */
    public boolean holdsWindow() {
        return phase == Phase.RUNNING;
    }

    public boolean confirmShown() {
        return !confirmText.isEmpty();
    }
}
