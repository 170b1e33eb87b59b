/* The C twin of io.github.mpi4j.bench.ColdStart (bench/run.sh coldstart): the same cold-start
 * measurements from the first call after MPI_Init, the same output lines (kind "c").
 *   coldstart_c lat [rounds=20] [perRound=5000]
 *   coldstart_c allreduce [calls=20] [bytes=16777216] */
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

static long positive(const char *name, const char *value) {
    char *end;
    long v = strtol(value, &end, 10);
    if (*value == '\0' || *end != '\0' || v <= 0 || v > 0x7fffffffL) {
        fprintf(stderr, "coldstart_c: %s = %s (must be a positive integer)\n", name, value);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return v;
}

static void *alloc_or_abort(size_t n) {
    void *p = malloc(n > 0 ? n : 1);
    if (!p) {
        fprintf(stderr, "coldstart_c: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return p;
}

static void latency(int rank, int size, long rounds, long per) {
    if (size < 2) {
        fprintf(stderr, "coldstart_c: lat needs 2 ranks or more\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    char buf[8];
    memset(buf, 1, sizeof buf);
    double *avg = alloc_or_abort(rounds * sizeof(double)), *stall = alloc_or_abort(rounds * sizeof(double));
    for (long r = 0; r < rounds; r++) {
        double worst = 0, start = now_us();
        for (long i = 0; i < per; i++) {
            if (rank == 0) {
                double t0 = now_us();
                MPI_Send(buf, 8, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
                MPI_Recv(buf, 8, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                double rt = now_us() - t0;
                if (rt > worst) worst = rt;
            } else if (rank == 1) {
                MPI_Recv(buf, 8, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, 8, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
            }
        }
        avg[r] = (now_us() - start) / (2.0 * per);
        stall[r] = worst / 2;
    }
    if (rank == 0)
        for (long r = 0; r < rounds; r++) printf("COLD lat c %ld %.4f %.3f\n", r + 1, avg[r], stall[r]);
    free(avg);
    free(stall);
}

static void check(const double *recv, long count, int size, long call) {
    long idx[4] = {0, 1, count / 2, count - 1};
    for (int k = 0; k < 4; k++) {
        long i = idx[k];
        if (i < 0 || i >= count) continue;
        double want = (double)size * i + size * (size - 1) / 2.0;
        if (recv[i] != want) {
            fprintf(stderr, "coldstart_c: allreduce call %ld: element %ld = %g, expected %g\n", call + 1, i, recv[i], want);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
}

static void allreduce(int rank, int size, long calls, long bytes) {
    long count = bytes / 8;
    if (count == 0) {
        fprintf(stderr, "coldstart_c: bytes = %ld (at least 8: one double)\n", bytes);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    /* Written before the first call, as the Java side does. */
    double *s = alloc_or_abort(count * sizeof(double)), *d = alloc_or_abort(count * sizeof(double));
    for (long i = 0; i < count; i++) {
        s[i] = rank + i;
        d[i] = -1;
    }
    double *ms = alloc_or_abort(calls * sizeof(double)), *worst = alloc_or_abort(calls * sizeof(double));
    for (long c = 0; c < calls; c++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = now_us();
        MPI_Allreduce(s, d, (int)count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        ms[c] = (now_us() - t0) / 1e3;
        if (c == 0 || c == calls - 1) check(d, count, size, c);
    }
    MPI_Reduce(ms, worst, (int)calls, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
        for (long c = 0; c < calls; c++) printf("COLD allreduce c %ld %.4f %ld\n", c + 1, worst[c], bytes);
    free(s);
    free(d);
    free(ms);
    free(worst);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *test = argc > 1 ? argv[1] : "lat";
    if (strcmp(test, "lat") == 0) {
        latency(rank, size, argc > 2 ? positive("rounds", argv[2]) : 20, argc > 3 ? positive("perRound", argv[3]) : 5000);
    } else if (strcmp(test, "allreduce") == 0) {
        allreduce(rank, size, argc > 2 ? positive("calls", argv[2]) : 20, argc > 3 ? positive("bytes", argv[3]) : 16L << 20);
    } else {
        if (rank == 0) fprintf(stderr, "coldstart_c: test %s (lat or allreduce)\n", test);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
