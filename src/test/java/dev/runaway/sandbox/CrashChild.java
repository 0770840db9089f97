// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sandbox;

import java.time.Duration;

/**
 * A JVM for the crash control test, started by it inside its own sandbox. {@code hold}: make a
 * sandbox with three sleepers, print its id and watchdog pid, then wait to be killed.
 * {@code next}: the next start after a crash, which reaps orphaned sandboxes.
 * {@code session}: run by an unprivileged user, see {@link SessionProbe}.
 */
public final class CrashChild {
    public static void main(String[] args) throws Exception {
        if (args.length == 1 && args[0].equals("session")) {
            SessionProbe.run();
            return;
        }
        if (args.length == 1 && args[0].equals("next")) {
            Sandboxes.create(SandboxSpec.of("test-next-start", 4)).close();
            return;
        }
        CgroupSandbox sandbox = (CgroupSandbox) Sandboxes.create(SandboxSpec.of("test-crash-child", 16));
        for (int i = 0; i < 3; i++) sandbox.start(new ProcessBuilder("sleep", "300"));
        System.out.println(sandbox.id());
        System.out.println(sandbox.watchdogPid());
        System.out.flush();
        Thread.sleep(Duration.ofMinutes(5).toMillis());
    }
}
