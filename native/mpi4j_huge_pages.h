/* Huge pages for the large Java arrays a blocking MPI call pins (why: mpi4j_huge_pages.c). */
#ifndef MPI4J_HUGE_PAGES_H
#define MPI4J_HUGE_PAGES_H

#include <stddef.h>

/* Asks the kernel to back the 2 MiB-aligned interior of [ptr, ptr + bytes) with huge pages,
 * once per 2 MiB frame; does nothing under 4 MiB, with MPI4J_HUGE_PAGES=0, or where the kernel
 * cannot. Never fails; safe inside a JNI critical region (no JNI calls). */
void huge_pages_for(const void *ptr, size_t bytes);

#endif
