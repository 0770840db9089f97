// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.analysis;

import dev.runaway.model.Argv;
import dev.runaway.model.ProcessSample;
import dev.runaway.procfs.ProcPaths;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a process "is", for grouping: one key names one thing, so that a stop by key takes only
 * that thing.
 * <ul>
 *   <li>A program: its executable's real path.</li>
 *   <li>A script run by an interpreter: the script's absolute path, a relative one resolved
 *   against the process's working directory ({@code bash loop.sh} in /a is {@code /a/loop.sh},
 *   in /b {@code /b/loop.sh}); the interpreter's options are parsed as it parses them, so the
 *   argument of {@code bash -o errexit} or {@code python3 -W error} is not taken for the script.</li>
 *   <li>A module ({@code python3 -m unittest}), a jar, a Java main class.</li>
 *   <li>Inline code ({@code bash -c ...}, {@code python3 -c}, {@code perl -e}, code read from
 *   stdin or a pipe): the interpreter plus where it runs, its cgroup (when it is a unit of its
 *   own, not the root or a slice) or else its session: {@code bash -c in cgroup /sbx}. Inline
 *   shells elsewhere on the machine are other keys.</li>
 *   <li>A script run from /dev/fd/N: the file behind that descriptor; a program run from a memfd
 *   (its executable is {@code /memfd:NAME}): the name it was started as, marked {@code (memfd)}.</li>
 *   <li>A kernel thread: {@code [name]}.</li>
 * </ul>
 */
public final class CommandKeys {
    private static final Set<String> SHELLS = Set.of("sh", "bash", "dash", "zsh", "ksh", "mksh", "busybox");
    private static final Pattern PYTHON = Pattern.compile("python[0-9.]*");
    private static final Pattern FD = Pattern.compile("/(?:dev|proc/self|proc/thread-self)/fd/(\\d+)");
    private static final Set<String> SHELL_OPTIONS_WITH_ARGUMENT = Set.of("-o", "+o", "-O", "+O", "--rcfile", "--init-file");
    private static final Set<String> PYTHON_OPTIONS_WITH_ARGUMENT = Set.of("--check-hash-based-pycs");

    private CommandKeys() {
    }

    /** What a key may need beyond the command line; asked only when it does. */
    public interface Where {
        Optional<String> cwd();

        /** What file descriptor N points at: a path, or "pipe:[N]" and the like. */
        Optional<String> fd(int fd);

        /** The v2 cgroup path, "" when unknown. */
        String cgroup();

        /** The session id, 0 when unknown (in a PID namespace whose session leader is outside it, say). */
        int session();

        /**
         * The top of its chain: the pid of the highest ancestor below init (or below the
         * process table's top), 0 when unknown. Asked only when neither cgroup nor session scopes it.
         */
        default int chain() {
            return 0;
        }
    }

    private static final Where NOWHERE = where(null, ProcPaths.NONE, () -> 0);

    public static String of(ProcessSample p) {
        return of(p, ProcPaths.NONE);
    }

    public static String of(ProcessSample p, ProcPaths paths) {
        return of(p, paths, () -> 0);
    }

    /** With the top of its chain, for inline code neither cgroup nor session scopes. */
    public static String of(ProcessSample p, ProcPaths paths, java.util.function.IntSupplier chain) {
        if (p.cmdlineUnread()) return withoutCmdline(p.exe(), p.comm());
        return of(p.cmdline(), p.exe(), p.comm(), where(p, paths, chain));
    }

    /** Marks the key of a process whose command line is not read yet and whose executable alone does not name it. */
    public static final String CMDLINE_UNREAD = " (command line unread)";

    /**
     * The key of a process whose command line is not read yet: a program's is its executable,
     * as when it is read; an interpreter's (or a memfd's, or one whose executable is unknown)
     * cannot be told without it, and is marked as unread, never taken for the bare interpreter
     * (a stop by that would span every shell on the machine).
     */
    static String withoutCmdline(String exe, String comm) {
        if (exe.isEmpty()) return comm + CMDLINE_UNREAD;
        return isProgram(exe) ? exe : exe + CMDLINE_UNREAD;
    }

    /**
     * Whether a process's command line is worth reading, given its executable: its key needs it
     * (an interpreter, a memfd, an executable unknown). A program's is not: its key is its
     * executable whatever its arguments. Reading a command line copies it out of the process's
     * memory (37 µs each at 5,000 processes, more than stat, exe, cgroup and uid together) and
     * waits while the process forks; a one-shot scan skips it for programs.
     */
    public static boolean needsCommandLine(String exe) {
        return !isProgram(exe);
    }

