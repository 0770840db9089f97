// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.analysis;

/**
 * Where a group's memory figure comes from, best first. Summed RSS counts a page shared by a
 * thousand forked children a thousand times; a cgroup's charge and PSS count it once.
 */
public enum MemorySource {
    /** The v2 memory.current of a cgroup that holds exactly the group, less its inactive file cache. */
    CGROUP_V2("memory.current", "cgroup memory.current"),
    /** The v1 memory controller's memory.usage_in_bytes of such a cgroup, less its inactive file cache. */
    CGROUP_V1("memory.usage_in_bytes", "cgroup memory.usage_in_bytes"),
    /** The members' proportional set sizes (/proc/PID/smaps_rollup): shared pages split among their users. */
    PSS("pss", "PSS"),
    /** Summed resident sets, at most the machine's used memory: the last resort. */
    RSS("rss", "RSS, capped");

    private final String json;
    private final String words;

    MemorySource(String json, String words) {
        this.json = json;
        this.words = words;
    }

    public String json() {
        return json;
    }

    /** For a legend or a report: "cgroup memory.current", "PSS", "RSS, capped". */
    public String words() {
        return words;
    }

    /** Read back from a recording; RSS for an absent or unknown name (recordings before the field). */
    public static MemorySource ofJson(String json) {
        for (MemorySource s : values()) if (s.json.equals(json)) return s;
        return RSS;
    }
}
