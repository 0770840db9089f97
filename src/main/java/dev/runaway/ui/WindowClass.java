// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.ui;

/**
 * The X11 window class of every window the console opens: the app's id, which the desktop file
 * names in StartupWMClass, so docks and task switchers put the window under the menu entry.
 * JavaFX's GTK windows take their WM_CLASS from the glass application's name, which is "java"
 * unless an {@code Application} subclass is launched (the console starts the toolkit with
 * {@code Platform.startup}); glass accepts a new name once, before the first window.
 */
final class WindowClass {
    /** The desktop file's id without ".desktop", and its StartupWMClass. */
    static final String NAME = "dev.runaway.Runaway";

    private WindowClass() {
    }

    /** Names the windows opened from now on; call on the JavaFX thread, before the first window. */
    static void apply() {
        com.sun.glass.ui.Application.GetApplication().setName(NAME);
    }
}
