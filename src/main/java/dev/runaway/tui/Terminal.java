// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.tui;

import dev.runaway.sys.Tty;
import org.jline.terminal.Size;
import org.jline.terminal.TerminalBuilder;
import org.jline.utils.Curses;
import org.jline.utils.InfoCmp;
import org.jline.utils.InfoCmp.Capability;
import org.jline.utils.NonBlockingReader;

import java.io.IOException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The controlling terminal in raw mode through JLine (keys one at a time, no echo, the mouse
 * reported), restored on close and by a shutdown hook if the JVM ends another way (Ctrl-C).
 *
 * <p>Nothing here may start a process: at a task cap none can start, and a view opened before
 * the fire must still read keys and give the terminal back. JLine left to itself would: its exec
 * provider runs {@code stty} for every mode change and size, and it runs {@code infocmp} for the
 * terminal's entry (measured with strace: even for an entry it carries). So the only provider is
 * JNA's (termios and ioctl in this process), and the entry handed to JLine is one it carries
 * ({@link #typeFor}: the family closest to {@code $TERM}), loaded before it asks; {@link Keys}
 * also knows the sequences of the other families. JLine's signal handlers are off (a signal's
 * handler is a new thread): Ctrl-C ends the JVM, whose shutdown hook gives the terminal back.
 * TopKeysInTmuxTest proves it with strace.
 *
 * <p>The mode given back is the one {@link Tty} read before JLine touched the terminal, byte for
 * byte: JLine 3.30.6's JNA termios for Linux has no IEXTEN, so its own restore left the shell
 * without it (Ctrl-V dead; TopInTmuxTest saw the mode differ). JLine restores first, then Tty.
 */
final class Terminal implements AutoCloseable {
    static final String TTY = "/dev/tty";
    /** When the terminal cannot tell its size. */
    static final int[] FALLBACK_SIZE = {40, 120};

    private final org.jline.terminal.Terminal terminal;
    private final Tty tty;
    private final Keys keys;
    private final Thread restoreHook;

    private Terminal(org.jline.terminal.Terminal terminal, Tty tty) {
        this.terminal = terminal;
        this.tty = tty;
        NonBlockingReader reader = terminal.reader();
        this.keys = new Keys(millis -> reader.read(Math.max(1, millis)), sequencesOf(terminal));
        this.restoreHook = new Thread(this::restore, "runaway-terminal-restore");
        Runtime.getRuntime().addShutdownHook(restoreHook);
    }

    static Terminal raw() throws IOException {
        dev.runaway.sys.Jna.knownPaths(); // JLine's JNA loads libc: no ldconfig for it either
        String type = typeFor(System.getenv("TERM"));
        // JLine asks infocmp for every type it has not loaded yet, even one it carries: load its own entry first.
        InfoCmp.setLoadedInfoCmp(type, InfoCmp.getDefaultInfoCmp(type));
        Tty tty = Tty.open(TTY);
        org.jline.terminal.Terminal t;
        try {
            t = TerminalBuilder.builder().system(true)
                    .provider("jna").jna(true).exec(false).jni(false).ffm(false).jansi(false).dumb(false)
                    .type(type).nativeSignals(false).build();
        } catch (IOException | RuntimeException e) {
            tty.close();
            throw e;
        }
        try {
            t.enterRawMode();
        } catch (RuntimeException e) {
            t.close();
            tty.restore();
            tty.close();
            throw new IOException("cannot set the terminal's mode: " + e.getMessage(), e);
        }
        // an alternate screen, cursor hidden, as top does; clicks reported (SGR encoding)
        t.writer().print("\033[?1049h\033[?25l");
        t.trackMouse(org.jline.terminal.Terminal.MouseTracking.Normal);
        t.writer().flush();
        return new Terminal(t, tty);
    }

    /**
     * The JLine entry for a {@code $TERM}: JLine carries xterm, screen, rxvt and ansi entries; for
     * any other type it would run {@code infocmp}. Each family sends the same keys as its entry.
     */
    static String typeFor(String term) {
        String t = term == null ? "" : term.toLowerCase(Locale.ROOT);
        if (t.startsWith("screen") || t.startsWith("tmux")) return t.contains("256") || t.startsWith("tmux") ? "screen-256color" : "screen";
        if (t.startsWith("rxvt-unicode") || t.startsWith("urxvt")) return "rxvt-unicode-256color";
        if (t.startsWith("rxvt")) return "rxvt";
        if (t.equals("xterm")) return "xterm";
        if (t.equals("dumb") || t.equals("ansi") || t.equals("linux") || t.equals("vt100") || t.equals("vt220")) return "ansi";
        return "xterm-256color"; // xterm-*, kitty, alacritty, foot, gnome (VTE), konsole: xterm's keys
    }

    /** The key sequences the terminal's entry names, for {@link Keys}. */
    private static Map<String, Keys.Kind> sequencesOf(org.jline.terminal.Terminal t) {
        Map<Capability, Keys.Kind> caps = Map.ofEntries(Map.entry(Capability.key_up, Keys.Kind.UP),
                Map.entry(Capability.key_down, Keys.Kind.DOWN), Map.entry(Capability.key_left, Keys.Kind.LEFT),
                Map.entry(Capability.key_right, Keys.Kind.RIGHT), Map.entry(Capability.key_home, Keys.Kind.HOME),
                Map.entry(Capability.key_end, Keys.Kind.END), Map.entry(Capability.key_ppage, Keys.Kind.PAGE_UP),
                Map.entry(Capability.key_npage, Keys.Kind.PAGE_DOWN), Map.entry(Capability.key_f1, Keys.Kind.F1),
                Map.entry(Capability.key_f5, Keys.Kind.F5), Map.entry(Capability.key_f6, Keys.Kind.F6),
                Map.entry(Capability.key_f9, Keys.Kind.F9), Map.entry(Capability.key_f10, Keys.Kind.F10));
        Map<String, Keys.Kind> out = new HashMap<>();
        caps.forEach((cap, kind) -> {
            String s = t.getStringCapability(cap);
            if (s != null && !s.isEmpty()) out.put(Curses.tputs(s), kind);
        });
        return out;
    }

    /** {rows, columns} now (it follows a resized window), or 40x120 when the terminal cannot tell. */
    int[] size() {
        Size s = terminal.getSize();
        return s.getRows() > 0 && s.getColumns() > 0 ? new int[] {s.getRows(), s.getColumns()} : FALLBACK_SIZE;
    }

    Keys keys() {
        return keys;
    }

    private void restore() {
        terminal.trackMouse(org.jline.terminal.Terminal.MouseTracking.Off);
        terminal.writer().print("\033[?25h\033[?1049l");
        terminal.writer().flush();
        try {
            terminal.close(); // JLine's restore, short of IEXTEN; then the mode as it was, exactly
        } catch (IOException | RuntimeException e) {
            // the exact restore below is what counts
        }
        try {
            tty.restore();
        } catch (IOException e) {
            System.err.println("runaway: could not restore the terminal (" + e.getMessage() + "); type: stty sane");
        }
    }

    @Override
    public void close() throws IOException {
        try {
            Runtime.getRuntime().removeShutdownHook(restoreHook);
        } catch (IllegalStateException shuttingDown) {
            return; // the hook runs restore
        }
        restore();
        tty.close();
    }
}
