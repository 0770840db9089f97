// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.arch;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
import dev.runaway.arch.fixture.model.BadModel;
import dev.runaway.arch.fixture.procfs.NativeProcReader;
import dev.runaway.arch.fixture.sys.NativeCalls;
import dev.runaway.arch.fixture.stop.helper.BadHelper;
import dev.runaway.arch.fixture.stop.plan.BadPlan;
import dev.runaway.arch.fixture.stop.plan.GoodPlan;
import dev.runaway.arch.fixture.stop.run.FixtureRun;
import dev.runaway.arch.fixture.stop.target.BadTarget;
import dev.runaway.arch.fixture.stop.target.FixtureTarget;
import dev.runaway.arch.fixture.ui.FixtureView;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * One-way layers, and JavaFX/ChartFX only in the ui. Test classes are not imported, so the
 * deliberately bad fixtures under {@code dev.runaway.arch.fixture} only meet the control tests.
 */
@AnalyzeClasses(packages = "dev.runaway",
        importOptions = {ImportOption.DoNotIncludeTests.class, ImportOption.DoNotIncludeJars.class})
class LayerDependencyTest {

    @ArchTest
    static final ArchRule onlyUiUsesJavaFxOrChartFx = onlyUiUsesJavaFxOrChartFx("dev.runaway");

    @ArchTest
    static final ArchRule layersDependOneWay = layers("dev.runaway");

    @ArchTest
    static final ArchRule onlySysUsesJna = onlySysUsesJna("dev.runaway");
    // The stop by phase (docs/architecture.md): what a target is depends on no later phase; the
    // plan does not run; the helper's side knows no other part of the stop.
    @ArchTest
    static final ArchRule stopTargetUsesNoLaterPhase = stopTargetUsesNoLaterPhase("dev.runaway");

    @ArchTest
    static final ArchRule stopPlanDoesNotRun = stopPlanDoesNotRun("dev.runaway");

    @ArchTest
    static final ArchRule stopHelperUsesNoOtherStopPackage = stopHelperUsesNoOtherStopPackage("dev.runaway");

    static ArchRule stopTargetUsesNoLaterPhase(String root) {
        return noClasses().that().resideInAPackage(root + ".stop.target..").should().dependOnClassesThat()
                .resideInAnyPackage(root + ".stop.plan..", root + ".stop.run..", root + ".stop.act..", root + ".stop.helper..");
    }

    static ArchRule stopPlanDoesNotRun(String root) {
        return noClasses().that().resideInAPackage(root + ".stop.plan..").should().dependOnClassesThat()
                .resideInAPackage(root + ".stop.run..");
    }

    static ArchRule stopHelperUsesNoOtherStopPackage(String root) {
        return noClasses().that().resideInAPackage(root + ".stop.helper..").should().dependOnClassesThat(
                resideInAPackage(root + ".stop..").and(resideOutsideOfPackage(root + ".stop.helper..")));
    }

    static ArchRule onlyUiUsesJavaFxOrChartFx(String root) {
        return noClasses().that().resideOutsideOfPackage(root + ".ui..")
                .should().dependOnClassesThat().resideInAnyPackage("javafx..", "io.fair_acc..");
    }

    /** Native calls (JNA) only in sys, which names their errno and signal numbers (sys.Errno, sys.Signal). */
    static ArchRule onlySysUsesJna(String root) {
        return noClasses().that().resideOutsideOfPackage(root + ".sys..")
                .should().dependOnClassesThat().resideInAPackage("com.sun.jna..");
    }

