/* glibc's malloc settings, set before MPI_Init. Why, and which values: MallocSettings.java. */
#include "mpi4j_mpi.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "io_github_mpi4j_backend_mpi_MpiNative.h"

JNIEXPORT jboolean JNICALL Java_io_github_mpi4j_backend_mpi_MpiNative_tuneMalloc0(JNIEnv *env, jclass cls,
                                                                                jlong mmap_threshold,
                                                                                jlong trim_threshold, jlong top_pad) {
    (void)env;
    (void)cls;
#if defined(__GLIBC__)
    /* mallopt returns 1 on success; a value it refuses leaves that setting as it was. */
    int ok = mallopt(M_MMAP_THRESHOLD, (int)mmap_threshold);
    ok &= mallopt(M_TRIM_THRESHOLD, (int)trim_threshold);
    ok &= mallopt(M_TOP_PAD, (int)top_pad);
    return ok ? JNI_TRUE : JNI_FALSE;
#else
    (void)mmap_threshold;
    (void)trim_threshold;
    (void)top_pad;
    return JNI_FALSE;
#endif
}
