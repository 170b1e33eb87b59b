// The probe behind xcore-copy.txt (fortieth session). Build: gcc -O2 -mavx512f -mclwb -o xccx xcore_copy.c -lpthread; run: ./xccx 0|1|2
// How fast one vCPU reads what the other just wrote, by how the writer wrote it.
#define _GNU_SOURCE
#include <immintrin.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHUNK (256 * 1024)
#define CHUNKS 64
static char *shared, *srcA, *dstB;
static _Atomic long written = -1, consumed = -1;
static int mode; // 0 plain stores, 1 non-temporal stores, 2 plain + clwb
static double readNs, writeNs;

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e9 + t.tv_nsec; }
static void pin(int cpu) { cpu_set_t s; CPU_ZERO(&s); CPU_SET(cpu, &s); pthread_setaffinity_np(pthread_self(), sizeof s, &s); }

static void *writer(void *arg) {
    pin(0);
    for (int rep = 0; rep < 20; rep++) {
        for (long c = 0; c < CHUNKS; c++) {
            long id = (long) rep * CHUNKS + c;
            while (atomic_load(&consumed) < id - 1) _mm_pause();
            char *d = shared + (c & 1) * CHUNK, *s = srcA + c * CHUNK;
            double t0 = now();
            if (mode == 1) {
                for (long i = 0; i < CHUNK; i += 64) {
                    __m512i v = _mm512_load_si512((void *) (s + i));
                    _mm512_stream_si512((void *) (d + i), v);
                }
                _mm_sfence();
            } else {
                memcpy(d, s, CHUNK);
                if (mode == 2) { for (long i = 0; i < CHUNK; i += 64) _mm_clwb(d + i); _mm_sfence(); }
            }
            if (rep >= 5) writeNs += now() - t0;
            atomic_store(&written, id);
        }
    }
    return NULL;
}

int main(int argc, char **argv) {
    mode = atoi(argv[1]);
    shared = aligned_alloc(4096, 2 * CHUNK); srcA = aligned_alloc(4096, (long) CHUNK * CHUNKS); dstB = aligned_alloc(4096, (long) CHUNK * CHUNKS);
    memset(shared, 1, 2 * CHUNK); memset(srcA, 2, (long) CHUNK * CHUNKS); memset(dstB, 3, (long) CHUNK * CHUNKS);
    pthread_t w; pthread_create(&w, NULL, writer, NULL);
    pin(1);
    for (int rep = 0; rep < 20; rep++) {
        for (long c = 0; c < CHUNKS; c++) {
            long id = (long) rep * CHUNKS + c;
            while (atomic_load(&written) < id) _mm_pause();
            double t0 = now();
            memcpy(dstB + c * CHUNK, shared + (c & 1) * CHUNK, CHUNK);
            if (rep >= 5) readNs += now() - t0;
            atomic_store(&consumed, id);
        }
    }
    pthread_join(w, NULL);
    double bytes = 15.0 * CHUNKS * CHUNK;
    printf("mode %s: reader %.2f GB/s, writer %.2f GB/s\n", mode == 0 ? "plain" : mode == 1 ? "nt" : "clwb", bytes / readNs, bytes / writeNs);
    return 0;
}