    static LayeredArchitecture layers(String root) {
        return layeredArchitecture()
                .consideringOnlyDependenciesInLayers()
                .withOptionalLayers(true)
                .layer("model").definedBy(root + ".model..")
                .layer("sys").definedBy(root + ".sys..")
                // stoporder: the order of a stop (growth, kill, zero, restore), used by the sandbox's teardown and the stop
                .layer("stoporder").definedBy(root + ".stoporder..")
                .layer("procfs").definedBy(root + ".procfs..")
                .layer("sandbox").definedBy(root + ".sandbox..")
                .layer("analysis").definedBy(root + ".analysis..")
                .layer("timeline").definedBy(root + ".timeline..")
                .layer("stop").definedBy(root + ".stop..")
                .layer("export").definedBy(root + ".export..")
                .layer("drill").definedBy(root + ".drill..")
                .layer("guard").definedBy(root + ".guard..")
                .layer("view").definedBy(root + ".view..")
                .layer("metrics").definedBy(root + ".metrics..")
                .layer("ui").definedBy(root + ".ui..")
                .layer("tui").definedBy(root + ".tui..")
                .layer("bench").definedBy(root + ".bench..")
                .layer("cli").definedBy(root + ".cli..")
                .whereLayer("stoporder").mayOnlyBeAccessedByLayers(
                        "sandbox", "analysis", "timeline", "stop", "guard", "drill", "export", "ui", "tui", "cli", "bench")
                .whereLayer("sys").mayOnlyBeAccessedByLayers(
                        "procfs", "sandbox", "analysis", "timeline", "stop", "guard", "drill", "metrics", "ui", "tui", "cli", "bench")
                .whereLayer("procfs").mayOnlyBeAccessedByLayers(
                        "sandbox", "analysis", "timeline", "stop", "guard", "drill", "metrics", "ui", "tui", "cli", "bench")
                .whereLayer("sandbox").mayOnlyBeAccessedByLayers(
                        "analysis", "timeline", "stop", "guard", "drill", "ui", "tui", "cli", "bench")
                .whereLayer("analysis").mayOnlyBeAccessedByLayers("timeline", "stop", "guard", "export", "metrics", "view", "ui", "tui", "cli", "bench")
                .whereLayer("timeline").mayOnlyBeAccessedByLayers("stop", "guard", "export", "metrics", "view", "ui", "tui", "cli", "bench")
                .whereLayer("stop").mayOnlyBeAccessedByLayers("guard", "export", "metrics", "view", "ui", "tui", "cli", "bench")
                // guard: holds a runaway with the stop's first step when nobody watches (runaway guard)
                .whereLayer("guard").mayOnlyBeAccessedByLayers("metrics", "view", "ui", "tui", "cli", "bench")
                // view: the console's view models (rows, their order, severity, header figures), no JavaFX
                .whereLayer("view").mayOnlyBeAccessedByLayers("ui", "tui", "cli", "bench")
                // export: charts, CSV, JSON and reports of a timeline, headless (no JavaFX)
                .whereLayer("export").mayOnlyBeAccessedByLayers("ui", "cli")
                .whereLayer("drill").mayOnlyBeAccessedByLayers("ui", "tui", "cli", "bench")
                .whereLayer("ui").mayOnlyBeAccessedByLayers("bench", "cli") // bench ui times the console window
                .whereLayer("tui").mayOnlyBeAccessedByLayers("cli")
                // metrics: the analysis as Prometheus metrics (runaway metrics, bench metrics)
                .whereLayer("metrics").mayOnlyBeAccessedByLayers("bench", "cli")
                .whereLayer("bench").mayOnlyBeAccessedByLayers("cli")
                .whereLayer("cli").mayNotBeAccessedByAnyLayer()
                // model: may be accessed by every layer, and (being the bottom) accesses none,
                // which the rules above already say.
                ;
    }

    private static JavaClasses badFixture() {
        return new ClassFileImporter().importClasses(BadModel.class, FixtureView.class);
    }

    private static JavaClasses stopFixture(Class<?>... classes) {
        return new ClassFileImporter().importClasses(classes);
    }

    private static final String FIXTURE = "dev.runaway.arch.fixture";

    @Test
    void targetRuleFailsOnATargetThatUsesTheRun() {
        assertThat(stopTargetUsesNoLaterPhase(FIXTURE).evaluate(stopFixture(BadTarget.class, FixtureRun.class))
                .getFailureReport().toString()).contains(BadTarget.class.getName()).contains(FixtureRun.class.getName());
    }

    @Test
    void planRuleFailsOnAPlanThatUsesTheRunAndNotOnOneThatUsesATarget() {
        assertThat(stopPlanDoesNotRun(FIXTURE).evaluate(stopFixture(BadPlan.class, FixtureRun.class)).hasViolation()).isTrue();
        assertThat(stopPlanDoesNotRun(FIXTURE).evaluate(stopFixture(GoodPlan.class, FixtureTarget.class)).hasViolation()).isFalse();
        assertThat(stopTargetUsesNoLaterPhase(FIXTURE).evaluate(stopFixture(GoodPlan.class, FixtureTarget.class)).hasViolation())
                .isFalse();
    }

    @Test
    void helperRuleFailsOnAHelperThatUsesAnotherStopPackage() {
        assertThat(stopHelperUsesNoOtherStopPackage(FIXTURE).evaluate(stopFixture(BadHelper.class, GoodPlan.class))
                .getFailureReport().toString()).contains(BadHelper.class.getName()).contains(GoodPlan.class.getName());
    }

    @Test
    void javaFxRuleFailsOnAModelClassThatUsesJavaFx() {
        assertThat(onlyUiUsesJavaFxOrChartFx("dev.runaway.arch.fixture").evaluate(badFixture()).hasViolation())
                .isTrue();
    }

    @Test
    void layerRuleFailsOnAModelClassThatUsesTheUi() {
        assertThat(layers("dev.runaway.arch.fixture").evaluate(badFixture()).hasViolation()).isTrue();
    }

    @Test
    void jnaRuleFailsOnAClassOutsideSysThatUsesJnaAndOnlyOnIt() {
        String report = onlySysUsesJna("dev.runaway.arch.fixture")
                .evaluate(new ClassFileImporter().importClasses(NativeProcReader.class, NativeCalls.class))
                .getFailureReport().toString();

        assertThat(report).contains(NativeProcReader.class.getName()).contains("com.sun.jna.Memory")
                .doesNotContain(NativeCalls.class.getName());
    }

    @Test
    void controlViolationsNameTheBadDependencies() {
        String javaFx = onlyUiUsesJavaFxOrChartFx("dev.runaway.arch.fixture").evaluate(badFixture())
                .getFailureReport().toString();
        String layering = layers("dev.runaway.arch.fixture").evaluate(badFixture())
                .getFailureReport().toString();

        assertThat(javaFx).contains(BadModel.class.getName()).contains("javafx.scene.Node");
        assertThat(layering).contains(BadModel.class.getName()).contains(FixtureView.class.getName());
    }
}
