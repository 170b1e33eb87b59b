/*
 * How the guest's two CPUs relate to each other, measured: the numbers that decide which
 * "mode" a small-message benchmark runs in on a shared cloud machine.
 *
 *   cpu_pair [cpuA cpuB]      (default 0 1)
 *
 * Prints two RESULT lines:
 *   RESULT pair line_ns X     one-way time of a cache line between a thread on cpuA and one on
 *                             cpuB (a flag handed back and forth, half the round trip): on
 *                             the 2-vCPU EPYC guest 65-80 ns when the two share an L3, 205-240
 *                             ns across core complexes.
 *   RESULT pair shared_core Y the time of an integer loop on cpuA while cpuB runs the same loop,
 *                             over its time alone: about 1.0 on separate cores, 1.3-2 when the
 *                             two CPUs are hyperthreads of one core (or the host runs both on one).
 *
 * Both take about half a second. Build: gcc -O2 -pthread -o cpu_pair bench/cpu_pair.c
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int cpu_a = 0, cpu_b = 1;

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void pin(int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0) {
        perror("sched_setaffinity");
        exit(1);
    }
}

/* ---- the cache line's trip: each side waits for its turn and hands the flag over ---- */

enum { HANDOFFS = 400000 };
static _Alignas(64) _Atomic long turn;

static void *ponger(void *arg) {
    (void)arg;
    pin(cpu_b);
    for (long i = 1; i < 2L * HANDOFFS; i += 2) {
        while (atomic_load_explicit(&turn, memory_order_acquire) != i) { }
        atomic_store_explicit(&turn, i + 1, memory_order_release);
    }
    return NULL;
}

static double line_ns(void) {
    pthread_t t;
    atomic_store(&turn, 0);
    pthread_create(&t, NULL, ponger, NULL);
    pin(cpu_a);
    double start = 0;
    for (long i = 0; i < 2L * HANDOFFS; i += 2) {
        if (i == 2L * (HANDOFFS / 10)) start = now_ns(); /* the first tenth warms up */
        atomic_store_explicit(&turn, i + 1, memory_order_release);
        while (atomic_load_explicit(&turn, memory_order_acquire) != i + 2) { }
    }
    double took = now_ns() - start;
    pthread_join(t, NULL);
    return took / (2.0 * (HANDOFFS - HANDOFFS / 10));
}

/* ---- a core's share: four independent integer chains keep one core's ALUs busy ---- */

enum { LOOPS = 60000000 };
static _Atomic int go;
static volatile uint64_t sink;

static double integer_loop(void) {
    uint64_t a = 1, b = 2, c = 3, d = 4;
    double start = now_ns();
    for (long i = 0; i < LOOPS; i++) {
        a = a * 6364136223846793005ULL + 1; b ^= b << 13; b ^= b >> 7;
        c = c * 2862933555777941757ULL + 3; d += (d >> 3) ^ i;
    }
    sink = a ^ b ^ c ^ d;
    return now_ns() - start;
}

static void *loop_on_b(void *arg) {
    pin(cpu_b);
    while (!atomic_load(&go)) { }
    *(double *)arg = integer_loop();
    return NULL;
}

static double shared_core(void) {
    pin(cpu_a);
    integer_loop(); /* warm up the clock */
    double alone = integer_loop();
    double other;
    pthread_t t;
    atomic_store(&go, 0);
    pthread_create(&t, NULL, loop_on_b, &other);
    struct timespec pause = {0, 1000000};
    nanosleep(&pause, NULL);
    atomic_store(&go, 1);
    double together = integer_loop();
    pthread_join(t, NULL);
    return together / alone;
}

int main(int argc, char **argv) {
    if (argc == 3) {
        cpu_a = atoi(argv[1]);
        cpu_b = atoi(argv[2]);
    } else if (argc != 1) {
        fprintf(stderr, "usage: cpu_pair [cpuA cpuB]\n");
        return 2;
    }
    printf("RESULT pair line_ns %.1f\n", line_ns());
    printf("RESULT pair shared_core %.2f\n", shared_core());
    return 0;
}
