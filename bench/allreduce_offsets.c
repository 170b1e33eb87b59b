/* Open MPI's own 16 MiB allreduce of doubles with the user's buffers at several offsets within a
 * 4 KiB page: how much the time of one large allreduce follows where its buffers lie, in C
 * alone. A JVM places a Java array wherever its heap has room, so this spread is part of every
 * Java-versus-C ratio of that row (docs/performance.md, "Eighth session", issue 12 item 4).
 *
 *   mpirun -np 2 target/bench/allreduce_offsets [passes]
 *
 * Per offset: median and minimum of 20 timed calls after 5 untimed ones; the result is checked. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

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
    const long count = (16L << 20) / 8;
    const int offsets[] = {0, 16, 64, 264, 1024, 2048, 4032, 4080};
    int bad = 0;
    for (int pass = 0; pass < passes; pass++) {
        for (size_t k = 0; k < sizeof offsets / sizeof offsets[0]; k++) {
            int off = offsets[k];
            char *send_mem = NULL, *recv_mem = NULL;
            if (posix_memalign((void **)&send_mem, 4096, count * 8 + 4096) != 0 ||
                posix_memalign((void **)&recv_mem, 4096, count * 8 + 4096) != 0) {
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
            double *s = (double *)(send_mem + off), *r = (double *)(recv_mem + off), t[CALLS];
            for (long i = 0; i < count; i++) {
                s[i] = (double)(i % 1000) + rank;
                r[i] = 0;
            }
            for (int c = 0; c < WARM + CALLS; c++) {
                MPI_Barrier(MPI_COMM_WORLD);
                double t0 = MPI_Wtime();
                MPI_Allreduce(s, r, (int)count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
                if (c >= WARM) t[c - WARM] = MPI_Wtime() - t0;
            }
            /* sum over ranks of (i % 1000) + rank */
            for (long i = 0; i < count; i += 4093) {
                double want = (double)(i % 1000) * size + (double)size * (size - 1) / 2;
                if (r[i] != want) bad = 1;
            }
            qsort(t, CALLS, sizeof t[0], by_value);
            if (rank == 0) {
                printf("pass %d offset %4d: median %.2f ms, min %.2f ms\n", pass + 1, off, t[CALLS / 2] * 1e3,
                       t[0] * 1e3);
                fflush(stdout);
            }
            free(send_mem);
            free(recv_mem);
        }
    }
    if (bad) fprintf(stderr, "rank %d: wrong allreduce result\n", rank);
    MPI_Finalize();
    return bad;
}
