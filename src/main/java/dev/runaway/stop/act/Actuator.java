// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop.act;

import dev.runaway.stop.StopException;
import dev.runaway.stop.helper.HelperBinding;
import dev.runaway.stop.helper.HelperClient;
import dev.runaway.stop.helper.HelperControl;
import dev.runaway.stop.helper.HelperStarter;
import dev.runaway.stop.helper.HelperUnavailable;
import dev.runaway.stop.plan.Disposable;
import dev.runaway.model.ProcessIdentity;
import dev.runaway.sandbox.CgroupLayout;
import dev.runaway.sys.LibC;
import dev.runaway.sandbox.CgroupFiles;
import dev.runaway.stop.act.CgroupWrites;
import dev.runaway.stop.act.ExecBits;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Iterator;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Pulls the levers: each action is tried first as the user (a user's own runaway needs no
 * privilege) and goes to the helper only when the kernel says EPERM. The helper is started on
 * first need through {@code helperStarter}, or not at all when there is none.
 */
public final class Actuator implements Actions, HelperControl, AutoCloseable {
    private final Path procRoot;
    private final Path unified;
    private final Path v1Pids;
    /** pids.max set to 0, by cgroup: its directory held open, so the old value goes back to that very cgroup. */
    private final java.util.Map<String, CgroupWrites.Capped> cappedPids = new java.util.HashMap<>();
    private final HelperStarter helperStarter;
    private final ExecBits execBits;
    private HelperClient helper;
    private int helperRequests;
    /** Why there is no helper, once a start failed or it exited: said once, and no second pkexec unasked. */
    private String helperUnavailable;
    /** The confirmed stop; sent to the helper before its first lever (never when all works as the user). */
    private HelperBinding binding;
    private boolean bindingSent;

    /** A helper that starts the same way ahead of need and for a stop (tests, benches, none at all). */
    public Actuator(Path procRoot, Supplier<HelperClient> helperStarter) {
        this(procRoot, (HelperStarter) confirmedStop -> helperStarter.get());
    }

    public Actuator(Path procRoot, HelperStarter helperStarter) {
        this.procRoot = procRoot;
        CgroupLayout layout = CgroupLayout.detect();
        this.unified = layout.unified().orElse(null);
        this.v1Pids = layout.v1Pids().orElse(null);
        this.helperStarter = helperStarter;
        this.execBits = new ExecBits(procRoot, Disposable.forThisUser()::rootOf, LibC.INSTANCE.geteuid());
    }

    /** Starts the helper now (before need: when pids run out, nothing can be started). */
    @Override
    public synchronized boolean warmUp() {
        return helper() != null;
    }

    /**
     * Starts the helper now for a stop the user confirmed before its plan was shown ({@code
     * runaway stop --yes}): its polkit prompt names that stop. Binds nothing: the engine does.
     */
    public synchronized boolean warmUp(HelperBinding confirmedStop) {
        return helper(Optional.of(confirmedStop)) != null;
    }

    /** Why the helper is not available (cancelled, not authorized, not installed, exited), or empty. */
    @Override
    public synchronized java.util.Optional<String> helperUnavailable() {
        return java.util.Optional.ofNullable(helperUnavailable);
    }

    /** The user asked again (a button, a new stop): the next need may start a helper once more. */
    @Override
    public synchronized void retryHelper() {
        if (helper == null || !helper.alive()) helperUnavailable = null;
    }

    /**
     * Binds the levers to the stop the user confirmed (docs/helper-protocol.md, BIND). The helper
     * hears of it only when a lever first needs it; {@link #unbind} ends it.
     */
    public synchronized void bind(HelperBinding confirmed) {
        binding = confirmed;
        bindingSent = false;
    }

    /** The stop is over: the helper forgets its set (and no longer finishes it should we die). */
    public synchronized void unbind() {
        if (bindingSent && helper != null && helper.alive()) {
            try {
                helper.request("UNBIND");
            } catch (IOException e) {
                helperUnavailable = "the helper stopped answering: " + e.getMessage();
            }
        }
        binding = null;
        bindingSent = false;
    }

