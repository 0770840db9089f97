// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sandbox;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs as an unprivileged user (started by {@link SessionSandboxTest} through setpriv): makes
 * a sandbox, which must fall back to a session with RLIMIT_NPROC, forks past its cap, and
 * tears it down. Prints one "key value" line per finding for the test to check.
 */
final class SessionProbe {
    private SessionProbe() {
    }

    static void run() throws Exception {
        try (Sandbox sandbox = Sandboxes.create(SandboxSpec.of("test-session", 10))) {
            System.out.println("kind " + sandbox.getClass().getSimpleName());
            System.out.println("containment " + sandbox.containment());
            Process shell = sandbox.start(new ProcessBuilder("/bin/sh", "-c",
                    "i=0; while [ $i -lt 40 ]; do sleep 300 & i=$((i+1)); done; wait").redirectErrorStream(true));
            CompletableFuture<Boolean> sawForkFail = CompletableFuture.supplyAsync(() -> {
                try (BufferedReader out = new BufferedReader(new InputStreamReader(shell.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String line; (line = out.readLine()) != null; ) {
                        if (line.toLowerCase().contains("fork")) return true;
                    }
                } catch (java.io.IOException e) {
                    return false;
                }
                return false;
            });
            boolean failed;
            try {
                failed = sawForkFail.get(20, TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                failed = false;
            }
            System.out.println("forkfailed " + failed);
            System.out.println("members " + sandbox.memberPids().size());
            TeardownReport report = sandbox.teardown();
            System.out.println("zero " + report.zeroConfirmed());
            System.out.println("report " + report.summary());
            System.out.println("after " + sandbox.memberPids().size());
        }
    }
}
