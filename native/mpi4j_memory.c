/* Host memory given by address, seen from Java as a direct ByteBuffer (HostViews). Part of
 * libmpi4j_dl because it needs no MPI: the pure-Java fabric uses it. The Java side has checked
 * the address and the length (a Buf's length fits in an int). */
#include <jni.h>
#include <stdint.h>

#include "io_github_mpi4j_buffer_HostViews.h"

JNIEXPORT jobject JNICALL Java_io_github_mpi4j_buffer_HostViews_view0(JNIEnv *env, jclass cls, jlong address,
                                                                      jlong bytes) {
    (void)cls;
    return (*env)->NewDirectByteBuffer(env, (void *)(intptr_t)address, bytes);
}

/* Where a direct buffer's element 0 lies (SliceOrigins finds slices inside their parents by it). */
JNIEXPORT jlong JNICALL Java_io_github_mpi4j_buffer_HostViews_address0(JNIEnv *env, jclass cls, jobject buffer) {
    (void)cls;
    return (jlong)(intptr_t)(*env)->GetDirectBufferAddress(env, buffer);
}

/* Large copies for NativeCopy, where HotSpot's element loop is slower than memcpy. Java has
 * checked every range against its array or buffer; memmove, as two buffers may view the same
 * memory. */
#include <string.h>

#include "io_github_mpi4j_buffer_NativeCopy.h"

JNIEXPORT void JNICALL Java_io_github_mpi4j_buffer_NativeCopy_buffers0(JNIEnv *env, jclass cls, jobject dst,
                                                                       jlong dst_at, jobject src, jlong src_at,
                                                                       jlong n) {
    (void)cls;
    char *d = (*env)->GetDirectBufferAddress(env, dst);
    char *s = (*env)->GetDirectBufferAddress(env, src);
    if (d == NULL || s == NULL) return; /* Java passes direct buffers only */
    memmove(d + dst_at, s + src_at, (size_t)n);
}

JNIEXPORT void JNICALL Java_io_github_mpi4j_buffer_NativeCopy_array0(JNIEnv *env, jclass cls, jobject array,
                                                                     jlong array_at, jobject buffer, jlong buffer_at,
                                                                     jlong n, jboolean to_buffer) {
    (void)cls;
    char *b = (*env)->GetDirectBufferAddress(env, buffer);
    if (b == NULL) return; /* Java passes direct buffers only */
    /* Pinned for the memcpy alone: nothing here calls back into Java or blocks. */
    char *a = (*env)->GetPrimitiveArrayCritical(env, (jarray)array, NULL);
    if (a == NULL) return; /* out of memory: an exception is pending */
    if (to_buffer) {
        memcpy(b + buffer_at, a + array_at, (size_t)n);
        (*env)->ReleasePrimitiveArrayCritical(env, (jarray)array, a, JNI_ABORT);
    } else {
        memcpy(a + array_at, b + buffer_at, (size_t)n);
        (*env)->ReleasePrimitiveArrayCritical(env, (jarray)array, a, 0);
    }
}