    /** False when this console was made with {@link HelperStarter#NONE}: no helper, installed or not. */
    public boolean mayStartHelper() {
        return helperStarter != HelperStarter.NONE;
    }

    /** True when a helper has been started and still runs. */
    @Override
    public synchronized boolean hasHelper() {
        return helper != null && helper.alive();
    }

    /** How many requests went to the helper: 0 when everything was done as the user. */
    public synchronized int helperRequests() {
        return helperRequests;
    }

    @Override
    public Pidfd.Result signal(ProcessIdentity id, int signal) throws StopException {
        Pidfd.Result direct = Pidfd.signal(procRoot, id, signal);
        if (direct != Pidfd.Result.DENIED) return direct;
        HelperClient.Reply r = viaHelper("SIGNAL " + id.pid() + " " + id.startTicks() + " " + signal);
        if (r.ok()) return Pidfd.Result.SENT;
        if (r.code() == HelperClient.Code.GONE) return Pidfd.Result.GONE;
        throw new StopException("the helper refused to signal " + id + ": " + r.text());
    }

    @Override
    public void freeze(String cgroup, boolean frozen) throws StopException {
        writeOrHelper(cgroup, "cgroup.freeze", frozen ? "1" : "0", (frozen ? "FREEZE " : "THAW ") + cgroup);
    }

    @Override
    public void killCgroup(String cgroup) throws StopException {
        writeOrHelper(cgroup, "cgroup.kill", "1", "KILLCG " + cgroup);
    }

    @Override
    public synchronized boolean capPids(String cgroup) {
        if (cappedPids.containsKey(cgroup)) return true;
        Path file = pidsMaxOf(cgroup);
        if (file == null) return false;
        return CgroupWrites.cap(file).map(c -> cappedPids.put(cgroup, c) == null).orElse(false);
    }

    @Override
    public synchronized void adoptPidsCap(String cgroup, String file, String old) {
        if (cappedPids.containsKey(cgroup)) return;
        CgroupWrites.adopt(Path.of(file), old).ifPresent(c -> cappedPids.put(cgroup, c));
    }

    @Override
    public synchronized void uncapPids(String cgroup) {
        CgroupWrites.Capped was = cappedPids.remove(cgroup);
        if (was != null) was.putBack(); // a cgroup removed meanwhile has nothing to put back
    }

    /**
     * The pids.max governing this cgroup when that pids cgroup holds only its processes; else null.
     * The runaway forks and exits meanwhile: a member may be gone, and the pids cgroup may hold
     * children born since the members were listed, so those are checked one by one (runaway-rt's
     * pids_max_of does the same before the JVM).
     */
    private Path pidsMaxOf(String cgroup) {
        Path v2 = dir(cgroup).resolve("pids.max");
        if (Files.exists(v2)) return v2;
        Set<Integer> members = members(cgroup);
        if (members.isEmpty() || v1Pids == null) return null;
        String path = null;
        for (Iterator<Integer> it = members.iterator(); path == null && it.hasNext(); ) {
            path = cgroupLine(it.next(), ":pids:");
        }
        if (path == null || path.equals("/") || path.contains("..")) return null;
        Path dir = v1Pids.resolve(path.substring(1));
        for (int pid : CgroupFiles.membersRecursive(dir)) {
            if (!members.contains(pid) && !insideOrGone(pid, cgroup)) return null; // never cap others
        }
        return Files.exists(dir.resolve("pids.max")) ? dir.resolve("pids.max") : null;
    }

    /** The path after TAG in /proc/PID/cgroup ("0::" for v2, ":pids:" for v1 pids); null when unread. */
    private String cgroupLine(int pid, String tag) {
        try {
            for (String line : Files.readAllLines(procRoot.resolve(pid + "/cgroup"))) {
                if (tag.equals("0::") ? line.startsWith(tag) : line.contains(tag)) return line.substring(line.indexOf(tag) + tag.length());
            }
        } catch (IOException | RuntimeException gone) {
            return null;
        }
        return null;
    }

