// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.ui;

import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import org.freedesktop.dbus.connections.impl.DBusConnection;
import org.freedesktop.dbus.connections.impl.DBusConnectionBuilder;
import org.freedesktop.dbus.types.UInt32;
import org.freedesktop.dbus.types.Variant;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The desktop's color-scheme read over a real session bus (a dbus-daemon of the test's own, in a
 * sandbox with a cap), from a settings portal the test exports: dark when it says 1, nothing
 * when no portal answers.
 */
@Tag("process")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DesktopSchemeTest {
    @TempDir
    Path dir;

    /** A portal that answers as GNOME's does: the value in a variant in a variant. */
    private record Portal(int scheme) implements PortalSettings {
        @Override
        public Variant<?> Read(String namespace, String key) {
            if (!namespace.equals(APPEARANCE) || !key.equals(COLOR_SCHEME)) throw new IllegalArgumentException(key);
            return new Variant<>(new Variant<>(new UInt32(scheme)));
        }

        @Override
        public String getObjectPath() {
            return PATH;
        }
    }

    @Test
    void thePortalsColorSchemeIsReadAndNoPortalIsNoPreference() throws Exception {
        try (Sandbox bus = Sandboxes.create(SandboxSpec.of("test-desktop-scheme-bus", 16).withLifetime(Duration.ofMinutes(1)))) {
            String socket = "unix:path=" + dir.resolve("bus");
            Process daemon = bus.start(new ProcessBuilder("dbus-daemon", "--session", "--nofork", "--address=" + socket,
                    "--print-address=1").redirectError(ProcessBuilder.Redirect.DISCARD));
            String address = new BufferedReader(new InputStreamReader(daemon.getInputStream(), StandardCharsets.UTF_8)).readLine();
            assertThat(address).as("dbus-daemon said where it listens").startsWith("unix:path=");

            assertThat(DesktopScheme.read(address, Duration.ofSeconds(5))).as("no portal on this bus").isEqualTo(OptionalInt.empty());

            try (DBusConnection desktop = DBusConnectionBuilder.forAddress(address).withShared(false).build()) {
                desktop.requestBusName(PortalSettings.BUS_NAME);
                desktop.exportObject(PortalSettings.PATH, new Portal(1));
                assertThat(DesktopScheme.read(address, Duration.ofSeconds(5))).isEqualTo(OptionalInt.of(1));
                desktop.unExportObject(PortalSettings.PATH);
                desktop.exportObject(PortalSettings.PATH, new Portal(2));
                assertThat(DesktopScheme.read(address, Duration.ofSeconds(5))).isEqualTo(OptionalInt.of(2));
            }
        }
    }
}
