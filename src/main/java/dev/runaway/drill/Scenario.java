// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.drill;

import java.util.Locale;

/**
 * The practice incidents, scaled down from the two source incidents. Each grows until its
 * sandbox's cap stops it; nothing in the workload itself limits it.
 */
public enum Scenario {
    LINEAR(400, "one chain, each level holds ~16 MiB and starts the next, ~32 levels/s (the deploy-script loop)"),
    ORPHANS(600, "a disposable binary in a temporary test cache; three chains of it, every process parented to init"),
    RECURSIVE(200, "deploy.sh runs the tests, a test runs deploy.sh: bash and python3 re-entering each other"),
    FANOUT(1000, "each process starts two children: exponential growth"),
    PRESSING(2000, "a disposable binary whose every process tries to fork every 50 ms, backing off when refused:"
            + " a runaway pressing on its cap");

    private final int defaultMaxTasks;
    private final String description;

    Scenario(int defaultMaxTasks, String description) {
        this.defaultMaxTasks = defaultMaxTasks;
        this.description = description;
    }

    public int defaultMaxTasks() {
        return defaultMaxTasks;
    }

    public String description() {
        return description;
    }

    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Scenario parse(String text) {
        for (Scenario s : values()) {
            if (s.key().equals(text.toLowerCase(Locale.ROOT))) return s;
        }
        throw new IllegalArgumentException("unknown drill '" + text + "'; drills: linear, orphans, recursive, fanout, pressing");
    }
}