    /** PID is in CGROUP (v2) or below it, or it is gone and holds no slot. */
    private boolean insideOrGone(int pid, String cgroup) {
        String at = cgroupLine(pid, "0::");
        if (at == null) return !Files.exists(procRoot.resolve(Integer.toString(pid)));
        return at.equals(cgroup) || at.startsWith(cgroup.endsWith("/") ? cgroup : cgroup + "/");
    }

    /** Members of a cgroup and its children; cgroupfs lets anyone read them. */
    @Override
    public Set<Integer> members(String cgroup) {
        return CgroupFiles.membersRecursive(dir(cgroup));
    }

    @Override
    public boolean populated(String cgroup) {
        return CgroupFiles.populated(dir(cgroup));
    }


    @Override
    public boolean isFrozen(String cgroup) {
        try {
            for (String line : Files.readAllLines(dir(cgroup).resolve("cgroup.events"))) {
                if (line.equals("frozen 1")) return true;
            }
        } catch (IOException e) {
            return false;
        }
        return false;
    }

    /** Creates and freezes runaway-quarantine.NAME at the top of the v2 tree; returns its path. */
    @Override
    public String quarantine(String name) throws StopException {
        String cgroup = "/runaway-quarantine." + name;
        try {
            Files.createDirectories(dir(cgroup));
            CgroupWrites.write(dir(cgroup), "cgroup.freeze", "1");
            return cgroup;
        } catch (AccessDeniedException | CgroupWrites.Denied denied) {
            HelperClient.Reply r = viaHelper("QUARANTINE " + name);
            if (!r.ok()) throw new StopException("the helper would not make a quarantine: " + r.text());
            return r.text().trim();
        } catch (IOException e) {
            throw new StopException("cannot make the quarantine cgroup " + cgroup + ": " + e.getMessage());
        }
    }

    /** Moves one process, checked by start time, into a quarantine cgroup; false when it is gone. */
    @Override
    public boolean move(String quarantine, ProcessIdentity id) throws StopException {
        boolean same = dev.runaway.procfs.ProcStat.read(procRoot, id.pid())
                .map(s -> s.startTicks() == id.startTicks()).orElse(false);
        if (!same) return false;
        try {
            CgroupWrites.write(dir(quarantine), "cgroup.procs", Integer.toString(id.pid()));
            return true;
        } catch (CgroupWrites.Denied denied) {
            HelperClient.Reply r = viaHelper("MOVE " + quarantine + " " + id.pid() + " " + id.startTicks());
            if (r.ok()) return true;
            if (r.code() == HelperClient.Code.GONE) return false;
            throw new StopException("the helper would not move " + id + ": " + r.text());
        } catch (IOException e) {
            return false; // exited between the check and the move
        }
    }

    /** Thaws and removes an empty quarantine cgroup. */
    @Override
    public void release(String quarantine) throws StopException {
        try {
            CgroupWrites.write(dir(quarantine), "cgroup.freeze", "0");
            Files.delete(dir(quarantine));
        } catch (AccessDeniedException | CgroupWrites.Denied denied) {
            HelperClient.Reply r = viaHelper("RELEASE " + quarantine);
            if (!r.ok()) throw new StopException("the helper would not release " + quarantine + ": " + r.text());
        } catch (IOException e) {
            throw new StopException("cannot remove " + quarantine + ": " + e.getMessage());
        }
    }

    /** Sets a process's oom_score_adj through the helper (lowering it needs privilege). */
    public boolean oomAdjust(ProcessIdentity id, int value) throws StopException {
        HelperClient.Reply r = viaHelper("OOMADJ " + id.pid() + " " + id.startTicks() + " " + value);
        return r.ok();
    }

    /**
     * Takes the execute bits off a binary a process of the bound stop runs; returns the old mode.
     * In-process through {@link ExecBits} (descriptors only, the helper's rules); the helper only
     * when the kernel refuses us the file, and it keeps the same rules.
     */
    @Override
    public int revoke(String file) throws StopException {
        List<ProcessIdentity> runners = binding == null ? List.of() : binding.targets();
        try {
            return execBits.revoke(file, runners);
        } catch (ExecBits.Refused e) {
            if (e.refusal() != ExecBits.Refusal.NOT_PERMITTED) throw new StopException(e.getMessage());
        }
        HelperClient.Reply r = viaHelper("REVOKE " + file);
        if (!r.ok()) throw new StopException("the helper would not revoke " + file + ": " + r.text());
        return Integer.parseInt(r.text().trim(), 8);
    }

