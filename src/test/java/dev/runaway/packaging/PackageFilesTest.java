// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.packaging;

import dev.runaway.sandbox.Sandbox;
import dev.runaway.sandbox.SandboxSpec;
import dev.runaway.sandbox.Sandboxes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The cheap half of packaging/check-deb: the package's small files (desktop file, metainfo and
 * its screenshots, polkit action, configs, units, icons, man pages generated from the command
 * model, the user guide as HTML from docs/*.md) are staged by
 * packaging/stage-files and pass packaging/validate; a copy with each file broken fails it,
 * naming each broken file. Needs the validators (desktop-file-utils, appstream,
 * libxml2-utils, polkitd's DTD, man-db, asciidoctor, cmark-gfm); skipped where they are missing, since
 * the scripts would install them and a test must not.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
@org.junit.jupiter.api.Tag("process")
class PackageFilesTest {
    private static final Path PACKAGING = Path.of("packaging");
    private static final String APP = "dev.runaway.Runaway";

    @BeforeAll
    static void theValidatorsAreHere() {
        for (String tool : List.of("desktop-file-validate", "appstreamcli", "xmllint", "man", "asciidoctor", "cmark-gfm", "perl", "file", "gzip")) {
            assumeTrue(onPath(tool), tool + " is not installed");
        }
        assumeTrue(Files.exists(Path.of("/usr/share/polkit-1/policyconfig-1.dtd")), "polkit's DTD (polkitd) is not installed");
    }

    @Test
    void theStagedFilesPassTheirValidators(@TempDir Path dir) throws Exception {
        Path root = stage(dir);
        assertThat(root.resolve("usr/share/man/man1/runaway.1.gz")).exists();
        assertThat(root.resolve("usr/share/man/man1/runaway-stop.1.gz")).as("one page per subcommand").exists();
        assertThat(root.resolve("lib/systemd/system/runaway-metrics.service")).exists();
        assertThat(root.resolve("usr/share/runaway/prometheus/runaway-rules.yml")).exists();
        assertThat(root.resolve("usr/share/runaway/grafana/runaway-dashboard.json")).exists();
        Path guide = root.resolve("usr/share/doc/runaway/html");
        for (String page : List.of("index", "guided-stop", "guard", "metrics", "console")) {
            assertThat(guide.resolve(page + ".html")).as("the installed guide's " + page).exists();
        }
        assertThat(Files.readString(guide.resolve("index.html")))
                .contains("<a href=\"guard.html\">").contains("<a href=\"metrics.html\">").contains("<a href=\"guided-stop.html\">")
                .doesNotContain(".md\"");

        Run validate = run(dir, "validate", root.toString());
        assertThat(validate.status).as(validate.output).isZero();
        assertThat(validate.output).doesNotContain("FAIL")
                .contains("ok    desktop file is valid").contains("ok    metainfo is valid")
                .contains("ok    polkit policy is valid").contains("ok    icon 512x512")
                .contains("ok    man page runaway-stop(1) renders")
                .contains("ok    guide's links, images and anchors resolve")
                .contains("ok    screenshot console-drill-orphans.png shipped")
                .contains("ok    /lib/systemd/system/runaway-guard.service points at the installed guide")
                .contains("ok    /lib/systemd/system/runaway-metrics.service points at the installed guide")
                .contains("ok    /etc/runaway/guard.conf points at the installed guide");
    }

    @Test
    void eachBrokenFileFailsTheValidation(@TempDir Path dir) throws Exception {
        Path root = stage(dir);
        append(root.resolve("usr/share/applications/" + APP + ".desktop"), "Bad Key=1\n");
        replace(root.resolve("usr/share/metainfo/" + APP + ".metainfo.xml"), "</summary>", "</summary><broken");
        replace(root.resolve("usr/share/polkit-1/actions/dev.runaway.helper.policy"), "<vendor>", "<vendor><bogus/>");
        Files.setPosixFilePermissions(root.resolve("etc/runaway/disposable-roots"), PosixFilePermissions.fromString("rw-rw-rw-"));
        Files.copy(root.resolve("usr/share/icons/hicolor/16x16/apps/" + APP + ".png"),
                root.resolve("usr/share/icons/hicolor/48x48/apps/" + APP + ".png"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        try (GZIPOutputStream out = new GZIPOutputStream(Files.newOutputStream(root.resolve("usr/share/man/man1/runaway-top.1.gz")))) {
            out.write(".TH RUNAWAY-TOP 1\n.SH NAME\nrunaway-top\n.NOSUCHMACRO\n.SH SYNOPSIS\nx\n".getBytes(StandardCharsets.US_ASCII));
        }
        Path guide = root.resolve("usr/share/doc/runaway/html");
        Files.delete(guide.resolve("images/drill-linear.png"));
        Files.copy(root.resolve("usr/share/icons/hicolor/16x16/apps/" + APP + ".png"),
                guide.resolve("images/console-drill-orphans.png"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        replace(root.resolve("etc/runaway/guard.conf"), "/usr/share/doc/runaway/html/guard.html", "docs/guard.md");

        Run validate = run(dir, "validate", root.toString());
        assertThat(validate.status).as(validate.output).isEqualTo(1);
        assertThat(validate.output)
                .contains("FAIL  desktop file is valid")
                .contains("FAIL  metainfo is valid")
                .contains("FAIL  polkit policy is valid")
                .contains("FAIL  disposable-roots")
                .contains("FAIL  icon 48x48")
                .contains("FAIL  man page runaway-top(1)")
                .contains("FAIL  guide's links").contains("images/drill-linear.png (no file)")
                .contains("FAIL  screenshot console-drill-orphans.png")
                .contains("FAIL  /etc/runaway/guard.conf points at a checkout's docs/guard.md")
                .contains("ok    icon 16x16").contains("ok    man page runaway-stop(1) renders")
                .contains("ok    screenshot console-stop-zero.png shipped")
                .contains("ok    /lib/systemd/system/runaway-guard.service points at the installed guide");
    }

    /** The files as build-deb stages them, the man pages from the classes under test. */
    private static Path stage(Path dir) throws Exception {
        Path root = dir.resolve("root");
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Run stage = run(dir, "stage-files", root.toString(), "0.0.0-test", classpath);
        assertThat(stage.status).as(stage.output).isZero();
        return root;
    }

    private record Run(int status, String output) {
    }

    /** Runs a packaging script in a sandbox of its own (stage-files may start Maven once). */
    private static Run run(Path dir, String script, String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of(PACKAGING.resolve(script).toString()));
        command.addAll(List.of(args));
        Path log = dir.resolve(script + ".log");
        try (Sandbox box = Sandboxes.create(SandboxSpec.of("test-" + script, 256))) {
            Process p = box.start(new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()));
            assertThat(p.waitFor(150, TimeUnit.SECONDS)).as(script + " finished").isTrue();
            return new Run(p.exitValue(), Files.readString(log));
        }
    }

    private static void append(Path file, String text) throws IOException {
        Files.writeString(file, Files.readString(file) + text);
    }

    private static void replace(Path file, String from, String to) throws IOException {
        String text = Files.readString(file);
        assertThat(text).contains(from);
        Files.writeString(file, text.replace(from, to));
    }

    private static boolean onPath(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, tool))) return true;
        }
        return false;
    }
}
