/* Collective write bandwidth, the C reference of io.github.mpi4j.bench.FileBench (bench/run.sh
 * fileio): every rank's view takes its block of every stripe of the file (a vector of bytes, the
 * ranks interleaved block by block), and each MPI_File_write_at_all writes PER bytes a rank.
 *
 *   fileio_c DIR BLOCK PER ITERS
 *
 * Prints "RESULT impl=c np=N block=B per=P MBps=X" (all ranks' bytes over the slowest rank's
 * time, median of 5 runs of ITERS calls; the file goes to the page cache, no sync). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    if (argc < 5) {
        fprintf(stderr, "usage: fileio_c DIR BLOCK PER ITERS\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int rank, np;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    int block = atoi(argv[2]), per = atoi(argv[3]), iters = atoi(argv[4]);
    char path[4096];
    snprintf(path, sizeof path, "%s/fileio_c.dat", argv[1]);
    char *buf = malloc((size_t)per);
    for (int i = 0; i < per; i++) buf[i] = (char)(rank + i);
    MPI_Datatype ft;
    MPI_Type_vector(per / block, block, block * np, MPI_BYTE, &ft);
    MPI_Type_commit(&ft);
    double times[5];
    for (int run = 0; run < 5; run++) {
        MPI_File fh;
        MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
        MPI_File_set_view(fh, (MPI_Offset)rank * block, MPI_BYTE, ft, "native", MPI_INFO_NULL);
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int it = 0; it < iters; it++) {
            MPI_File_write_at_all(fh, (MPI_Offset)it * per, buf, per, MPI_BYTE, MPI_STATUS_IGNORE);
        }
        double t = MPI_Wtime() - t0, slowest;
        MPI_Allreduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        times[run] = slowest;
        MPI_File_close(&fh);
        if (rank == 0) MPI_File_delete(path, MPI_INFO_NULL);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    qsort(times, 5, sizeof times[0], cmp);
    if (rank == 0) {
        printf("RESULT impl=c np=%d block=%d per=%d MBps=%.1f\n", np, block, per,
               (double)per * np * iters / times[2] / 1e6);
    }
    MPI_Type_free(&ft);
    free(buf);
    MPI_Finalize();
    return 0;
}