    /**
     * Puts back the bits the revoke took: in-process on the very inode {@link ExecBits} changed,
     * else through the helper that changed it (which checks the same); never a chmod by path.
     */
    @Override
    public void restore(String file, int mode) throws StopException {
        if (execBits.tookFrom(file)) {
            try {
                execBits.restore(file);
                return;
            } catch (ExecBits.Refused e) {
                throw new StopException(e.getMessage());
            }
        }
        HelperClient.Reply r = viaHelper("RESTORE " + file + " " + Integer.toOctalString(mode));
        if (!r.ok()) throw new StopException("the helper would not restore " + file + ": " + r.text());
    }

    private void writeOrHelper(String cgroup, String file, String value, String request) throws StopException {
        try {
            CgroupWrites.write(dir(cgroup), file, value);
            return;
        } catch (CgroupWrites.Denied denied) {
            HelperClient.Reply r = viaHelper(request);
            if (!r.ok()) throw new StopException("the helper refused '" + request + "': " + r.text());
        } catch (IOException e) {
            throw new StopException("cannot write " + file + " of " + cgroup + ": " + e.getMessage());
        }
    }

    private Path dir(String cgroup) {
        if (unified == null) throw new IllegalStateException("no cgroup v2 tree on this machine");
        if (!cgroup.startsWith("/") || cgroup.contains("..") || cgroup.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            throw new IllegalArgumentException("not a cgroup path: " + dev.runaway.model.SafeText.terminal(cgroup));
        }
        return unified.resolve(cgroup.substring(1));
    }

    private synchronized HelperClient.Reply viaHelper(String request) throws StopException {
        HelperClient h = helper();
        if (h == null) {
            throw new StopException("'" + request.split(" ")[0] + "' needs privilege and the helper is not available: "
                    + helperUnavailable + "; only what your own privileges allow was done");
        }
        try {
            sendBinding(h);
            helperRequests++;
            return h.request(request);
        } catch (IOException e) {
            helperUnavailable = "the helper stopped answering: " + e.getMessage();
            throw new StopException(helperUnavailable);
        }
    }

    /** BIND (falling back to no cgroup when the helper refuses that one), TARGET..., CONFIRM. */
    private void sendBinding(HelperClient h) throws IOException, StopException {
        if (binding == null || bindingSent) return;
        List<String> lines = binding.requests();
        HelperClient.Reply bind = h.request(lines.get(0));
        if (!bind.ok() && binding.cgroup().isPresent()) bind = h.request("BIND -");
        if (!bind.ok()) throw new StopException("the helper would not bind to the stop of " + binding.command() + ": " + bind.text());
        List<HelperClient.Reply> replies = h.requestAll(lines.subList(1, lines.size()), HelperClient.REQUEST_TIMEOUT);
        HelperClient.Reply confirm = replies.get(replies.size() - 1);
        if (!confirm.ok()) {
            h.request("UNBIND");
            throw new StopException("the helper would not confirm the stop of " + binding.command() + ": " + confirm.text());
        }
        bindingSent = true;
    }

    /** One helper per session: started once on need, never a new pkexec per request or after a failure. */
    private HelperClient helper() {
        return helper(Optional.ofNullable(binding)); // bound: started for the stop the user confirmed
    }

    private HelperClient helper(Optional<HelperBinding> forStop) {
        if (helper != null && helper.alive()) return helper;
        if (helper != null) {
            helper = null;
            bindingSent = false;
            if (helperUnavailable == null) helperUnavailable = "the helper exited";
        }
        if (helperUnavailable != null) return null;
        try {
            helper = helperStarter.start(forStop);
            if (helper == null) helperUnavailable = "none is installed for this console (run Runaway as root, or install the package)";
        } catch (HelperUnavailable e) {
            helperUnavailable = e.getMessage();
        }
        return helper;
    }

    @Override
    public synchronized void close() {
        if (helper != null) helper.close();
    }
}
