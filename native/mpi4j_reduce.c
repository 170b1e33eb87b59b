/* Element-wise reductions over direct memory for Reductions (NativeReduce): SUM, PROD, MAX
 * and MIN of int, long, float and double, inout[i] = in[i] op inout[i]. Java cannot reduce
 * direct memory without copies (it reads and writes an element at a time or copies into arrays
 * block by block), and C2 leaves its loop over two arrays at different offsets unvectorized,
 * which costs on long runs (NativeReduce.ARRAYS_NATIVE_FROM). Semantics are Java's:
 * integers wrap (unsigned arithmetic here, as signed overflow is undefined in C), MAX/MIN keep
 * the inout value unless the in value is strictly greater/smaller. Part of libmpi4j_dl (no MPI
 * needed). An operand that is an array is pinned for the loop alone; Java has checked every
 * range, the kinds and the ops. */
#include <jni.h>
#include <stdint.h>
#include <string.h>

#include "io_github_mpi4j_buffer_NativeReduce.h"

/* Op and kind codes: NativeReduce.OP_* and KIND_*. */
enum { OP_SUM = 0, OP_PROD = 1, OP_MAX = 2, OP_MIN = 3 };
enum { KIND_INT = 0, KIND_LONG = 1, KIND_FLOAT = 2, KIND_DOUBLE = 3 };

#define LOOPS(T, U)                                                                                                \
    static void reduce_##T(int op, const T *restrict a, T *restrict b, jint n) {                                   \
        switch (op) {                                                                                               \
        case OP_SUM:                                                                                                \
            for (jint i = 0; i < n; i++) b[i] = (T)((U)b[i] + (U)a[i]);                                             \
            break;                                                                                                  \
        case OP_PROD:                                                                                               \
            for (jint i = 0; i < n; i++) b[i] = (T)((U)b[i] * (U)a[i]);                                             \
            break;                                                                                                  \
        case OP_MAX:                                                                                                \
            for (jint i = 0; i < n; i++) b[i] = a[i] > b[i] ? a[i] : b[i];                                         \
            break;                                                                                                  \
        default:                                                                                                    \
            for (jint i = 0; i < n; i++) b[i] = a[i] < b[i] ? a[i] : b[i];                                         \
            break;                                                                                                  \
        }                                                                                                           \
    }

LOOPS(int32_t, uint32_t)
LOOPS(int64_t, uint64_t)
LOOPS(float, float)
LOOPS(double, double)

static void reduce_kind(int op, int kind, const char *a, char *b, jint n) {
    switch (kind) {
    case KIND_INT: reduce_int32_t(op, (const int32_t *)a, (int32_t *)b, n); break;
    case KIND_LONG: reduce_int64_t(op, (const int64_t *)a, (int64_t *)b, n); break;
    case KIND_FLOAT: reduce_float(op, (const float *)a, (float *)b, n); break;
    default: reduce_double(op, (const double *)a, (double *)b, n); break;
    }
}

/* 4K aliasing: when inout lies 1-63 bytes past in modulo 4 KiB (as a Java array allocated
 * right after another does: its data starts 16 bytes past the first one's end), each load of
 * the next in elements has the low 12 address bits of the store just made, and the core holds
 * the load until the store is done. Such loops ran 1.5-2.9 times as long (docs/performance.md,
 * "Twenty-eighth session"). The blocked loop below copies in a block at a time into a buffer
 * placed 1 KiB before inout's block modulo 4 KiB, and reduces from there. */
enum { ALIAS_WINDOW = 64, ALIAS_BLOCK = 2048, PAGE_BITS = 4095 };

static int aliased(const char *a, const char *b) {
    uintptr_t gap = ((uintptr_t)b - (uintptr_t)a) & PAGE_BITS;
    return gap > 0 && gap < ALIAS_WINDOW;
}

static void reduce_unaliased(int op, int kind, const char *a, char *b, jint n) {
    _Alignas(64) char area[PAGE_BITS + 1 + ALIAS_BLOCK];
    /* The copy sits 1 KiB before b modulo 4 KiB; b's blocks advance 2 KiB at a time, so the gap
     * is 1 or 3 KiB, never in the window. The offset keeps b's alignment to its element. */
    uintptr_t at = ((uintptr_t)b - 1024 - (uintptr_t)area) & PAGE_BITS;
    char *copy = area + at;
    int size = kind == KIND_LONG || kind == KIND_DOUBLE ? 8 : 4;
    jint per = ALIAS_BLOCK / size;
    for (jint done = 0; done < n; done += per) {
        jint m = n - done < per ? n - done : per;
        memcpy(copy, a + (size_t)done * size, (size_t)m * size);
        reduce_kind(op, kind, copy, b + (size_t)done * size, m);
    }
}

static char *base_of(JNIEnv *env, jobject o, jboolean array) {
    return array ? (*env)->GetPrimitiveArrayCritical(env, (jarray)o, NULL) : (*env)->GetDirectBufferAddress(env, o);
}

/* Byte offsets from element 0 of each operand (an array, or a direct buffer); n elements. */
JNIEXPORT void JNICALL Java_io_github_mpi4j_buffer_NativeReduce_reduce0(JNIEnv *env, jclass cls, jint op, jint kind,
                                                                      jobject in, jboolean in_array, jlong in_at,
                                                                      jobject inout, jboolean inout_array,
                                                                      jlong inout_at, jint n) {
    (void)cls;
    /* Direct addresses first: nothing may call JNI between getting and releasing a pinned array. */
    char *a = in_array ? NULL : base_of(env, in, JNI_FALSE);
    char *b = inout_array ? NULL : base_of(env, inout, JNI_FALSE);
    if ((!in_array && a == NULL) || (!inout_array && b == NULL)) return; /* Java passes direct buffers */
    if (in_array) a = base_of(env, in, JNI_TRUE);
    if (a == NULL) return; /* out of memory: an exception is pending */
    if (inout_array) b = base_of(env, inout, JNI_TRUE);
    if (b != NULL) {
        if (aliased(a + in_at, b + inout_at)) reduce_unaliased(op, kind, a + in_at, b + inout_at, n);
        else reduce_kind(op, kind, a + in_at, b + inout_at, n);
        if (inout_array) (*env)->ReleasePrimitiveArrayCritical(env, (jarray)inout, b, 0);
    }
    if (in_array) (*env)->ReleasePrimitiveArrayCritical(env, (jarray)in, a, JNI_ABORT);
}
