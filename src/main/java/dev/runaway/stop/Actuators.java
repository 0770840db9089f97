// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop;

import dev.runaway.stop.act.Actuator;
import dev.runaway.stop.helper.HelperStarter;
import dev.runaway.stop.helper.InstalledHelper;
import dev.runaway.sys.LibC;

import java.nio.file.Path;

/** The one place a front end gets the actuator for this user (benches and tests make their own). */
public final class Actuators {
    private Actuators() {
    }

    /** As root the levers need no helper; otherwise the installed helper, started through pkexec when a lever needs it. */
    public static Actuator forThisUser(Path proc) {
        boolean root = LibC.INSTANCE.geteuid() == 0;
        return new Actuator(proc, root ? HelperStarter.NONE : InstalledHelper::start);
    }
}
