// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.cli;

import picocli.CommandLine;

import java.security.Permission;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * {@code runaway stop ARGS} in a fresh JVM, for {@link StopStartsNoProcessTest}: every process
 * the JVM tries to start from its first class on (a library's helper included) is recorded and
 * printed as "exec: COMMAND" after the stop's own output, then "status N". It records, never
 * refuses: a refused start could change the path it is meant to observe.
 */
public final class NoExecProbe {
    public static void main(String[] args) {
        List<String> started = new CopyOnWriteArrayList<>();
        System.setSecurityManager(new SecurityManager() {
            @Override
            public void checkExec(String command) {
                // Who asked: the first frame of ours, where a fix would go.
                String ours = java.util.Arrays.stream(new Throwable().getStackTrace())
                        .filter(f -> f.getClassName().startsWith("dev.runaway.") && !f.getClassName().equals(NoExecProbe.class.getName() + "$1"))
                        .findFirst().map(StackTraceElement::toString).orElse("?");
                started.add(command + " (from " + ours + ")");
            }

            @Override
            public void checkPermission(Permission perm) {
            }

            @Override
            public void checkPermission(Permission perm, Object context) {
            }
        });
        int status = new CommandLine(new StopCommand()).execute(args);
        System.out.flush();
        started.forEach(c -> System.out.println("exec: " + c));
        System.out.println("status " + status);
    }
}
