// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.guard;

import org.freedesktop.dbus.DBusPath;
import org.freedesktop.dbus.Struct;
import org.freedesktop.dbus.annotations.DBusInterfaceName;
import org.freedesktop.dbus.annotations.Position;
import org.freedesktop.dbus.connections.impl.DBusConnection;
import org.freedesktop.dbus.interfaces.DBusInterface;
import org.freedesktop.dbus.types.Variant;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * "Open Runaway": the console started by the owner's own systemd user manager, over their session
 * bus (the connection the notice already holds as them), as {@code systemd-run --user} does: a
 * transient service of theirs ({@code StartTransientUnit}), so it runs in their session with
 * their own limits and environment, never inside the guard's unit (NoNewPrivileges, ProtectHome,
 * PrivateTmp, TasksMax 256, where pkexec cannot run and a recording cannot be written). Its
 * DISPLAY is their logind session's ({@link LoginSessions}); with Wayland (no display in logind)
 * it is what their own manager's environment says.
 */
final class UserConsole implements DesktopNotices.Console {
    private static final AtomicLong UNITS = new AtomicLong();
    private final String launcher;

    UserConsole(String launcher) {
        this.launcher = launcher;
    }

    @Override
    public String open(int uid, LoginSessions.Session session, DBusConnection theirBus, Duration timeout) throws Exception {
        Manager m = theirBus.getRemoteObject(Manager.BUS_NAME, Manager.PATH, Manager.class);
        String unit = "app-dev.runaway.Runaway-guard-" + ProcessHandle.current().pid() + "-" + UNITS.incrementAndGet() + ".service";
        List<Property> properties = new ArrayList<>();
        properties.add(new Property("Description", new Variant<>("Runaway console, opened from the guard's notification")));
        properties.add(new Property("ExecStart", new Variant<>(List.of(new ExecCommand(launcher, List.of(launcher, "console"), false)), "a(sasb)")));
        properties.add(new Property("CollectMode", new Variant<>("inactive-or-failed")));
        if (!session.display().isEmpty()) properties.add(new Property("Environment", new Variant<>(List.of("DISPLAY=" + session.display()), "as")));
        DesktopNotices.call(theirBus, m, "StartTransientUnit", timeout, unit, "fail", properties, List.<AuxUnit>of());
        return unit;
    }

    /** org.freedesktop.systemd1.Manager of a user's manager, as far as the console needs it. */
    @DBusInterfaceName("org.freedesktop.systemd1.Manager")
    public interface Manager extends DBusInterface {
        String BUS_NAME = "org.freedesktop.systemd1";
        String PATH = "/org/freedesktop/systemd1";

        DBusPath StartTransientUnit(String name, String mode, List<Property> properties, List<AuxUnit> aux);
    }

    /** A unit property: (sv). */
    public static final class Property extends Struct {
        @Position(0)
        public final String name;
        @Position(1)
        public final Variant<?> value;

        public Property(String name, Variant<?> value) {
            this.name = name;
            this.value = value;
        }
    }

    /** ExecStart's (sasb): path, argv, ignore failure. */
    public static final class ExecCommand extends Struct {
        @Position(0)
        public final String path;
        @Position(1)
        public final List<String> argv;
        @Position(2)
        public final boolean ignoreFailure;

        public ExecCommand(String path, List<String> argv, boolean ignoreFailure) {
            this.path = path;
            this.argv = argv;
            this.ignoreFailure = ignoreFailure;
        }
    }

    /** An auxiliary unit: (sa(sv)); none is sent. */
    public static final class AuxUnit extends Struct {
        @Position(0)
        public final String name;
        @Position(1)
        public final List<Property> properties;

        public AuxUnit(String name, List<Property> properties) {
            this.name = name;
            this.properties = properties;
        }
    }
}
