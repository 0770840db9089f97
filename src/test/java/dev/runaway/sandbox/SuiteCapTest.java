// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sandbox;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The suite runner's own cap: when the suite runs through src/test/sh/run-suite (the README's
 * test command and CI), this JVM must be inside the suite's cgroup with its literal cap, so
 * everything the tests start is counted against it.
 */
@EnabledIfEnvironmentVariable(named = "RUNAWAY_SUITE_CGROUP", matches = ".+")
@org.junit.jupiter.api.Tag("process")
class SuiteCapTest {

    @Test
    void thisJvmRunsInsideTheSuitesCappedCgroup() throws Exception {
        Path suite = Path.of(System.getenv("RUNAWAY_SUITE_CGROUP"));
        String name = suite.getFileName().toString();
        assertThat(SandboxName.parse(name)).as("the suite cgroup carries the sandbox marker").isPresent();
        String own = Files.readString(Path.of("/proc/self/cgroup"));
        assertThat(own).as("this JVM is in the suite's cgroup").contains("/" + name);

        CgroupLayout layout = CgroupLayout.detect();
        Path capDir = layout.unifiedHas("pids") ? suite : layout.v1Pids().orElseThrow().resolve(name);
        assertThat(Files.readString(capDir.resolve("pids.max")).trim()).isEqualTo("2048");
        assertThat(System.getenv("RUNAWAY_SUITE_TASKS_MAX")).isEqualTo("2048");
    }
}
