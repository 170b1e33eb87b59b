/*
 * Huge pages for large Java arrays that a blocking MPI call pins (issue 12, item 4).
 *
 * Between two ranks of a node Open MPI's vader moves a large message with one process_vm_readv
 * (CMA), which walks both processes' pages. Into a receive array on the JVM heap's 4 KiB pages
 * that copy ran 13-53 % slower than into the same bytes in 2 MiB pages (docs/performance.md,
 * eighteenth session); out of a send array in them, a 1 MiB allreduce within 16 MiB arrays
 * took 318-358 us instead of 116-331 (twenty-eighth session). Linux 6.1+ can turn the 2 MiB-
 * aligned interior of such an array into huge pages on request (MADV_COLLAPSE). The
 * interior holds only the array's own bytes, so no other object is touched and no memory is
 * added; the kernel copies those pages once into huge ones. A range that was collapsed is
 * remembered (by its 2 MiB frame), so a program that reuses its arrays pays the system call
 * once. Any failure only leaves the pages as they were. MPI4J_HUGE_PAGES=0 turns this off.
 */
#include "mpi4j_huge_pages.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25 /* Linux 6.1 uapi value */
#endif

#define FRAME_SHIFT 21 /* 2 MiB */
#define FRAME ((uintptr_t)1 << FRAME_SHIFT)
#define SLOTS 8192      /* frames remembered: 16 GiB of arrays; a power of two */
#define MAX_TRIES 3     /* a frame whose collapse keeps failing (pinned by a peer, no memory) */

/* slot: frame number << 2 | tries (0 = collapsed); 0 = empty. */
static uintptr_t g_slots[SLOTS];
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static int g_state; /* 0 unknown, 1 on, -1 off (unset by the user or unsupported by the kernel) */

static int enabled(void) {
    if (g_state == 0) {
        const char *v = getenv("MPI4J_HUGE_PAGES");
        g_state = (v != NULL && strcmp(v, "0") == 0) ? -1 : 1;
    }
    return g_state > 0;
}

/* The slot of frame f: found, or the empty one where it would go (NULL when the table is full). */
static uintptr_t *slot_of(uintptr_t f) {
    uintptr_t h = (f * 0x9E3779B97F4A7C15ull) >> 51; /* 13 bits */
    for (int probe = 0; probe < SLOTS; probe++) {
        uintptr_t *s = &g_slots[(h + probe) & (SLOTS - 1)];
        if (*s == 0 || (*s >> 2) == f) return s;
    }
    return NULL;
}

/* Whether frame slot s still wants a collapse: never tried, or failed fewer than MAX_TRIES times. */
static int pending(const uintptr_t *s) {
    return s != NULL && (*s == 0 || (*s & 3) != 0) && (*s & 3) < MAX_TRIES;
}

void huge_pages_for(const void *ptr, size_t bytes) {
    if (bytes < 2 * FRAME || !enabled()) return;
    uintptr_t first = ((uintptr_t)ptr + FRAME - 1) >> FRAME_SHIFT;
    uintptr_t end = ((uintptr_t)ptr + bytes) >> FRAME_SHIFT; /* frames [first, end) lie inside */
    pthread_mutex_lock(&g_lock);
    for (uintptr_t f = first; f < end && g_state > 0; f++) {
        uintptr_t *s = slot_of(f);
        if (s == NULL) break; /* table full: leave the rest */
        if (!pending(s)) continue; /* done, or given up */
        /* Collapse this frame and the following ones not yet done, in one call. */
        uintptr_t last = f + 1;
        while (last < end && pending(slot_of(last))) last++;
        int rc = madvise((void *)(f << FRAME_SHIFT), (size_t)(last - f) << FRAME_SHIFT, MADV_COLLAPSE);
        int err = rc == 0 ? 0 : errno;
        if (rc != 0 && (err == EINVAL || err == ENOSYS || err == EPERM)) {
            g_state = -1; /* kernel before 6.1, or huge pages refused to this process: stop asking */
            break;
        }
        for (uintptr_t g = f; g < last; g++) {
            uintptr_t *t = slot_of(g);
            if (t == NULL) break;
            uintptr_t tries = (*t == 0) ? 0 : (*t & 3);
            /* One failing frame fails the whole call: count a try for each, so the next call
             * retries them and gives up on those that keep failing. */
            *t = (g << 2) | (rc == 0 ? 0 : tries + 1);
        }
        f = last - 1;
    }
    pthread_mutex_unlock(&g_lock);
}
