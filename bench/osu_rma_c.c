/* One-sided twin of io.github.mpi4j.bench.OsuRma (bench/run_rma.sh): OSU-style put and get latency
 * (MPI_Put or MPI_Get + MPI_Win_flush per iteration under MPI_Win_lock_all, as osu_put_latency and
 * osu_get_latency with flush synchronization; OSU's 10,000 iterations below 64 KiB) and get
 * bandwidth (a window of 64 MPI_Get then MPI_Win_flush, as osu_get_bw)
 * between ranks 0 and 1 in an MPI_Win_allocate window. Prints
 *   RESULT c <test> <bytes> <value>   (latency in microseconds, bandwidth in MB/s). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WINDOW 64

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *test = argc > 1 ? argv[1] : "put_latency";
    long max = argc > 2 ? atol(argv[2]) : 1 << 20;
    int bw = strcmp(test, "get_bw") == 0, get = strcmp(test, "get_latency") == 0;
    long winbytes = bw ? max * WINDOW : max;
    char *mem, *origin = malloc((size_t)winbytes);
    memset(origin, 1, (size_t)winbytes);
    MPI_Win win;
    MPI_Win_allocate((MPI_Aint)winbytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    memset(mem, 0, (size_t)winbytes);
    MPI_Barrier(MPI_COMM_WORLD);
    for (long n = bw ? 4096 : 8; n <= max; n *= bw ? 16 : 8) {
        int iters = bw ? (n >= 1 << 20 ? 10 : 40) : (n >= 65536 ? 1000 : 10000), warm = iters / 10;
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 0) {
            MPI_Win_lock_all(0, win);
            double t0 = 0;
            for (int i = 0; i < warm + iters; i++) {
                if (i == warm) t0 = MPI_Wtime();
                if (bw) {
                    for (int w = 0; w < WINDOW; w++)
                        MPI_Get(origin + w * n, (int)n, MPI_BYTE, 1, (MPI_Aint)(w * n), (int)n, MPI_BYTE, win);
                } else if (get) {
                    MPI_Get(origin, (int)n, MPI_BYTE, 1, 0, (int)n, MPI_BYTE, win);
                } else {
                    MPI_Put(origin, (int)n, MPI_BYTE, 1, 0, (int)n, MPI_BYTE, win);
                }
                MPI_Win_flush(1, win);
            }
            double t = MPI_Wtime() - t0;
            MPI_Win_unlock_all(win);
            if (bw) printf("RESULT c get_bw %ld %.1f\n", n, (double)n * WINDOW * iters / t / 1e6);
            else printf("RESULT c %s %ld %.3f\n", test, n, t * 1e6 / iters);
            fflush(stdout);
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Win_free(&win);
    free(origin);
    MPI_Finalize();
    return 0;
}
