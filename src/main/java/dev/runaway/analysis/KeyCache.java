package dev.runaway.analysis;

import dev.runaway.model.ProcessIdentity;
import dev.runaway.model.ProcessSample;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Command keys kept between scans: a key is worked out again only when the process's cmdline
 * or exe changed (an exec). The process table hands over the same cmdline list until it re-reads
 * it, so a reference comparison is enough.
 */
final class KeyCache {
    private record Entry(List<String> cmdline, String exe, String key) {
    }

    private final Map<ProcessIdentity, Entry> entries = new HashMap<>();
    private int scans;

    String of(ProcessSample p) {
        Entry e = entries.get(p.identity());
        if (e != null && e.cmdline == p.cmdline() && e.exe.equals(p.exe())) return e.key;
        String key = CommandKeys.of(p);
        entries.put(p.identity(), new Entry(p.cmdline(), p.exe(), key));
        return key;
    }

    /** Drops processes that are gone, every tenth scan (the cache may hold them that long). */
    void forgetAllBut(List<ProcessSample> living) {
        if (++scans % 10 != 0 && entries.size() < 2 * living.size() + 1024) return;
        Set<ProcessIdentity> keep = new HashSet<>(living.size() * 2);
        for (ProcessSample p : living) keep.add(p.identity());
        entries.keySet().retainAll(keep);
    }
}
