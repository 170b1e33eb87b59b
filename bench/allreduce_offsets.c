/* Open MPI's own 16 MiB allreduce (or reduce) of doubles with the user's buffers at several places
 * within a 4 KiB page: how much the time of one large reduction follows where its buffers lie, in
 * C alone. A JVM places a Java array wherever its heap has room, so this is part of every
 * Java-versus-C ratio of that row (docs/performance.md, "Eighth session", issue 12 item 4).
 *
 *   mpirun -np 2 target/bench/allreduce_offsets [passes] [same|gap] [allreduce|reduce|scan|exscan]
 *
 * same (the default): both buffers at the same offset into their pages.
 * gap: the receive buffer that many bytes past the send buffer modulo 4 KiB (both in one block),
 * as two Java arrays allocated one after the other lie 16 bytes apart that way; Open MPI's
 * reduction loop then meets "4K aliasing" (docs/performance.md, "Twenty-eighth session").
 * Per offset: median and minimum of 20 timed calls after 5 untimed ones, on rank 0 (the last rank
 * for scan and exscan, whose work grows with the rank); the result is checked where it is known
 * (every rank of an allreduce, the root of a reduce). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CALLS 20
#define WARM 5

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int passes = argc > 1 ? atoi(argv[1]) : 2;
    int gap_mode = argc > 2 && strcmp(argv[2], "gap") == 0;
    const char *op = argc > 3 ? argv[3] : "allreduce";
    int all = strcmp(op, "allreduce") == 0, scan = strcmp(op, "scan") == 0, exscan = strcmp(op, "exscan") == 0;
    int reporter = scan || exscan ? size - 1 : 0;
    const long count = (16L << 20) / 8;
    const size_t bytes = (size_t)count * 8;
    const int same_offsets[] = {0, 16, 64, 264, 1024, 2048, 4032, 4080};
    const int gaps[] = {0, 8, 16, 24, 32, 48, 64, 128, 1024, 4088};
    const int *offsets = gap_mode ? gaps : same_offsets;
    size_t n_offsets = gap_mode ? sizeof gaps / sizeof gaps[0] : sizeof same_offsets / sizeof same_offsets[0];
    int bad = 0;
    for (int pass = 0; pass < passes; pass++) {
        for (size_t k = 0; k < n_offsets; k++) {
            int off = offsets[k];
            char *send_mem = NULL, *recv_mem = NULL;
            double *s, *r;
            if (gap_mode) { /* one block: the receive buffer starts off bytes past a page after the send buffer */
                if (posix_memalign((void **)&send_mem, 4096, 2 * bytes + 2 * 4096) != 0) MPI_Abort(MPI_COMM_WORLD, 1);
                s = (double *)send_mem;
                r = (double *)(send_mem + bytes + 4096 + off);
            } else {
                if (posix_memalign((void **)&send_mem, 4096, bytes + 4096) != 0 ||
                    posix_memalign((void **)&recv_mem, 4096, bytes + 4096) != 0) {
                    MPI_Abort(MPI_COMM_WORLD, 1);
                }
                s = (double *)(send_mem + off);
                r = (double *)(recv_mem + off);
            }
            double t[CALLS];
            for (long i = 0; i < count; i++) {
                s[i] = (double)(i % 1000) + rank;
                r[i] = 0;
            }
            for (int c = 0; c < WARM + CALLS; c++) {
                MPI_Barrier(MPI_COMM_WORLD);
                double t0 = MPI_Wtime();
                if (all) MPI_Allreduce(s, r, (int)count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
                else if (scan) MPI_Scan(s, r, (int)count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
                else if (exscan) MPI_Exscan(s, r, (int)count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
                else MPI_Reduce(s, r, (int)count, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
                if (c >= WARM) t[c - WARM] = MPI_Wtime() - t0;
            }
            /* sum over ranks of (i % 1000) + rank */
            for (long i = 0; (all || (rank == 0 && !scan && !exscan)) && i < count; i += 4093) {
                double want = (double)(i % 1000) * size + (double)size * (size - 1) / 2;
                if (r[i] != want) bad = 1;
            }
            qsort(t, CALLS, sizeof t[0], by_value);
            if (rank == reporter) {
                printf("pass %d %s %s %4d: median %.2f ms, min %.2f ms\n", pass + 1, op,
                       gap_mode ? "gap" : "offset", off, t[CALLS / 2] * 1e3, t[0] * 1e3);
                fflush(stdout);
            }
            free(send_mem);
            free(recv_mem);
        }
    }
    if (bad) fprintf(stderr, "rank %d: wrong result\n", rank);
    MPI_Finalize();
    return bad;
}
