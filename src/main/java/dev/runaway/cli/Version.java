// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.cli;

import picocli.CommandLine;

/** The version from the jar's manifest, or "development" when run from classes. */
final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        String version = Main.class.getPackage().getImplementationVersion();
        return new String[] {"runaway " + (version == null ? "development" : version)};
    }
}
