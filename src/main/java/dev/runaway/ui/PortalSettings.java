// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.ui;

import org.freedesktop.dbus.annotations.DBusInterfaceName;
import org.freedesktop.dbus.interfaces.DBusInterface;
import org.freedesktop.dbus.types.Variant;

/** The freedesktop settings portal (xdg-desktop-portal), as far as the theme reads it. */
@DBusInterfaceName("org.freedesktop.portal.Settings")
public interface PortalSettings extends DBusInterface {
    String BUS_NAME = "org.freedesktop.portal.Desktop";
    String PATH = "/org/freedesktop/portal/desktop";
    String APPEARANCE = "org.freedesktop.appearance";
    String COLOR_SCHEME = "color-scheme";

    /** The value as a variant (portals put the value in a second variant: both are unwrapped). */
    Variant<?> Read(String namespace, String key);
}
