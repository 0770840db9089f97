// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.analysis;

import org.junit.jupiter.api.Test;

import java.util.function.DoubleUnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class GrowthFitTest {

    /** {@code n} points evenly spread over {@code spanSeconds}, starting at 0. */
    private static GrowthFit fit(int n, double spanSeconds, DoubleUnaryOperator value) {
        double[] t = new double[n];
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            t[i] = spanSeconds * i / (n - 1);
            v[i] = value.applyAsDouble(t[i]);
        }
        return GrowthFit.of(t, v, n);
    }

    @Test
    void fewerThanThreePointsIsUnknown() {
        assertThat(GrowthFit.of(new double[] {0, 1}, new double[] {1, 100}, 2).shape()).isEqualTo(GrowthShape.UNKNOWN);
        assertThat(GrowthFit.of(new double[0], new double[0], 0).shape()).isEqualTo(GrowthShape.UNKNOWN);
    }

    @Test
    void linearGrowthIsLinearWithItsSlope() {
        GrowthFit g = fit(30, 3, t -> 100 + 32 * t);

        assertThat(g.shape()).isEqualTo(GrowthShape.LINEAR);
        assertThat(g.perSecond()).isCloseTo(32, within(0.5));
        assertThat(g.growthRate()).isZero();
    }

    @Test
    void doublingEveryFifthOfASecondIsExponential() {
        GrowthFit g = fit(21, 2, t -> Math.pow(2, t / 0.2));

        assertThat(g.shape()).isEqualTo(GrowthShape.EXPONENTIAL);
        assertThat(g.growthRate()).isCloseTo(Math.log(2) / 0.2, within(0.01));
        assertThat(g.perSecond()).isPositive();
    }

    @Test
    void constantCountIsSteady() {
        assertThat(fit(30, 3, t -> 400).shape()).isEqualTo(GrowthShape.STEADY);
    }

    @Test
    void decreasingCountIsShrinking() {
        GrowthFit g = fit(30, 3, t -> 500 - 10 * t);

        assertThat(g.shape()).isEqualTo(GrowthShape.SHRINKING);
        assertThat(g.perSecond()).isCloseTo(-10, within(0.01));
    }

    @Test
    void linearSecondsUntilIsDistanceOverRate() {
        GrowthFit g = fit(30, 3, t -> 100 + 10 * t);

        assertThat(g.shape()).isEqualTo(GrowthShape.LINEAR);
        assertThat(g.secondsUntil(100, 200)).isCloseTo(10, within(0.01));
    }

    @Test
    void exponentialSecondsUntilIsLogRatioOverRate() {
        GrowthFit g = fit(21, 2, t -> Math.pow(2, t / 0.2));

        assertThat(g.secondsUntil(1024, 32768)).isCloseTo(Math.log(32768.0 / 1024) / g.growthRate(), within(1e-9));
        assertThat(g.secondsUntil(1024, 32768)).isCloseTo(1.0, within(0.01)); // five doublings
    }

    @Test
    void steadySecondsUntilIsNever() {
        assertThat(fit(30, 3, t -> 400).secondsUntil(400, 1000)).isEqualTo(-1);
        assertThat(fit(30, 3, t -> 500 - 10 * t).secondsUntil(470, 1000)).isEqualTo(-1);
    }

    @Test
    void limitAlreadyReachedIsZeroSeconds() {
        assertThat(fit(30, 3, t -> 100 + 10 * t).secondsUntil(200, 200)).isZero();
    }
}
