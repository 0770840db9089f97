// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.ui;

import org.freedesktop.dbus.connections.impl.DBusConnection;
import org.freedesktop.dbus.connections.impl.DBusConnectionBuilder;
import org.freedesktop.dbus.types.UInt32;
import org.freedesktop.dbus.types.Variant;

import java.time.Duration;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The desktop's light or dark preference: org.freedesktop.appearance color-scheme read from the
 * settings portal on the session bus (GNOME, KDE and others answer there). Empty when there is
 * no session bus, no portal, or no answer within the time given: the theme then is light.
 */
public final class DesktopScheme {
    private DesktopScheme() {
    }

    /** color-scheme through $DBUS_SESSION_BUS_ADDRESS, or empty. */
    public static OptionalInt read(Duration timeout) {
        String address = System.getenv("DBUS_SESSION_BUS_ADDRESS");
        return address == null || address.isBlank() ? OptionalInt.empty() : read(address, timeout);
    }

    /** color-scheme from the portal on the bus at {@code address}: 0 no preference, 1 dark, 2 light. */
    public static OptionalInt read(String address, Duration timeout) {
        CompletableFuture<OptionalInt> answer = CompletableFuture.supplyAsync(() -> {
            try (DBusConnection bus = DBusConnectionBuilder.forAddress(address).withShared(false).build()) {
                PortalSettings portal = bus.getRemoteObject(PortalSettings.BUS_NAME, PortalSettings.PATH, PortalSettings.class);
                Object value = portal.Read(PortalSettings.APPEARANCE, PortalSettings.COLOR_SCHEME);
                while (value instanceof Variant<?> v) value = v.getValue();
                if (value instanceof UInt32 u) return OptionalInt.of(u.intValue());
                if (value instanceof Number n) return OptionalInt.of(n.intValue());
                return OptionalInt.empty();
            } catch (Exception noPortal) {
                return OptionalInt.empty();
            }
        });
        try {
            return answer.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception late) {
            answer.cancel(true);
            return OptionalInt.empty();
        }
    }
}
