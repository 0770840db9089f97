// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.analysis;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.runaway.model.Json;
import dev.runaway.model.ProcessIdentity;
import dev.runaway.model.PulseSample;

/**
 * The snapshot as JSON, the shape {@code runaway scan --json} promises: top-level {@code time},
 * {@code tasks}, {@code forksPerSecond}, {@code memory}, {@code swap}, {@code pressure} (null
 * without PSI) and {@code groups}, most severe first.
 */
public final class SnapshotJson {
    private SnapshotJson() {
    }

    public static ObjectNode of(Snapshot s) {
        return of(s, java.util.Map.of());
    }

    /**
     * With, per group, {@code targets}: the processes (pid and start time) a stop of it would take,
     * from {@link Analyzer#allTargets()}; a group missing from the map gets none listed.
     */
    public static ObjectNode of(Snapshot s, java.util.Map<String, java.util.List<ProcessIdentity>> targets) {
        ObjectNode root = Json.TREES.createObjectNode();
        PulseSample p = s.pulse();
        root.put("time", s.time().toString());
        root.put("tasks", p.tasks());
        root.put("forksPerSecond", round(s.forksPerSecond()));
        root.put("processes", s.processes());
        ObjectNode memory = root.putObject("memory");
        memory.put("totalBytes", p.memoryTotalBytes());
        memory.put("usedBytes", p.memoryUsedBytes());
        memory.put("availableBytes", p.memoryAvailableBytes());
        ObjectNode swap = root.putObject("swap");
        swap.put("totalBytes", p.swapTotalBytes());
        swap.put("usedBytes", p.swapUsedBytes());
        if (p.pressure().isPresent()) {
            ObjectNode pressure = root.putObject("pressure");
            pressure.put("someAvg10", p.pressure().get().someAvg10());
            pressure.put("fullAvg10", p.pressure().get().fullAvg10());
        } else {
            root.putNull("pressure");
        }
        root.put("pidMax", p.pidMax());
        root.put("threadsMax", p.threadsMax());
        ArrayNode cgroups = root.putArray("cgroups");
        for (CgroupLoad c : s.cgroups()) {
            ObjectNode n = cgroups.addObject();
            n.put("cgroup", c.path());
            n.put("tasks", c.tasks());
            n.put("processes", c.processes());
            n.put("groups", c.groups());
            n.put("tasksPerSecond", round(c.rate()));
            n.put("growth", c.growthShape());
            if (c.pidsMax() >= 0) n.put("pidsMax", c.pidsMax()).put("room", c.room());
            else n.putNull("pidsMax").putNull("room");
            n.put("atCap", c.atCap());
            n.put("forksRefused", c.forksRefused());
            if (Double.isNaN(c.secondsLeft())) n.putNull("secondsToCap");
            else n.put("secondsToCap", round(c.secondsLeft()));
            n.put("self", c.self());
        }
        ArrayNode groups = root.putArray("groups");
        for (Group g : s.groups()) {
            ObjectNode n = group(g);
            java.util.List<ProcessIdentity> t = targets.get(g.command());
            if (t != null) {
                ArrayNode list = n.putArray("targets");
                for (ProcessIdentity id : t) list.addObject().put("pid", id.pid()).put("start", id.startTicks());
            }
            groups.add(n);
        }
        return root;
    }

    static ObjectNode group(Group g) {
        ObjectNode n = Json.TREES.createObjectNode();
        n.put("command", g.command());
        n.put("tasks", g.tasks());
        ArrayNode chains = n.putArray("chains");
        for (Chain c : g.chains()) {
            ObjectNode cn = chains.addObject();
            cn.put("rootPid", c.rootPid());
            cn.put("depth", c.depth());
            cn.put("tasks", c.tasks());
        }
        n.put("parentedToInit", g.parentedToInit());
        n.put("recursive", g.recursive());
        ArrayNode cycle = n.putArray("cycle");
        if (g.recursive()) g.cycle().forEach(cycle::add);
        n.put("repeats", g.repeats());
        n.put("rssBytes", g.rssBytes());
        n.put("memoryBytes", g.memoryBytes()).put("memorySource", g.memorySource().json());
        n.put("tasksPerSecond", round(g.tasksGrowth().perSecond()));
        n.put("bytesPerSecond", Math.round(g.bytesPerSecond()));
        n.put("growth", g.tasksGrowth().shape().json());
        if (g.secondsToExhaustion().isPresent()) {
            n.put("secondsToExhaustion", round(g.secondsToExhaustion().getAsDouble()));
            n.put("exhaustedBy", g.exhaustedBy());
        } else {
            n.putNull("secondsToExhaustion");
            n.putNull("exhaustedBy");
        }
        ArrayNode pids = n.putArray("pids");
        g.pids().forEach(pids::add);
        n.put("atCap", g.atCap());
        if (g.cap().isPresent()) {
            n.putObject("cap").put("limit", g.cap().get().limit()).put("value", g.cap().get().value());
        } else {
            n.putNull("cap");
        }
        n.put("forksRefused", g.forksRefused());
        n.put("cgroup", g.cgroup());
        n.put("self", g.self());
        return n;
    }

    private static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }
}
