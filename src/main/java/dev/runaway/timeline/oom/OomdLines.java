// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.timeline.oom;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * systemd-oomd's kill lines and the manager's count that goes with each (systemd 248 and later):
 * <pre>
 * systemd-oomd: Killed /user.slice/user-1000.slice/user@1000.service/app.slice/app-x.scope due to memory pressure
 *               for /user.slice/user-1000.slice/user@1000.service being 61.36% &gt; 50.00% for &gt; 20s with reclaim activity
 * systemd-oomd: Killed /.../app-x.scope due to memory used (63112060928) / total (67108864000) and
 *               swap used (63350767616) / total (65498251264) being more than 90.00%
 * systemd:      app-x.scope: systemd-oomd killed 18705 process(es) in this unit.
 * </pre>
 * Older managers wrote "killed some process(es)": the count is then unknown.
 */
final class OomdLines {
    private static final Pattern KILL = Pattern.compile("Killed (/\\S*) due to (.+)", Pattern.DOTALL);
    private static final Pattern PRESSURE_FOR = Pattern.compile("memory pressure for (\\S+) being .*", Pattern.DOTALL);
    private static final Pattern COUNT = Pattern.compile("(\\S+): systemd-oomd killed (\\d{1,12}|some) process\\(es\\) in this unit\\.?\\s*");

    /** oomd's "Killed CGROUP due to REASON". */
    record Kill(String cgroup, String reason, String constraint, String monitored) {
        /** The unit it killed: the cgroup's last path component, as the manager names it. */
        String unit() {
            return cgroup.substring(cgroup.lastIndexOf('/') + 1);
        }
    }

    /** The manager's "UNIT: systemd-oomd killed N process(es) in this unit."; processes -1 for "some". */
    record Count(String unit, long processes) {
    }

    private OomdLines() {
    }

    static Optional<Kill> kill(String text) {
        Matcher m = KILL.matcher(text);
        if (!m.matches() || m.group(1).length() < 2) return Optional.empty();
        String reason = m.group(2).trim();
        Matcher pressure = PRESSURE_FOR.matcher(reason);
        if (pressure.matches()) return Optional.of(new Kill(m.group(1), reason, "memory pressure", pressure.group(1)));
        if (reason.startsWith("memory used") || reason.startsWith("swap used")) {
            return Optional.of(new Kill(m.group(1), reason, "swap", ""));
        }
        return Optional.of(new Kill(m.group(1), reason, "", ""));
    }

    static Optional<Count> count(String text) {
        Matcher m = COUNT.matcher(text);
        if (!m.matches()) return Optional.empty();
        return Optional.of(new Count(m.group(1), m.group(2).equals("some") ? OomEvent.UNKNOWN : Long.parseLong(m.group(2))));
    }
}
