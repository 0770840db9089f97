// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.guard;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Which of a user's logind sessions "Open Runaway" shows the console in: theirs, a person's, graphical, local, live; the active first. */
class LoginSessionsTest {
    private static LoginSessions.Session s(String id, int uid, String type, String cls, String state, boolean remote, String display) {
        return new LoginSessions.Session(id, uid, type, cls, state, remote, display);
    }

    @Test
    void theUsersActiveLocalGraphicalSessionIsChosen() {
        List<LoginSessions.Session> all = List.of(
                s("1", 1000, "x11", "user", "active", false, ":0"), // another user's
                s("2", 1001, "tty", "user", "active", false, ""),
                s("3", 1001, "x11", "greeter", "active", false, ":1"),
                s("4", 1001, "x11", "user", "active", true, ":9"), // remote
                s("5", 1001, "x11", "user", "closing", false, ":2"),
                s("6", 1001, "x11", "user", "online", false, ":3"),
                s("7", 1001, "x11", "user", "active", false, ":4"));
        assertThat(LoginSessions.graphical(1001, all)).map(LoginSessions.Session::id).contains("7");
        assertThat(LoginSessions.graphical(1001, all.subList(0, 6))).map(LoginSessions.Session::id).contains("6");
    }

    @Test
    void noGraphicalSessionOfTheirsMeansNone() {
        List<LoginSessions.Session> all = List.of(
                s("1", 0, "x11", "user", "active", false, ":0"),
                s("2", 1001, "tty", "user", "active", false, ""),
                s("3", 1001, "x11", "user", "active", false, ""), // X11 without a display
                s("4", 1001, "unspecified", "user", "active", false, ""));
        assertThat(LoginSessions.graphical(1001, all)).isEmpty();
    }

    @Test
    void aWaylandSessionCountsWithoutADisplay() {
        assertThat(LoginSessions.graphical(1001, List.of(s("8", 1001, "wayland", "user", "active", false, ""))))
                .map(LoginSessions.Session::id).contains("8");
    }
}
