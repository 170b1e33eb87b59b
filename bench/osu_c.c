/* The C twin of io.github.mpi4j.bench.Osu: same tests, same iteration counts, same output
 * lines, linked to the same MPI, so bench/run.sh can report honest ratios.
 *   osu_c latency|bw|allreduce|bcast [maxBytes] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define WINDOW 64

static double now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static long iterations(long size, long small) {
    if (size <= 8192) return small;
    long n = (64L << 20) / size;
    if (n > small) n = small;
    return n < 20 ? 20 : n;
}

/* Buffers are written before use, as OSU's benchmarks do: untouched calloc memory maps every
 * page to the kernel's one zero page, which makes reading it (the sender's side) unfairly
 * cheap compared with the Java side's real, zeroed buffers. */
static char *touched(long size) {
    char *p = malloc(size > 0 ? size : 1);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    memset(p, 'a', size > 0 ? size : 1);
    return p;
}

static double latency(int rank, long size) {
    char *buf = touched(size);
    long iters = iterations(size, 10000);
    long warm = iters / 2 > (size <= 8192 ? 5000 : 10) ? iters / 2 : (size <= 8192 ? 5000 : 10);
    double t = 0;
    for (int phase = 0; phase < 2; phase++) {
        long n = phase == 0 ? warm : iters;
        MPI_Barrier(MPI_COMM_WORLD);
        double start = now_us();
        for (long i = 0; i < n; i++) {
            if (rank == 0) {
                MPI_Send(buf, (int)size, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
                MPI_Recv(buf, (int)size, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else if (rank == 1) {
                MPI_Recv(buf, (int)size, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, (int)size, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
            }
        }
        t = (now_us() - start) / (2.0 * n);
    }
    free(buf);
    return t;
}

static double bandwidth(int rank, long size) {
    char *bufs[WINDOW];
    MPI_Request reqs[WINDOW];
    int ack = 0;
    for (int w = 0; w < WINDOW; w++) bufs[w] = touched(size);
    long iters = (256L << 20) / (size * WINDOW);
    if (iters > 2000) iters = 2000;
    if (iters < 10) iters = 10;
    double mbps = 0;
    for (int phase = 0; phase < 2; phase++) {
        long n = phase == 0 ? (iters / 4 > 10 ? iters / 4 : 10) : iters;
        MPI_Barrier(MPI_COMM_WORLD);
        double start = now_us();
        for (long i = 0; i < n; i++) {
            if (rank == 0) {
                for (int w = 0; w < WINDOW; w++) MPI_Isend(bufs[w], (int)size, MPI_BYTE, 1, 2, MPI_COMM_WORLD, &reqs[w]);
                MPI_Waitall(WINDOW, reqs, MPI_STATUSES_IGNORE);
                MPI_Recv(&ack, 1, MPI_INT, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else if (rank == 1) {
                for (int w = 0; w < WINDOW; w++) MPI_Irecv(bufs[w], (int)size, MPI_BYTE, 0, 2, MPI_COMM_WORLD, &reqs[w]);
                MPI_Waitall(WINDOW, reqs, MPI_STATUSES_IGNORE);
                MPI_Send(&ack, 1, MPI_INT, 0, 3, MPI_COMM_WORLD);
            }
        }
        double secs = (now_us() - start) / 1e6;
        mbps = (double)size * WINDOW * n / secs / 1e6;
    }
    for (int w = 0; w < WINDOW; w++) free(bufs[w]);
    return mbps;
}

static double timed(long iters, int is_allreduce, void *s, void *r, int count) {
    long warm = iters / 2 > 10 ? iters / 2 : 10;
    for (long i = 0; i < warm; i++) {
        if (is_allreduce) MPI_Allreduce(s, r, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        else MPI_Bcast(s, count, MPI_BYTE, 0, MPI_COMM_WORLD);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    double start = now_us();
    for (long i = 0; i < iters; i++) {
        if (is_allreduce) MPI_Allreduce(s, r, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        else MPI_Bcast(s, count, MPI_BYTE, 0, MPI_COMM_WORLD);
    }
    double mine = (now_us() - start) / iters, worst = 0;
    MPI_Reduce(&mine, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    return worst;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const char *test = argc > 1 ? argv[1] : "latency";
    long max = argc > 2 ? atol(argv[2]) : (16L << 20);
    long min = strcmp(test, "allreduce") == 0 ? 8 : 1;
    for (long size = min; size <= max; size *= 2) {
        double v;
        if (strcmp(test, "latency") == 0) {
            v = latency(rank, size);
        } else if (strcmp(test, "bw") == 0) {
            v = bandwidth(rank, size);
        } else if (strcmp(test, "allreduce") == 0) {
            int count = (int)(size / 8);
            double *s = (double *)touched(size), *r = (double *)touched(size);
            for (int i = 0; i < count; i++) s[i] = i;
            v = timed(iterations(size, 2000), 1, s, r, count);
            free(s);
            free(r);
        } else {
            char *b = touched(size);
            v = timed(iterations(size, 2000), 0, b, NULL, (int)size);
            free(b);
        }
        if (rank == 0) printf("RESULT %s c %ld %.4f\n", test, size, v);
        fflush(stdout);
    }
    MPI_Finalize();
    return 0;
}
