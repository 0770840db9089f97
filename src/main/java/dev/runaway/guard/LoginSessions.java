// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.guard;

import org.freedesktop.dbus.DBusPath;
import org.freedesktop.dbus.Struct;
import org.freedesktop.dbus.annotations.DBusInterfaceName;
import org.freedesktop.dbus.annotations.Position;
import org.freedesktop.dbus.connections.impl.DBusConnection;
import org.freedesktop.dbus.connections.impl.DBusConnectionBuilder;
import org.freedesktop.dbus.interfaces.DBusInterface;
import org.freedesktop.dbus.interfaces.Properties;
import org.freedesktop.dbus.types.UInt32;
import org.freedesktop.dbus.types.Variant;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A user's login sessions by logind's word (org.freedesktop.login1 on the system bus): where
 * "Open Runaway" may show the console. The display is the session's own ({@code Session.Display}),
 * never read from a process's environment: any uid-0 process's environment, a setuid program a
 * user started among them, says whatever that user wrote into it.
 */
interface LoginSessions {
    /** The sessions of UID (all of them; {@link #graphical} chooses). */
    List<Session> of(int uid) throws IOException;

    /** One session: logind's Id, User, Type (x11, wayland, tty...), Class (user, greeter...), State, Remote, Display. */
    record Session(String id, int uid, String type, String sessionClass, String state, boolean remote, String display) {
    }

    /**
     * The session to show the console in: UID's own, a person's ({@code Class=user}), graphical
     * (X11 with its display, or Wayland), local, not closing; the active one first.
     */
    static Optional<Session> graphical(int uid, List<Session> sessions) {
        return sessions.stream()
                .filter(s -> s.uid() == uid && s.sessionClass().equals("user") && !s.remote())
                .filter(s -> s.state().equals("active") || s.state().equals("online"))
                .filter(s -> (s.type().equals("x11") && !s.display().isEmpty()) || s.type().equals("wayland"))
                .min(Comparator.comparing((Session s) -> !s.state().equals("active")));
    }

    /** logind over the system bus: one short connection a question. */
    static LoginSessions logind() {
        return uid -> {
            // One connect attempt (dbus-java's default tries again every 500 ms for 10 s): no system bus is said at once.
            try (DBusConnection bus = DBusConnectionBuilder.forSystemBus().transportConfig().withTimeout(500).back().withShared(false).build()) {
                Manager m = bus.getRemoteObject(Manager.BUS_NAME, Manager.PATH, Manager.class);
                List<Session> out = new ArrayList<>();
                for (Manager.Listed l : m.ListSessions()) {
                    if (l.uid.intValue() != uid) continue;
                    Map<String, Variant<?>> p = bus.getRemoteObject(Manager.BUS_NAME, l.path.getPath(), Properties.class)
                            .GetAll("org.freedesktop.login1.Session");
                    out.add(new Session(l.id, uid, text(p, "Type"), text(p, "Class"), text(p, "State"),
                            Boolean.TRUE.equals(p.get("Remote") == null ? null : p.get("Remote").getValue()), text(p, "Display")));
                }
                return out;
            } catch (Exception e) {
                throw new IOException("logind did not answer (" + e.getMessage() + ")", e);
            }
        };
    }

    private static String text(Map<String, Variant<?>> properties, String name) {
        Variant<?> v = properties.get(name);
        return v != null && v.getValue() instanceof String s ? s : "";
    }

    /** org.freedesktop.login1.Manager, as far as the guard asks it. */
    @DBusInterfaceName("org.freedesktop.login1.Manager")
    interface Manager extends DBusInterface {
        String BUS_NAME = "org.freedesktop.login1";
        String PATH = "/org/freedesktop/login1";

        List<Listed> ListSessions();

        /** ListSessions' a(susso): id, uid, user name, seat, object path. */
        final class Listed extends Struct {
            @Position(0)
            public final String id;
            @Position(1)
            public final UInt32 uid;
            @Position(2)
            public final String user;
            @Position(3)
            public final String seat;
            @Position(4)
            public final DBusPath path;

            public Listed(String id, UInt32 uid, String user, String seat, DBusPath path) {
                this.id = id;
                this.uid = uid;
                this.user = user;
                this.seat = seat;
                this.path = path;
            }
        }
    }
}
