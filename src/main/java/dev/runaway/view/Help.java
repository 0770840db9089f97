// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.view;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** What the window's Help and About say: the keys, where the guide is, and what Runaway is. */
public final class Help {
    /** Where the package installs the user guide. */
    public static final Path INSTALLED_GUIDE = Path.of("/usr/share/doc/runaway/html/index.html");
    public static final String LICENCE = "GPL-3.0-or-later";
    public static final String PROJECT = "Runaway: a Linux incident console for runaway process chains";

    /** One line of the keys table: the keys, and what they do. */
    public record Key(String keys, String does) {
    }

    public static final List<Key> KEYS = List.of(
            new Key("Ctrl+K", "guided stop of the selected group, chain or process: the plan, then Enter confirms"),
            new Key("Esc", "cancel or close the stop panel"),
            new Key("Ctrl+F", "filter the groups by command or pid"),
            new Key("Ctrl+1, Ctrl+2", "groups by command, by cgroup"),
            new Key("Ctrl+T", "dark or light theme (remembered)"),
            new Key("Ctrl+O, Ctrl+E, Ctrl+Shift+E", "open a recording; export the incident; export the time shown"),
            new Key("Ctrl+Shift+S", "save the charts as shown (PNG)"),
            new Key("+ and -", "on a chart: zoom in and out in time"),
            new Key("Left and Right", "on a chart: pan back and forward in time"),
            new Key("0", "on a chart: back to the time window, following the newest data"),
            new Key("F1", "this help"),
            new Key("Ctrl+Q", "quit (a drill is torn down first)"));

    private Help() {
    }

    /**
     * The guide's address: the installed HTML guide when it is there, else the docs of the source
     * tree the console runs from ({@code codeLocation}: its jar in target/, or target/classes),
     * else the project's docs folder as a path for the reader to find.
     */
    public static String guide(Path installed, Path codeLocation) {
        if (Files.isRegularFile(installed)) return installed.toUri().toString();
        for (Path p = codeLocation; p != null; p = p.getParent()) {
            Path docs = p.resolve("docs").resolve("guide.md");
            if (Files.isRegularFile(docs)) return docs.toUri().toString();
        }
        return installed.toUri().toString();
    }

    /** About's words: the version (from the jar, "development" from classes), the licence, the project. */
    public static String about(String version) {
        return PROJECT + "\nversion " + (version == null ? "development" : version) + "\nlicence " + LICENCE
                + " (free software: you may share and change it under its terms)";
    }
}
