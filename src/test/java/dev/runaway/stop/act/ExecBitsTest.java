// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop.act;

import dev.runaway.model.ProcessIdentity;
import dev.runaway.procfs.ProcStat;
import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The in-process revoke and restore against the swaps a user who owns the directory can make:
 * a symlink before the revoke or between revoke and restore, a replaced file, a directory on
 * the way swapped for a symlink, a second hard link, a setuid bit, a file no process of the stop
 * runs. The "root file" aimed at is a stand-in made here. The runner is a copy of sleep started
 * in a sandbox this test owns (cap 8 tasks), torn down after each case.
 */
@Tag("process")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ExecBitsTest {
    private static final Path PROC = Path.of("/proc");

    @TempDir
    Path root;
    @TempDir
    Path elsewhere;

    private Sandbox box;
    private Path tool;
    private Path secret;
    private ProcessIdentity runner;
    private ExecBits bits;

    @BeforeEach
    void start() throws Exception {
        tool = root.resolve("tool");
        Files.copy(Path.of("/bin/sleep"), tool, StandardCopyOption.COPY_ATTRIBUTES);
        Files.setAttribute(tool, "unix:mode", 0755);
        secret = elsewhere.resolve("secret");
        Files.writeString(secret, "root's");
        Files.setAttribute(secret, "unix:mode", 0600);
        box = Sandboxes.create(SandboxSpec.of("test-exec-bits", 8));
        Process p = box.start(new ProcessBuilder(tool.toString(), "300"));
        await().atMost(10, TimeUnit.SECONDS).until(() -> runsTool(p.pid()));
        runner = new ProcessIdentity((int) p.pid(), ProcStat.read(PROC, (int) p.pid()).orElseThrow().startTicks());
        bits = new ExecBits(PROC, file -> file.startsWith(root + "/") ? Optional.of(root.toString()) : Optional.empty(), 0);
    }

    @AfterEach
    void tearDown() {
        box.close();
    }

    private boolean runsTool(long pid) {
        try {
            return Files.readSymbolicLink(PROC.resolve(pid + "/exe")).equals(tool);
        } catch (Exception e) {
            return false;
        }
    }

    private static int mode(Path p) throws Exception {
        return (Integer) Files.getAttribute(p, "unix:mode") & 07777;
    }

    private ExecBits.Refusal refusal(ThrowingCall call) {
        try {
            call.run();
        } catch (ExecBits.Refused e) {
            return e.refusal();
        }
        throw new AssertionError("not refused");
    }

    private interface ThrowingCall {
        void run() throws ExecBits.Refused;
    }

    @Test
    void revokeAndRestoreTheSameInode() throws Exception {
        assertThat(bits.revoke(tool.toString(), List.of(runner))).isEqualTo(0755);
        assertThat(mode(tool)).isEqualTo(0644);
        assertThat(bits.restore(tool.toString())).isEqualTo(0755);
        assertThat(mode(tool)).isEqualTo(0755);
    }

    @Test
    void aSymlinkSwappedInAfterTheRevokeIsNotRestoredThrough() throws Exception {
        bits.revoke(tool.toString(), List.of(runner));
        Path link = root.resolve("tool.new");
        Files.createSymbolicLink(link, secret);
        Files.move(link, tool, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        assertThat(refusal(() -> bits.restore(tool.toString()))).isEqualTo(ExecBits.Refusal.SYMLINK);
        assertThat(mode(secret)).as("the stand-in root file").isEqualTo(0600);
    }

    @Test
    void anotherFileRenamedOverTheRevokedOneIsNotRestored() throws Exception {
        bits.revoke(tool.toString(), List.of(runner));
        Path other = root.resolve("other");
        Files.writeString(other, "another");
        Files.setAttribute(other, "unix:mode", 0600);
        Files.move(other, tool, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        assertThat(refusal(() -> bits.restore(tool.toString()))).isEqualTo(ExecBits.Refusal.REPLACED);
        assertThat(mode(tool)).isEqualTo(0600);
    }

    @Test
    void anInodeOfAnotherOwnerAtThePathIsNotRestored() throws Exception {
        bits.revoke(tool.toString(), List.of(runner));
        Files.setAttribute(tool, "unix:uid", 1); // as if the inode was freed and reused by daemon's file
        assertThat(refusal(() -> bits.restore(tool.toString()))).isEqualTo(ExecBits.Refusal.REPLACED);
        assertThat(mode(tool)).isEqualTo(0644);
    }

    @Test
    void aSymlinkSwappedInBeforeTheRevokeIsRefused() throws Exception {
        Path link = root.resolve("tool.new");
        Files.createSymbolicLink(link, secret);
        Files.move(link, tool, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        assertThat(refusal(() -> bits.revoke(tool.toString(), List.of(runner)))).isEqualTo(ExecBits.Refusal.SYMLINK);
        assertThat(mode(secret)).isEqualTo(0600);
    }

    @Test
    void aDirectoryOnTheWaySwappedForASymlinkIsRefused() throws Exception {
        Files.createDirectory(root.resolve("sub"));
        Files.createSymbolicLink(root.resolve("away"), elsewhere);
        Files.copy(Path.of("/bin/true"), elsewhere.resolve("tool"));
        Files.setAttribute(elsewhere.resolve("tool"), "unix:mode", 0755);
        assertThat(refusal(() -> bits.revoke(root.resolve("away/tool").toString(), List.of(runner)))).isEqualTo(ExecBits.Refusal.SYMLINK);
        assertThat(mode(elsewhere.resolve("tool"))).isEqualTo(0755);
    }

    @Test
    void aFileNoProcessOfTheStopRunsIsRefused() throws Exception {
        Path idle = root.resolve("idle");
        Files.copy(Path.of("/bin/true"), idle);
        Files.setAttribute(idle, "unix:mode", 0755);
        assertThat(refusal(() -> bits.revoke(idle.toString(), List.of(runner)))).isEqualTo(ExecBits.Refusal.NOT_RUN_BY_STOP);
        assertThat(refusal(() -> bits.revoke(tool.toString(), List.of()))).isEqualTo(ExecBits.Refusal.UNBOUND);
        assertThat(mode(idle)).isEqualTo(0755);
    }

    @Test
    void aSecondHardLinkOrASetuidBitIsRefused() throws Exception {
        Path link = root.resolve("link");
        Files.createLink(link, tool);
        assertThat(refusal(() -> bits.revoke(tool.toString(), List.of(runner)))).isEqualTo(ExecBits.Refusal.HARD_LINKS);
        Files.delete(link);
        Files.setAttribute(tool, "unix:mode", 04755);
        assertThat(refusal(() -> bits.revoke(tool.toString(), List.of(runner)))).isEqualTo(ExecBits.Refusal.SETUID);
        assertThat(mode(tool)).isEqualTo(04755);
    }

    @Test
    void rootChangesNoFileOfOneUserBecauseAnotherUsersProcessRunsIt() throws Exception {
        Files.setAttribute(tool, "unix:uid", 1); // daemon's tool, run by this (root's) process
        assertThat(refusal(() -> bits.revoke(tool.toString(), List.of(runner)))).isEqualTo(ExecBits.Refusal.NOT_RUNNERS);
        assertThat(mode(tool)).isEqualTo(0755);
    }

    @Test
    void pathsOutsideTheRootsOrNotCanonicalAreRefused() {
        assertThat(refusal(() -> bits.revoke(secret.toString(), List.of(runner)))).isEqualTo(ExecBits.Refusal.NOT_DISPOSABLE);
        assertThat(refusal(() -> bits.revoke(root + "/./tool", List.of(runner)))).isEqualTo(ExecBits.Refusal.NOT_CANONICAL);
        assertThat(refusal(() -> bits.revoke(root + "/sub/../tool", List.of(runner)))).isEqualTo(ExecBits.Refusal.NOT_CANONICAL);
        assertThat(refusal(() -> bits.restore(tool.toString()))).isEqualTo(ExecBits.Refusal.NOT_REVOKED);
    }
}
