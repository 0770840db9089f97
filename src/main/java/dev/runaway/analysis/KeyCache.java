package dev.runaway.analysis;

import dev.runaway.model.ProcessIdentity;
import dev.runaway.model.ProcessSample;

import java.util.HashMap;
import java.util.Map;

/**
 * Command keys kept between scans: a key is worked out again only when the process's cmdline
 * or exe changed (an exec). The process table hands over the same cmdline list until it re-reads
 * it, so a reference comparison is enough.
 */
final class KeyCache {
    private static final class Entry {
        final java.util.List<String> cmdline;
        final String exe;
        final String key;
        int seen; // the last scan that asked for it

        Entry(java.util.List<String> cmdline, String exe, String key) {
            this.cmdline = cmdline;
            this.exe = exe;
            this.key = key;
        }
    }

    private final Map<ProcessIdentity, Entry> entries = new HashMap<>();
    private int scan;

    String of(ProcessSample p) {
        Entry e = entries.get(p.identity());
        if (e == null || e.cmdline != p.cmdline() || !e.exe.equals(p.exe())) {
            e = new Entry(p.cmdline(), p.exe(), CommandKeys.of(p));
            entries.put(p.identity(), e);
        }
        e.seen = scan;
        return e.key;
    }

    /**
     * Ends a scan in which {@link #of} was asked for every living process. Every tenth scan, the
     * processes it was not asked for are dropped: by the mark each entry carries, not a set of
     * the living (a set of 50,000 made now and then outlived young collections and was promoted).
     */
    void endScan(int living) {
        if (scan % 10 == 9 || entries.size() >= 2 * living + 1024) {
            int now = scan;
            entries.values().removeIf(e -> e.seen != now);
        }
        scan++;
    }
}
