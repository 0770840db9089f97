// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.guard;

import org.freedesktop.dbus.connections.impl.DBusConnection;
import org.freedesktop.dbus.connections.impl.DBusConnectionBuilder;
import org.freedesktop.dbus.types.UInt32;
import org.freedesktop.dbus.types.Variant;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;

/** A desktop's notification service on a test's own session bus: it keeps what it is shown, and a "person" can choose an action. */
final class FakeNotifications implements Notifications, AutoCloseable {
    record Shown(int id, String summary, String body, List<String> actions, int expireTimeout) {
    }

    final LinkedBlockingQueue<Shown> shown = new LinkedBlockingQueue<>();
    final LinkedBlockingQueue<Integer> closed = new LinkedBlockingQueue<>();
    private final AtomicInteger ids = new AtomicInteger();
    private final DBusConnection bus;

    FakeNotifications(Path socket) throws Exception {
        bus = DBusConnectionBuilder.forAddress("unix:path=" + socket).withShared(false).build();
        bus.requestBusName(BUS_NAME);
        bus.exportObject(PATH, this);
    }

    @Override
    public UInt32 Notify(String appName, UInt32 replacesId, String appIcon, String summary, String body, List<String> actions,
                         Map<String, Variant<?>> hints, int expireTimeout) {
        int id = ids.incrementAndGet();
        shown.add(new Shown(id, summary, body, actions, expireTimeout));
        return new UInt32(id);
    }

    @Override
    public void CloseNotification(UInt32 id) {
        closed.add(id.intValue());
    }

    /** The person clicks ACTION on notification ID. */
    void choose(int id, String action) throws Exception {
        bus.sendMessage(new ActionInvoked(PATH, new UInt32(id), action));
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
