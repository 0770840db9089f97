// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.guard;

import org.freedesktop.dbus.annotations.DBusInterfaceName;
import org.freedesktop.dbus.exceptions.DBusException;
import org.freedesktop.dbus.interfaces.DBusInterface;
import org.freedesktop.dbus.messages.DBusSignal;
import org.freedesktop.dbus.types.UInt32;
import org.freedesktop.dbus.types.Variant;

import java.util.List;
import java.util.Map;

/** The freedesktop notification service (the Desktop Notifications Specification 1.2), as far as the guard uses it. */
@DBusInterfaceName("org.freedesktop.Notifications")
public interface Notifications extends DBusInterface {
    String BUS_NAME = "org.freedesktop.Notifications";
    String PATH = "/org/freedesktop/Notifications";

    UInt32 Notify(String appName, UInt32 replacesId, String appIcon, String summary, String body, List<String> actions,
                  Map<String, Variant<?>> hints, Integer expireTimeout);

    void CloseNotification(UInt32 id);

    /** The person chose an action of a notification. */
    class ActionInvoked extends DBusSignal {
        public final UInt32 id;
        public final String actionKey;

        public ActionInvoked(String path, UInt32 id, String actionKey) throws DBusException {
            super(path, id, actionKey);
            this.id = id;
            this.actionKey = actionKey;
        }
    }

    /** A notification went away (expired, dismissed, closed). */
    class NotificationClosed extends DBusSignal {
        public final UInt32 id;
        public final UInt32 reason;

        public NotificationClosed(String path, UInt32 id, UInt32 reason) throws DBusException {
            super(path, id, reason);
            this.id = id;
            this.reason = reason;
        }
    }
}
