// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.guard;

import org.freedesktop.dbus.DBusPath;
import org.freedesktop.dbus.connections.impl.DBusConnection;
import org.freedesktop.dbus.connections.impl.DBusConnectionBuilder;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * A user's systemd manager on a test's own session bus, as far as "Open Runaway" uses it: it
 * keeps each StartTransientUnit it is asked (the unit's name and its properties as text) and
 * starts nothing.
 */
final class FakeUserManager implements UserConsole.Manager, AutoCloseable {
    record Started(String name, String mode, String properties) {
    }

    final LinkedBlockingQueue<Started> started = new LinkedBlockingQueue<>();
    private final DBusConnection bus;

    FakeUserManager(Path socket) throws Exception {
        bus = DBusConnectionBuilder.forAddress("unix:path=" + socket).withShared(false).build();
        bus.requestBusName(BUS_NAME);
        bus.exportObject(PATH, this);
    }

    @Override
    public DBusPath StartTransientUnit(String name, String mode, List<UserConsole.Property> properties, List<UserConsole.AuxUnit> aux) {
        StringBuilder text = new StringBuilder();
        for (UserConsole.Property p : properties) text.append(p.name).append('=').append(deep(p.value.getValue())).append('\n');
        started.add(new Started(name, mode, text.toString()));
        return new DBusPath("/org/freedesktop/systemd1/job/" + started.size());
    }

    /** A value as text, into lists and structs (which arrive in a variant as arrays of their fields). */
    private static String deep(Object v) {
        if (v instanceof Object[] a) return deep(List.of(a));
        if (v instanceof List<?> l) return l.stream().map(FakeUserManager::deep).toList().toString();
        return String.valueOf(v);
    }

    @Override
    public String getObjectPath() {
        return PATH;
    }

    @Override
    public void close() throws Exception {
        bus.close();
    }
}
