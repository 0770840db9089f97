// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.view;

/**
 * The strip under the menus: DRILL while a drill runs, REPLAY for a recording, nothing on a plain
 * live console.
 *
 * @param styleClass the strip's style ("" when it is hidden)
 */
public record Banner(String text, String styleClass) {
    public static final Banner NONE = new Banner("", "");

    public boolean shown() {
        return !styleClass.isEmpty();
    }

    public static Banner drill(String id, int maxTasks, String description) {
        return new Banner("DRILL  " + id + "  ·  a contained practice incident (cap " + maxTasks + " tasks): " + description, "banner-drill");
    }

    public static Banner replay(String source, String started) {
        return new Banner("REPLAY  " + source + "  ·  recorded " + started + "  ·  nothing here can be stopped", "banner-replay");
    }
}
