// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sandbox;

import dev.runaway.model.ProcessIdentity;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A sandbox's cgroup name carries everything needed to decide, after a crash, whether it is
 * still wanted: {@code runaway-sandbox.OWNERPID.OWNERSTART.DEADLINE.LABEL}. The owner is the
 * process whose death ends the sandbox (0.0 for a detached one, which lives to its deadline,
 * an epoch second). cgroupfs keeps no other metadata, so the name is the record.
 */
public record SandboxName(Optional<ProcessIdentity> owner, long deadlineEpochSecond, String label) {

    public static final String MARKER = "runaway-sandbox.";
    private static final Pattern FORM = Pattern.compile(
            Pattern.quote(MARKER) + "(\\d+)\\.(\\d+)\\.(\\d+)\\.([A-Za-z0-9_-]{1,64})");
    private static final Pattern LABEL = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    public SandboxName {
        if (!LABEL.matcher(label).matches()) {
            throw new IllegalArgumentException("a sandbox label is 1-64 of [A-Za-z0-9_-]: " + label);
        }
    }

    public String format() {
        return MARKER + owner.map(o -> o.pid() + "." + o.startTicks()).orElse("0.0")
                + "." + deadlineEpochSecond + "." + label;
    }

    public static Optional<SandboxName> parse(String name) {
        Matcher m = FORM.matcher(name);
        if (!m.matches()) return Optional.empty();
        try {
            int pid = Integer.parseInt(m.group(1));
            Optional<ProcessIdentity> owner = pid == 0 ? Optional.empty()
                    : Optional.of(new ProcessIdentity(pid, Long.parseLong(m.group(2))));
            return Optional.of(new SandboxName(owner, Long.parseLong(m.group(3)), m.group(4)));
        } catch (NumberFormatException outOfRange) {
            return Optional.empty(); // looks like ours but cannot be: not ours to touch
        }
    }

    @Override
    public String toString() {
        return format();
    }
}
