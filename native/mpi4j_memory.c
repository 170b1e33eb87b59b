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

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

#include "io_github_mpi4j_buffer_NativeCopy.h"

/* A copy into memory that another process reads next (the fabric's shared-memory slots), by
 * non-temporal stores where the CPU has them (SSE2 on every x86-64): the lines go to memory
 * without first being taken back from the core that read them last. With the two cores in
 * different core complexes, a plain store waited for that on every line, and the fabric's
 * 16 MiB allreduce took 10-11 ms instead of 3.5-4 (docs/performance.md, "Fortieth
 * session"). The fence orders the stores before what the caller writes next (the barrier
 * message that tells the reader). Overlapping ranges, and other CPUs, take memmove. */
static void copy_streaming(char *d, const char *s, size_t n) {
#if defined(__x86_64__)
    if (d < s + n && s < d + n) {
        memmove(d, s, n);
        return;
    }
    size_t head = (size_t)(-(uintptr_t)d & 15);
    if (head > n) head = n;
    memcpy(d, s, head);
    d += head;
    s += head;
    n -= head;
    for (; n >= 64; n -= 64, d += 64, s += 64) {
        __m128i a = _mm_loadu_si128((const __m128i *)s), b = _mm_loadu_si128((const __m128i *)(s + 16));
        __m128i c = _mm_loadu_si128((const __m128i *)(s + 32)), e = _mm_loadu_si128((const __m128i *)(s + 48));
        _mm_stream_si128((__m128i *)d, a);
        _mm_stream_si128((__m128i *)(d + 16), b);
        _mm_stream_si128((__m128i *)(d + 32), c);
        _mm_stream_si128((__m128i *)(d + 48), e);
    }
    memcpy(d, s, n);
    _mm_sfence();
#else
    memmove(d, s, n);
#endif
}

JNIEXPORT void JNICALL Java_io_github_mpi4j_buffer_NativeCopy_buffers0(JNIEnv *env, jclass cls, jobject dst,
                                                                       jlong dst_at, jobject src, jlong src_at,
                                                                       jlong n, jboolean streaming) {
    (void)cls;
    char *d = (*env)->GetDirectBufferAddress(env, dst);
    char *s = (*env)->GetDirectBufferAddress(env, src);
    if (d == NULL || s == NULL) return; /* Java passes direct buffers only */
    if (streaming) {
        copy_streaming(d + dst_at, s + src_at, (size_t)n);
    } else {
        memmove(d + dst_at, s + src_at, (size_t)n);
    }
}

JNIEXPORT void JNICALL Java_io_github_mpi4j_buffer_NativeCopy_array0(JNIEnv *env, jclass cls, jobject array,
                                                                     jlong array_at, jobject buffer, jlong buffer_at,
                                                                     jlong n, jboolean to_buffer, jboolean streaming) {
    (void)cls;
    char *b = (*env)->GetDirectBufferAddress(env, buffer);
    if (b == NULL) return; /* Java passes direct buffers only */
    /* Pinned for the memcpy alone: nothing here calls back into Java or blocks. */
    char *a = (*env)->GetPrimitiveArrayCritical(env, (jarray)array, NULL);
    if (a == NULL) return; /* out of memory: an exception is pending */
    if (to_buffer) {
        if (streaming) {
            copy_streaming(b + buffer_at, a + array_at, (size_t)n);
        } else {
            memcpy(b + buffer_at, a + array_at, (size_t)n);
        }
        (*env)->ReleasePrimitiveArrayCritical(env, (jarray)array, a, JNI_ABORT);
    } else {
        memcpy(a + array_at, b + buffer_at, (size_t)n);
        (*env)->ReleasePrimitiveArrayCritical(env, (jarray)array, a, 0);
    }
}