    /** Whether an executable is its own key whatever its arguments: a program, not an interpreter or a memfd. */
    public static boolean isProgram(String exe) {
        return exe.startsWith("/") && of(List.of(exe, "x"), exe, "").equals(exe);
    }

    /** From the command line alone: relative scripts stay relative, inline code has no scope. */
    public static String of(List<String> cmdline, String exe, String comm) {
        return of(cmdline, exe, comm, NOWHERE);
    }

    /** Marks the key of an interpreter whose command line was cut ({@link Argv}) before what it runs. */
    public static final String CMDLINE_CUT = " (command line cut)";

    public static String of(List<String> full, String exe, String comm, Where where) {
        List<String> cmdline = Argv.kept(full);
        if (cmdline.isEmpty() && exe.isEmpty()) return "[" + comm + "]";
        if (exe.startsWith("/memfd:")) {
            String started = cmdline.isEmpty() || cmdline.get(0).isEmpty() ? comm : cmdline.get(0);
            return started + " (memfd)";
        }
        String program = !exe.isEmpty() ? exe : cmdline.get(0);
        Matcher fd = FD.matcher(program);
        if (exe.isEmpty() && fd.matches()) {
            Optional<String> behind = where.fd(Integer.parseInt(fd.group(1))).filter(t -> t.startsWith("/"));
            if (behind.isPresent()) return normal(behind.get());
        }
        String name = baseName(program);
        String interpreted = interpreted(name, cmdline, where);
        if (interpreted != null) return interpreted;
        // What it runs was among the arguments dropped: never the bare interpreter (a stop by that would span the machine).
        return Argv.isCut(full) && isInterpreter(name) ? program + CMDLINE_CUT : program;
    }

    private static boolean isInterpreter(String name) {
        return SHELLS.contains(name) || PYTHON.matcher(name).matches() || Set.of("java", "perl", "ruby", "node", "nodejs").contains(name);
    }

    /** The script, module or inline code an interpreter runs, or null when it is not one (or runs none). */
    private static String interpreted(String name, List<String> args, Where where) {
        boolean python = PYTHON.matcher(name).matches();
        if (SHELLS.contains(name)) return shell(name, args, where);
        if (python) return python(args, where);
        return switch (name) {
            case "java" -> java(args);
            case "perl", "ruby", "node", "nodejs" -> other(name, args, where);
            default -> null;
        };
    }

    private static String shown(List<String> args, String name) {
        return args.isEmpty() || args.get(0).isEmpty() || args.get(0).startsWith("-") ? name : baseName(args.get(0));
    }

    /** sh, bash and kin: -c or -s is inline code; -o X, -O X, --rcfile F take an argument; the first operand is the script. */
    private static String shell(String name, List<String> args, Where where) {
        String shown = shown(args, name);
        for (int i = 1; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--") || a.equals("-")) return i + 1 < args.size() ? script(shown, args.get(i + 1), where) : null;
            if (SHELL_OPTIONS_WITH_ARGUMENT.contains(a)) {
                i++;
                continue;
            }
            if (a.startsWith("--")) continue;
            if ((a.startsWith("-") || a.startsWith("+")) && a.length() > 1) {
                String letters = a.substring(1);
                if (a.startsWith("-") && (letters.indexOf('c') >= 0 || letters.indexOf('s') >= 0)) {
                    return inline(shown + " -" + (letters.indexOf('c') >= 0 ? "c" : "s"), where);
                }
                for (char ch : letters.toCharArray()) if (ch == 'o' || ch == 'O') i++; // -eo pipefail
                continue;
            }
            return script(shown, a, where);
        }
        return null; // an interactive shell: the executable is the key
    }

