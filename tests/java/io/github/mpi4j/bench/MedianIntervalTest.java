package io.github.mpi4j.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The median's order-statistic interval against binomial tail sums worked out by hand (and in
 * any table of the sign test): for n values the low end is the j-th smallest, j the largest rank
 * with P(Binomial(n, 1/2) <= j - 1) <= 0.025.
 */
class MedianIntervalTest {
    @Test
    void ranksMatchTheBinomialTails() {
        assertEquals(0, MedianInterval.lowerRank(5));   // P(X <= 0) = 1/32 = 0.031: no 95 % interval
        assertEquals(1, MedianInterval.lowerRank(6));   // 1/64 = 0.016; P(X <= 1) = 7/64 = 0.109
        assertEquals(1, MedianInterval.lowerRank(8));   // P(X <= 1) = 9/256 = 0.035
        assertEquals(2, MedianInterval.lowerRank(9));   // P(X <= 1) = 10/512 = 0.0195; P(X <= 2) = 46/512
        assertEquals(4, MedianInterval.lowerRank(15));  // P(X <= 3) = 0.0176; P(X <= 4) = 0.0592
        assertEquals(10, MedianInterval.lowerRank(30)); // P(X <= 9) = 0.0214; P(X <= 10) = 0.0494
        assertEquals(40, MedianInterval.lowerRank(100)); // P(X <= 39) = 0.0176; P(X <= 40) = 0.0284
    }

    @Test
    void theIntervalIsTheSortedSamplesJthValueFromEachEnd() {
        List<Double> values = new ArrayList<>();
        for (int i = 1; i <= 30; i++) values.add(i / 10.0);
        Collections.shuffle(values, new java.util.Random(7));
        assertArrayEquals(new double[] {1.0, 2.1}, MedianInterval.of(values), 1e-12);  // 10th and 21st of 0.1..3.0
        assertNull(MedianInterval.of(values.subList(0, 5)));
    }

    @Test
    void verdictsNeedTheWholeIntervalOnOneSide() {
        List<Double> under = List.of(0.90, 0.91, 0.92, 0.93, 0.94, 0.95, 0.96, 0.97, 0.98, 0.99);  // n 10: j 2
        List<Double> straddling = List.of(0.90, 0.92, 0.95, 0.97, 0.99, 1.01, 1.03, 1.05, 1.08, 1.10);
        List<Double> over = List.of(1.01, 1.02, 1.03, 1.04, 1.05, 1.06, 1.07, 1.08, 1.09, 1.10);
        assertEquals("met ✓", Report.verdict("latency", under));
        assertEquals("missed ✗", Report.verdict("bw", under));
        assertEquals("tie (1.0 within)", Report.verdict("latency", straddling));
        assertEquals("tie (1.0 within)", Report.verdict("bw", straddling));
        assertEquals("missed ✗", Report.verdict("latency", over));
        assertEquals("met ✓", Report.verdict("bw", over));
        assertEquals("too few repetitions", Report.verdict("bw", over.subList(0, 5)));
    }
}
