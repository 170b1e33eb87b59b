package io.github.mpi4j.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A confidence interval for the median of a sample, from its order statistics: the sample's
 * j-th and (n+1-j)-th smallest values, with j the largest rank for which the chance that fewer
 * than j of n values fall under the true median (binomial, one half) is at most 2.5 %. So the
 * interval holds the median with at least 95 % confidence whatever the distribution, which
 * suits per-repetition ratios on a shared guest: skewed, with slow outliers from a placement
 * that changed mid-job. Needs 6 values (below that even [min, max] holds under 95 %).
 *
 * <p>Why: issue 12's small-message targets are ratios near 1.0 whose medians fell on either
 * side of it from run to run (forty-third session); the interval says whether a run can tell
 * Java from C at all.
 */
final class MedianInterval {
    private MedianInterval() {
    }

    /** {low, high} for {@code values}, or null with fewer than 6 values. */
    static double[] of(List<Double> values) {
        int n = values.size();
        int j = lowerRank(n);
        if (j < 1) return null;
        List<Double> s = new ArrayList<>(values);
        Collections.sort(s);
        return new double[] {s.get(j - 1), s.get(n - j)};
    }

    /** The 1-based rank j of the interval's low end for n values; 0 where none reaches 95 %. */
    static int lowerRank(int n) {
        // P(X <= i) for X ~ Binomial(n, 1/2), its terms in logarithms (no underflow for large n).
        double logTerm = -n * Math.log(2);  // log P(X = 0)
        double below = 0;                   // P(X <= i - 1)
        int j = 0;
        for (int i = 0; i < n; i++) {
            below += Math.exp(logTerm);     // now P(X <= i)
            if (below > 0.025) break;
            j = i + 1;                      // fewer than i + 1 values under the median: at most 2.5 %
            logTerm += Math.log(n - i) - Math.log(i + 1);
        }
        return j;
    }
}
