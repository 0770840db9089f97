// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sandbox;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts a builder's command through {@code runaway-sandbox enter OPTIONS -- COMMAND}, which
 * puts the process in its containment before it execs the command, then gives the builder its
 * command back.
 */
final class Enter {
    private Enter() {
    }

    static Process start(ProcessBuilder builder, List<String> options) throws IOException {
        List<String> original = List.copyOf(builder.command());
        List<String> command = new ArrayList<>();
        command.add(NativeBinaries.find(NativeBinaries.SANDBOX).toString());
        command.add("enter");
        command.addAll(options);
        command.add("--");
        command.addAll(original);
        try {
            return builder.command(command).start();
        } finally {
            builder.command(original);
        }
    }
}