    /** python: -c is inline code, -m a module; -W X, -X X take an argument (or carry it attached). */
    private static String python(List<String> args, Where where) {
        String shown = shown(args, "python");
        for (int i = 1; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("-")) return inline(shown + " -", where);
            if (a.equals("--")) return i + 1 < args.size() ? script(shown, args.get(i + 1), where) : null;
            if (PYTHON_OPTIONS_WITH_ARGUMENT.contains(a)) {
                i++;
                continue;
            }
            if (a.startsWith("--")) continue;
            if (a.startsWith("-") && a.length() > 1) {
                for (int k = 1; k < a.length(); k++) {
                    char ch = a.charAt(k);
                    String rest = a.substring(k + 1);
                    if (ch == 'c') return inline(shown + " -c", where);
                    if (ch == 'm') {
                        String module = !rest.isEmpty() ? rest : i + 1 < args.size() ? args.get(i + 1) : "";
                        return shown + " -m " + module;
                    }
                    if (ch == 'W' || ch == 'X') {
                        if (rest.isEmpty()) i++;
                        break;
                    }
                }
                continue;
            }
            return script(shown, a, where);
        }
        return null;
    }

    private static String java(List<String> args) {
        String shown = shown(args, "java");
        for (int i = 1; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("-jar") && i + 1 < args.size()) return normal(args.get(i + 1));
            if (a.equals("-cp") || a.equals("-classpath") || a.equals("--class-path") || a.equals("-p")
                    || a.equals("--module-path") || a.equals("--add-opens") || a.equals("--add-exports")) {
                i++;
                continue;
            }
            if (a.startsWith("-")) continue;
            return shown + " " + a;
        }
        return null;
    }

    /** perl, ruby, node: -e (node's -e, -p, --eval, --print) is inline code; -r X, -I X, -M X, -C X take an argument. */
    private static String other(String name, List<String> args, Where where) {
        String shown = shown(args, name);
        boolean node = name.startsWith("node");
        for (int i = 1; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--eval") || a.equals("--print")) return inline(shown + " -e", where);
            if (a.equals("--require")) {
                i++;
                continue;
            }
            if (a.equals("--")) return i + 1 < args.size() ? script(shown, args.get(i + 1), where) : null;
            if (a.startsWith("--")) continue;
            if (a.startsWith("-") && a.length() > 1) {
                char first = a.charAt(1);
                if (first == 'I' || first == 'M' || first == 'm' || first == 'r' || first == 'C') {
                    if (a.length() == 2) i++; // the argument is the next word
                    continue;
                }
                boolean code = node ? a.equals("-e") || a.equals("-p") : a.indexOf('e', 1) > 0 || a.indexOf('E', 1) > 0;
                if (code) return inline(shown + " -e", where);
                continue;
            }
            return script(shown, a, where);
        }
        return null;
    }

    /** A script operand: from /dev/fd/N the file behind it, else its absolute path (relative ones against the cwd). */
    private static String script(String shown, String operand, Where where) {
        Matcher fd = FD.matcher(operand);
        if (fd.matches()) {
            Optional<String> behind = where.fd(Integer.parseInt(fd.group(1)));
            if (behind.isPresent() && behind.get().startsWith("/")) return normal(behind.get());
            return inline(shown + " " + operand, where); // a pipe: code with no file, like -c
        }
        if (operand.startsWith("/")) return normal(operand);
        Optional<String> cwd = where.cwd();
        return cwd.isPresent() ? normal(cwd.get() + "/" + operand) : normal(operand);
    }

    /** Inline code: the interpreter plus where it runs, so a stop by the key stays in that scope. */
    private static String inline(String interpreter, Where where) {
        String cgroup = where.cgroup();
        if (!cgroup.isEmpty() && !cgroup.equals("/") && !cgroup.endsWith(".slice")) return interpreter + " in cgroup " + cgroup;
        if (where.session() > 0) return interpreter + " in session " + where.session();
        int chain = where.chain();
        if (chain > 0) return interpreter + " in chain " + chain;
        if (where == NOWHERE) return interpreter; // a command line alone, no process: nothing to scope it by
        return interpreter + " (scope unknown)"; // a process's key is never a bare interpreter: that would span the machine
    }

    private static Where where(ProcessSample p, ProcPaths paths, java.util.function.IntSupplier chain) {
        return new Where() {
            @Override
            public Optional<String> cwd() {
                return p == null ? Optional.empty() : paths.cwd(p.pid());
            }

            @Override
            public Optional<String> fd(int fd) {
                return p == null ? Optional.empty() : paths.fd(p.pid(), fd);
            }

            @Override
            public String cgroup() {
                return p == null ? "" : p.cgroup();
            }

            @Override
            public int session() {
                return p == null ? 0 : p.session();
            }

            @Override
            public int chain() {
                return p == null ? 0 : chain.getAsInt();
            }
        };
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
