// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop.plan;

import dev.runaway.stop.act.Actuator;
import dev.runaway.stop.helper.InstalledHelper;

/**
 * What this user may do on this machine: root, or an ordinary user with or without a helper.
 *
 * @param helper whether the privileged helper runs already, can be started (installed), or not at all
 */
public record Privilege(boolean root, int uid, Helper helper) {

    public enum Helper { RUNNING, INSTALLED, NONE }

    /** The user running this, with the helper as the actuator and the installed package say. */
    public static Privilege ofThisUser(Actuator actuator) {
        boolean root = dev.runaway.sys.LibC.INSTANCE.geteuid() == 0;
        int uid = root ? 0 : dev.runaway.sys.LibC.INSTANCE.geteuid();
        Helper h = root || actuator != null && !actuator.mayStartHelper() ? Helper.NONE
                : actuator != null && actuator.hasHelper() ? Helper.RUNNING
                : java.nio.file.Files.isExecutable(InstalledHelper.PATH) ? Helper.INSTALLED : Helper.NONE;
        return new Privilege(root, uid, h);
    }

    public boolean helperPossible() {
        return helper != Helper.NONE;
    }

    /** In words, for the plan. */
    public String words() {
        if (root) return "running as root: every lever as root, no helper";
        return "uid " + uid + ", " + switch (helper) {
            case RUNNING -> "the helper (root) is running";
            case INSTALLED -> "the helper (root) is installed and starts through pkexec when a lever needs it";
            case NONE -> "no helper installed: only your own rights";
        };
    }
}
