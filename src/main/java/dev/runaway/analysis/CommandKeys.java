// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.analysis;

import dev.runaway.model.ProcessSample;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What a process "is", for grouping: the executable's real path, except for interpreters, where
 * it is the script they run ({@code bash deploy.sh} is {@code deploy.sh}, by its normalised path)
 * or the module ({@code python3 -m unittest}). Kernel threads are {@code [name]}.
 */
public final class CommandKeys {
    private static final Set<String> SHELLS = Set.of("sh", "bash", "dash", "zsh", "ksh", "mksh", "busybox");
    private static final Pattern PYTHON = Pattern.compile("python[0-9.]*");
    private static final Set<String> OTHER_INTERPRETERS = Set.of("perl", "node", "nodejs", "ruby");

    private CommandKeys() {
    }

    public static String of(ProcessSample p) {
        return of(p.cmdline(), p.exe(), p.comm());
    }

    public static String of(List<String> cmdline, String exe, String comm) {
        if (cmdline.isEmpty() && exe.isEmpty()) return "[" + comm + "]";
        String program = !exe.isEmpty() ? exe : cmdline.get(0);
        String name = baseName(program);
        String interpreted = interpreted(name, cmdline);
        return interpreted != null ? interpreted : program;
    }

    /** The script or module an interpreter runs, or null when it is not one (or runs none). */
    private static String interpreted(String name, List<String> args) {
        boolean python = PYTHON.matcher(name).matches();
        boolean java = name.equals("java");
        if (!python && !java && !SHELLS.contains(name) && !OTHER_INTERPRETERS.contains(name)) return null;
        String shown = args.isEmpty() ? name : baseName(args.get(0));
        for (int i = 1; i < args.size(); i++) {
            String arg = args.get(i);
            if (python && arg.equals("-m") && i + 1 < args.size()) return shown + " -m " + args.get(i + 1);
            if (java && arg.equals("-jar") && i + 1 < args.size()) return normal(args.get(i + 1));
            if (arg.equals(inlineFlag(name, python))) return shown + " " + arg; // inline code: the interpreter is the key
            if (java && (arg.equals("-cp") || arg.equals("-classpath"))) {
                i++;
                continue;
            }
            if (arg.startsWith("-")) continue;
            return java ? shown + " " + arg : normal(arg);
        }
        return null;
    }

    /** The flag that introduces inline code: -c for shells and python, -e for perl, ruby, node. */
    private static String inlineFlag(String name, boolean python) {
        return python || SHELLS.contains(name) ? "-c" : name.equals("java") ? "" : "-e";
    }

    private static String normal(String path) {
        try {
            return Path.of(path).normalize().toString();
        } catch (RuntimeException invalid) {
            return path;
        }
    }

    static String baseName(String path) {
        int slash = path.lastIndexOf('/');
        return slash < 0 ? path : path.substring(slash + 1);
    }
}
