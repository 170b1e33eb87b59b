/* The C twin of io.github.mpi4j.bench.Overlap (bench/run.sh overlap): overlap of
 * MPI_Iallreduce with a busy loop, after OSU's osu_iallreduce; the same output lines (kind "c").
 * With "idle" the computation is a sleep instead (kind "c-idle"): the core is free meanwhile.
 *   overlap_c [sizes=1048576,16777216] [iters=100] [busy|idle] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static volatile double sink;

/* Floating-point busy work for about us microseconds, the clock read every 64 steps; returns
 * the time it took. */
static double compute(double us) {
    double start = now_us(), end = start + us, now, x = 1.0;
    do {
        for (int i = 0; i < 64; i++) x = x * 1.0000001 + 1e-9;
        now = now_us();
    } while (now < end);
    sink = x;
    return now - start;
}

/* The same span of time without the core (a rank waiting for a device, a disk or a network
 * that is not MPI's); returns the time it took. */
static double idle(double us) {
    double start = now_us(), end = start + us, now;
    while ((now = now_us()) < end) {
        double left = end - now;
        struct timespec ts = {(time_t)(left / 1e6), (long)((left - (time_t)(left / 1e6) * 1e6) * 1e3)};
        nanosleep(&ts, NULL);
    }
    return now - start;
}

static int idle_compute;

static void check(const double *recv, long count, int size) {
    long idx[3] = {0, count / 2, count - 1};
    for (int k = 0; k < 3; k++) {
        long i = idx[k];
        double want = (double)size * i + size * (size - 1) / 2.0;
        if (recv[i] != want) {
            fprintf(stderr, "overlap_c: element %ld = %g, expected %g\n", i, recv[i], want);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
}

static void measure(int rank, int size, long bytes, long iters) {
    long count = bytes / 8;
    double *s = malloc(count * sizeof(double)), *d = malloc(count * sizeof(double));
    if (!s || !d) {
        fprintf(stderr, "overlap_c: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (long i = 0; i < count; i++) {
        s[i] = rank + i;
        d[i] = -1;
    }
    MPI_Request req;
    for (long i = 0; i < iters; i++) {
        MPI_Iallreduce(s, d, (int)count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        compute(1);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = now_us();
    for (long i = 0; i < iters; i++) {
        MPI_Iallreduce(s, d, (int)count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    double pure = (now_us() - t0) / iters, work;
    check(d, count, size);
    MPI_Allreduce(&pure, &work, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    double comp = 0, overall = 0;
    for (long i = 0; i < iters; i++) {
        double a = now_us();
        MPI_Iallreduce(s, d, (int)count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req);
        comp += idle_compute ? idle(work) : compute(work);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        overall += now_us() - a;
    }
    check(d, count, size);
    double local[3] = {pure, comp / iters, overall / iters}, sum[3];
    MPI_Allreduce(local, sum, 3, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    for (int i = 0; i < 3; i++) sum[i] /= size;
    double pct = sum[0] > 0 ? 100 * (1 - (sum[2] - sum[1]) / sum[0]) : 0;
    if (pct < 0) pct = 0;
    if (rank == 0) printf("OVERLAP %s %ld %.2f %.2f %.2f %.1f\n", idle_compute ? "c-idle" : "c", count * 8, sum[0], sum[1],
                          sum[2], pct);
    fflush(stdout);
    free(s);
    free(d);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *sizes = argc > 1 ? argv[1] : "1048576,16777216";
    long iters = argc > 2 ? atol(argv[2]) : 100;  /* OSU: 100 iterations above 8 KiB */
    idle_compute = argc > 3 && strcmp(argv[3], "idle") == 0;
    if (argc > 3 && !idle_compute && strcmp(argv[3], "busy") != 0) {
        if (rank == 0) fprintf(stderr, "overlap_c: compute = %s (busy or idle)\n", argv[3]);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (iters <= 0) {
        if (rank == 0) fprintf(stderr, "overlap_c: iters = %s (must be > 0)\n", argv[2]);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    char *copy = strdup(sizes), *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        long bytes = atol(tok);
        if (bytes < 8 || bytes > 0x7fffffffL) {
            if (rank == 0) fprintf(stderr, "overlap_c: size = %s (8 bytes to 2 GiB)\n", tok);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        measure(rank, size, bytes, iters);
    }
    free(copy);
    MPI_Finalize();
    return 0;
}
