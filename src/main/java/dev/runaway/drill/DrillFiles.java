// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.drill;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

/**
 * Writes what a drill runs into its temporary folder: the disposable copy of the worker for
 * the orphans drill, and the script pair for the recursive one. Everything lives under the
 * folder, so the guided stop may treat it as disposable and teardown removes it whole.
 */
final class DrillFiles {
    private DrillFiles() {
    }

    /** Copies the worker binary to FOLDER/cache/tool: a disposable binary in a test cache. */
    static Path disposableTool(Path folder, Path worker) throws IOException {
        Path cache = Files.createDirectories(folder.resolve("cache"));
        Path tool = cache.resolve("tool");
        Files.copy(worker, tool, StandardCopyOption.REPLACE_EXISTING);
        Files.setPosixFilePermissions(tool, PosixFilePermissions.fromString("rwxr-xr-x"));
        return tool;
    }

    /**
     * A deploy script that runs the test suite first, and a test that runs the deploy script
     * (retrying a failed deploy): each is sensible alone, together they re-enter each other
     * through two interpreters, and the retry keeps the chain pressing on its cap.
     */
    static Path recursivePair(Path folder, String python) throws IOException {
        Path deploy = folder.resolve("deploy.sh");
        Files.writeString(deploy, String.join("\n", List.of(
                "#!/bin/bash",
                "# Refuses to deploy code that fails its own tests: runs the suite first.",
                "set -e",
                "here=\"${0%/*}\"",
                "echo \"deploy.sh: running the tests before deploying\" >&2",
                "\"" + python + "\" -m unittest discover -s \"$here/tests\" -q",
                "echo \"deploy.sh: the deploy itself would start here\" >&2",
                "")), StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(deploy, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path tests = Files.createDirectories(folder.resolve("tests"));
        Files.writeString(tests.resolve("test_deployment.py"), String.join("\n", List.of(
                "import os, subprocess, time, unittest",
                "",
                "HERE = os.path.dirname(os.path.abspath(__file__))",
                "",
                "",
                "class DeploymentTest(unittest.TestCase):",
                "    def test_deploy_script_runs(self):",
                "        # Checks what deploy.sh would do, with the remote side faked out. Deploys",
                "        # over a flaky link fail now and then, so a failed one is tried again.",
                "        while True:",
                "            try:",
                "                if subprocess.run([\"bash\", os.path.join(HERE, \"..\", \"deploy.sh\")]).returncode == 0:",
                "                    return",
                "            except OSError:",
                "                pass",
                "            time.sleep(0.25)",
                "")), StandardCharsets.UTF_8);
        return deploy;
    }

    /** The python3 the recursive drill uses: Debian's, else the first on PATH. */
    static String python() {
        if (Files.isExecutable(Path.of("/usr/bin/python3"))) return "/usr/bin/python3";
        String path = System.getenv().getOrDefault("PATH", "");
        for (String dir : path.split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "python3"))) return Path.of(dir, "python3").toString();
        }
        throw new IllegalStateException("the recursive drill needs python3; install it with: apt-get install python3");
    }

    static void deleteTree(Path folder) {
        if (!Files.exists(folder)) return;
        try (var paths = Files.walk(folder)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot remove drill folder " + folder, e);
        }
    }
}
