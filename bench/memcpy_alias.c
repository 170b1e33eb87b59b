/* memcpy of 32 KiB from a source at several offsets within a 4 KiB page to a destination at a
 * fixed one (264, where Open MPI 4.1's MPI_Win_allocate_shared puts a window's base), in a hot
 * loop: how much a copy slows down when the destination lies a little ahead of the source
 * modulo 4 KiB ("4K aliasing": the copy's loads falsely wait on its own recent stores).
 *
 *   target/bench/memcpy_alias [dst_offset] [bytes]      (built by mvn package)
 *
 * docs/performance.md, "Eighth session", explains what it shows. Needs no MPI. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    int dst_offset = argc > 1 ? atoi(argv[1]) : 264;
    size_t n = argc > 2 ? (size_t)atol(argv[2]) : 32768;
    const int src_offsets[] = {0, 16, 64, 128, 192, 256, 264, 272, 512, 1024, 2048, 3072, 4080};
    const int iterations = 100000;
    char *src = aligned_alloc(4096, n + 8192), *dst = aligned_alloc(4096, n + 8192);
    if (src == NULL || dst == NULL) return 1;
    memset(src, 1, n + 8192);
    memset(dst, 2, n + 8192);
    for (size_t k = 0; k < sizeof src_offsets / sizeof src_offsets[0]; k++) {
        int s = src_offsets[k];
        for (int i = 0; i < 1000; i++) memcpy(dst + dst_offset, src + s, n);
        double t = now();
        for (int i = 0; i < iterations; i++) {
            memcpy(dst + dst_offset, src + s, n);
            __asm__ volatile("" ::: "memory"); /* keep every copy */
        }
        t = now() - t;
        printf("dst %% 4096 = %4d, src %% 4096 = %4d, (dst - src) %% 4096 = %4d: %.3f us\n", dst_offset, s,
               ((dst_offset - s) % 4096 + 4096) % 4096, t / iterations * 1e6);
    }
    free(src);
    free(dst);
    return 0;
}
