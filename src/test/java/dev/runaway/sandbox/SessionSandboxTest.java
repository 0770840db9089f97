package dev.runaway.sandbox;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The unprivileged fallback, for real: a JVM running as {@code nobody} (through setpriv, inside
 * a cgroup sandbox this test owns, capped at 160 tasks) cannot write cgroups, so its sandbox is a
 * session with RLIMIT_NPROC; a fork loop in it hits the limit, and teardown reaches zero.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SessionSandboxTest {

    @Test
    void anUnprivilegedUserGetsASessionSandboxThatCapsAndTearsDown(@TempDir Path dir) throws Exception {
        assumeTrue(new com.sun.security.auth.module.UnixSystem().getUid() == 0, "needs root to switch to nobody");
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")), "needs setpriv (util-linux)");
        Path classpath = readableCopy(dir);
        try (Sandbox outer = Sandboxes.create(SandboxSpec.of("test-session-outer", 160))) {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            Process jvm = outer.start(new ProcessBuilder("/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup",
                    "--clear-groups", java, "-Xmx48m", "-XX:+UseSerialGC", "-XX:-UsePerfData",
                    "-Djava.io.tmpdir=" + dir, "-cp", classpath.resolve("classes") + ":" + classpath.resolve("test-classes")
                    + ":" + classpath.resolve("jna.jar"), "-Drunaway.native.dir=" + classpath.resolve("native"),
                    CrashChild.class.getName(), "session").redirectErrorStream(true));
            assertThat(jvm.waitFor(90, TimeUnit.SECONDS)).isTrue();
            String output = new String(jvm.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            Map<String, String> found = parse(output);
            assertThat(jvm.exitValue()).as(output).isZero();
            assertThat(found.get("kind")).as(output).isEqualTo("SessionSandbox");
            assertThat(found.get("containment")).contains("RLIMIT_NPROC").contains("weaker");
            assertThat(found.get("forkfailed")).as("the rlimit refused a fork: " + output).isEqualTo("true");
            assertThat(found.get("zero")).as(output).isEqualTo("true");
            assertThat(found.get("after")).isEqualTo("0");
        }
    }

    private static Map<String, String> parse(String output) {
        Map<String, String> found = new HashMap<>();
        for (String line : output.split("\n")) {
            int space = line.indexOf(' ');
            if (space > 0) found.putIfAbsent(line.substring(0, space), line.substring(space + 1));
        }
        return found;
    }

    /** nobody cannot read /root/.m2 or, perhaps, the checkout: copy what the child needs. */
    private static Path readableCopy(Path dir) throws IOException {
        Path target = Path.of(System.getProperty("runaway.native.dir")).getParent();
        copyTree(target.resolve("classes"), dir.resolve("classes"));
        copyTree(target.resolve("test-classes"), dir.resolve("test-classes"));
        copyTree(target.resolve("native"), dir.resolve("native"));
        Path jna = Path.of(com.sun.jna.Native.class.getProtectionDomain().getCodeSource().getLocation().getPath());
        Files.copy(jna, dir.resolve("jna.jar"));
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.toList()) {
                Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(
                        Files.isDirectory(p) || Files.isExecutable(p) ? "rwxrwxrwx" : "rw-r--r--"));
            }
        }
        return dir;
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> all = Files.walk(from)) {
            for (Path p : all.toList()) {
                Path dest = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) Files.createDirectories(dest);
                else Files.copy(p, dest, StandardCopyOption.COPY_ATTRIBUTES);
            }
        }
    }
}
