/* The natives of io.github.mpi4j.cuda.CudaNative: device memory, copies, memset, streams and
 * events through the CUDA runtime that mpi4j_gpu.c opened. The Java side has checked every
 * argument (ranges, open objects, buffer kinds); this file sets the device of each call on the
 * calling thread and turns every CUDA error into a CudaException with CUDA's own text.
 *
 * Java arrays are never handed to CUDA: the GC may move them, and a critical region held across
 * cudaMemcpy (which may wait for the device's earlier work) would stall every thread that needs
 * the GC. They are copied in chunks through pinned staging buffers with Get/Set<Type>ArrayRegion. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include "io_github_mpi4j_cuda_CudaNative.h"
#include "mpi4j_gpu.h"

#define JNI_FN(name) Java_io_github_mpi4j_cuda_CudaNative_##name
#define PIN(c, java) _Static_assert((c) == io_github_mpi4j_cuda_CudaNative_##java, #c " must equal CudaNative." #java)

PIN(M4J_CUDA_MEMCPY_HOST_TO_DEVICE, HOST_TO_DEVICE);
PIN(M4J_CUDA_MEMCPY_DEVICE_TO_HOST, DEVICE_TO_HOST);
PIN(M4J_CUDA_MEMCPY_DEVICE_TO_DEVICE, DEVICE_TO_DEVICE);
PIN(M4J_CUDA_MEMCPY_DEFAULT, DEFAULT);
PIN(M4J_CUDA_MEMORY_TYPE_DEVICE, MEMORY_DEVICE);
PIN(M4J_CUDA_MEMORY_TYPE_MANAGED, MEMORY_MANAGED);

enum { ELEM_BYTE, ELEM_SHORT, ELEM_CHAR, ELEM_INT, ELEM_LONG, ELEM_FLOAT, ELEM_DOUBLE, ELEM_BOOLEAN };
_Static_assert(ELEM_BYTE == io_github_mpi4j_cuda_CudaNative_ELEM_BYTE && ELEM_SHORT == io_github_mpi4j_cuda_CudaNative_ELEM_SHORT
                   && ELEM_CHAR == io_github_mpi4j_cuda_CudaNative_ELEM_CHAR && ELEM_INT == io_github_mpi4j_cuda_CudaNative_ELEM_INT
                   && ELEM_LONG == io_github_mpi4j_cuda_CudaNative_ELEM_LONG
                   && ELEM_FLOAT == io_github_mpi4j_cuda_CudaNative_ELEM_FLOAT
                   && ELEM_DOUBLE == io_github_mpi4j_cuda_CudaNative_ELEM_DOUBLE
                   && ELEM_BOOLEAN == io_github_mpi4j_cuda_CudaNative_ELEM_BOOLEAN,
               "CudaNative.ELEM_* must follow this order");

static const int elem_size[] = {1, 2, 2, 4, 8, 4, 8, 1};

/* --- devices --- */

JNIEXPORT jint JNICALL JNI_FN(deviceCount0)(JNIEnv *env, jclass cls) {
    (void)cls;
    CUDA_FN(env, count, cudaGetDeviceCount, 0);
    int n = 0;
    int rc = count(&n);
    if (rc != M4J_CUDA_SUCCESS) {
        if (g_cuda.cudaGetLastError != NULL) g_cuda.cudaGetLastError();
        gpu_throw_cuda(env, "cudaGetDeviceCount", rc);
        return 0;
    }
    return n;
}

JNIEXPORT void JNICALL JNI_FN(setDevice0)(JNIEnv *env, jclass cls, jint device) {
    (void)cls;
    CUDA_FN(env, set, cudaSetDevice, );
    int rc = set(device);
    if (rc != M4J_CUDA_SUCCESS) {
        char call[64];
        snprintf(call, sizeof call, "cudaSetDevice(%d)", (int)device);
        gpu_throw_cuda(env, call, rc);
    }
}

JNIEXPORT jint JNICALL JNI_FN(getDevice0)(JNIEnv *env, jclass cls) {
    (void)cls;
    CUDA_FN(env, get, cudaGetDevice, -1);
    int d = -1;
    int rc = get(&d);
    if (rc != M4J_CUDA_SUCCESS) gpu_throw_cuda(env, "cudaGetDevice", rc);
    return d;
}

JNIEXPORT void JNICALL JNI_FN(synchronize0)(JNIEnv *env, jclass cls, jint device) {
    (void)cls;
    CUDA_FN(env, sync, cudaDeviceSynchronize, );
    if (gpu_use_device(env, device) != 0) return;
    int rc = sync();
    if (rc != M4J_CUDA_SUCCESS) gpu_throw_cuda(env, "cudaDeviceSynchronize", rc);
}

/* --- memory --- */

JNIEXPORT jlong JNICALL JNI_FN(malloc0)(JNIEnv *env, jclass cls, jlong bytes, jint device) {
    (void)cls;
    CUDA_FN(env, alloc, cudaMalloc, 0);
    if (gpu_use_device(env, device) != 0) return 0;
    void *p = NULL;
    int rc = alloc(&p, (size_t)bytes);
    if (rc != M4J_CUDA_SUCCESS) {
        char call[96];
        snprintf(call, sizeof call, "cudaMalloc(%lld bytes) on device %d", (long long)bytes, (int)device);
        gpu_throw_cuda(env, call, rc);
        return 0;
    }
    return JPTR(p);
}

JNIEXPORT void JNICALL JNI_FN(free0)(JNIEnv *env, jclass cls, jlong ptr, jint device) {
    (void)cls;
    CUDA_FN(env, release, cudaFree, );
    if (gpu_use_device(env, device) != 0) return;
    int rc = release(PTR(ptr));
    if (rc != M4J_CUDA_SUCCESS) gpu_throw_cuda(env, "cudaFree", rc);
}

JNIEXPORT jlong JNICALL JNI_FN(mallocHost0)(JNIEnv *env, jclass cls, jlong bytes) {
    (void)cls;
    CUDA_FN(env, alloc, cudaMallocHost, 0);
    void *p = NULL;
    int rc = alloc(&p, (size_t)bytes);
    if (rc != M4J_CUDA_SUCCESS) {
        char call[80];
        snprintf(call, sizeof call, "cudaMallocHost(%lld bytes)", (long long)bytes);
        gpu_throw_cuda(env, call, rc);
        return 0;
    }
    return JPTR(p);
}

JNIEXPORT void JNICALL JNI_FN(freeHost0)(JNIEnv *env, jclass cls, jlong ptr) {
    (void)cls;
    CUDA_FN(env, release, cudaFreeHost, );
    int rc = release(PTR(ptr));
    if (rc != M4J_CUDA_SUCCESS) gpu_throw_cuda(env, "cudaFreeHost", rc);
}

static const char *kind_name(int kind) {
    switch (kind) {
        case M4J_CUDA_MEMCPY_HOST_TO_DEVICE: return "host to device";
        case M4J_CUDA_MEMCPY_DEVICE_TO_HOST: return "device to host";
        case M4J_CUDA_MEMCPY_DEVICE_TO_DEVICE: return "device to device";
        default: return "default";
    }
}

/* One copy between addresses (device memory, direct buffers, host memory): cudaMemcpy, or
 * cudaMemcpyAsync on `stream` when async. */
static void copy(JNIEnv *env, void *dst, const void *src, jlong bytes, int kind, jlong stream, int async, int device) {
    if (gpu_use_device(env, device) != 0) return;
    int rc;
    const char *fn;
    if (async) {
        CUDA_FN(env, copy_async, cudaMemcpyAsync, );
        rc = copy_async(dst, src, (size_t)bytes, kind, PTR(stream));
        fn = "cudaMemcpyAsync";
    } else {
        CUDA_FN(env, copy_sync, cudaMemcpy, );
        rc = copy_sync(dst, src, (size_t)bytes, kind);
        fn = "cudaMemcpy";
        /* cudaMemcpy may return before the bytes are at their destination: device to device it
         * does not synchronize at all, and from pageable host memory it returns once the source is
         * staged. Wait for the legacy stream it ran on, so that a copy is complete on return as
         * documented (work queued next on a non-blocking stream, such as NCCL's, must see it). */
        if (rc == M4J_CUDA_SUCCESS && kind != M4J_CUDA_MEMCPY_DEVICE_TO_HOST) {
            CUDA_FN(env, sync_stream, cudaStreamSynchronize, );
            rc = sync_stream(NULL);
            fn = "cudaStreamSynchronize (after cudaMemcpy)";
        }
    }
    if (rc != M4J_CUDA_SUCCESS) {
        char call[128];
        snprintf(call, sizeof call, "%s(%lld bytes, %s) on device %d", fn, (long long)bytes, kind_name(kind), device);
        gpu_throw_cuda(env, call, rc);
    }
}

JNIEXPORT void JNICALL JNI_FN(copy0)(JNIEnv *env, jclass cls, jlong dst, jlong src, jlong bytes, jint kind,
                                     jlong stream, jboolean async, jint device) {
    (void)cls;
    copy(env, PTR(dst), PTR(src), bytes, kind, stream, async, device);
}

/* A direct NIO buffer (any element type) at byte offset `offset` and device memory `dev`. */
JNIEXPORT void JNICALL JNI_FN(copyBuffer0)(JNIEnv *env, jclass cls, jlong dev, jobject buffer, jlong offset,
                                           jlong bytes, jboolean toDevice, jlong stream, jboolean async, jint device) {
    (void)cls;
    char *host = (*env)->GetDirectBufferAddress(env, buffer);
    if (host == NULL) {
        gpu_throw_arg(env, "CudaNative.copyBuffer0: not a direct buffer");
        return;
    }
    if (toDevice) {
        copy(env, PTR(dev), host + offset, bytes, M4J_CUDA_MEMCPY_HOST_TO_DEVICE, stream, async, device);
    } else {
        copy(env, host + offset, PTR(dev), bytes, M4J_CUDA_MEMCPY_DEVICE_TO_HOST, stream, async, device);
    }
}

/* --- pinned staging for Java arrays: a small pool of fixed-size buffers --- */

#define STAGE_BYTES ((size_t)4 << 20) /* a multiple of every element size */
#define STAGE_KEEP 8                  /* buffers kept for reuse; more are freed after use */

static pthread_mutex_t g_stage_lock = PTHREAD_MUTEX_INITIALIZER;
static void *g_stage[STAGE_KEEP];
static int g_staged;

static void *stage_take(JNIEnv *env) {
    void *p = NULL;
    pthread_mutex_lock(&g_stage_lock);
    if (g_staged > 0) p = g_stage[--g_staged];
    pthread_mutex_unlock(&g_stage_lock);
    if (p != NULL) return p;
    CUDA_FN(env, alloc, cudaMallocHost, NULL);
    int rc = alloc(&p, STAGE_BYTES);
    if (rc != M4J_CUDA_SUCCESS) {
        gpu_throw_cuda(env, "cudaMallocHost (staging for a Java array)", rc);
        return NULL;
    }
    return p;
}

static void stage_give(void *p) {
    pthread_mutex_lock(&g_stage_lock);
    if (g_staged < STAGE_KEEP) {
        g_stage[g_staged++] = p;
        p = NULL;
    }
    pthread_mutex_unlock(&g_stage_lock);
    if (p != NULL && g_cuda.cudaFreeHost != NULL) g_cuda.cudaFreeHost(p);
}

/* Moves n elements between array[first..] and stage; returns 0 or -1 (exception pending). */
static int array_region(JNIEnv *env, jobject array, int kind, jsize first, jsize n, void *stage, int toStage) {
#define REGION(T, Name)                                                                      \
    if (toStage) (*env)->Get##Name##ArrayRegion(env, (T)array, first, n, stage);             \
    else (*env)->Set##Name##ArrayRegion(env, (T)array, first, n, stage);                     \
    break;
    switch (kind) {
        case ELEM_BYTE: REGION(jbyteArray, Byte)
        case ELEM_SHORT: REGION(jshortArray, Short)
        case ELEM_CHAR: REGION(jcharArray, Char)
        case ELEM_INT: REGION(jintArray, Int)
        case ELEM_LONG: REGION(jlongArray, Long)
        case ELEM_FLOAT: REGION(jfloatArray, Float)
        case ELEM_DOUBLE: REGION(jdoubleArray, Double)
        case ELEM_BOOLEAN: REGION(jbooleanArray, Boolean)
        default:
            gpu_throw_arg(env, "CudaNative.copyArray0: unknown element kind");
            return -1;
    }
#undef REGION
    return (*env)->ExceptionCheck(env) ? -1 : 0;
}

/* count elements of a Java array from element `first`, to or from device memory `dev`. */
JNIEXPORT void JNICALL JNI_FN(copyArray0)(JNIEnv *env, jclass cls, jlong dev, jobject array, jint kind, jint first,
                                          jint count, jboolean toDevice, jint device) {
    (void)cls;
    if (kind < 0 || kind > ELEM_BOOLEAN) {
        gpu_throw_arg(env, "CudaNative.copyArray0: unknown element kind");
        return;
    }
    if (count == 0) return;
    if (gpu_use_device(env, device) != 0) return;
    CUDA_FN(env, copy_sync, cudaMemcpy, );
    void *stage = stage_take(env);
    if (stage == NULL) return;
    const size_t esize = (size_t)elem_size[kind];
    const jsize per_chunk = (jsize)(STAGE_BYTES / esize);
    char *d = PTR(dev);
    for (jsize done = 0; done < count;) {
        jsize n = count - done < per_chunk ? count - done : per_chunk;
        size_t bytes = (size_t)n * esize;
        int rc;
        if (toDevice) {
            if (array_region(env, array, kind, first + done, n, stage, 1) != 0) break;
            /* From pinned memory cudaMemcpy returns when the source has been read. */
            rc = copy_sync(d, stage, bytes, M4J_CUDA_MEMCPY_HOST_TO_DEVICE);
        } else {
            rc = copy_sync(stage, d, bytes, M4J_CUDA_MEMCPY_DEVICE_TO_HOST);
        }
        if (rc != M4J_CUDA_SUCCESS) {
            char call[128];
            snprintf(call, sizeof call, "cudaMemcpy(%zu bytes, %s, Java array) on device %d", bytes,
                     toDevice ? "host to device" : "device to host", (int)device);
            gpu_throw_cuda(env, call, rc);
            break;
        }
        if (!toDevice && array_region(env, array, kind, first + done, n, stage, 0) != 0) break;
        d += bytes;
        done += n;
    }
    stage_give(stage);
}

JNIEXPORT void JNICALL JNI_FN(memset0)(JNIEnv *env, jclass cls, jlong dev, jint value, jlong bytes, jlong stream,
                                       jboolean async, jint device) {
    (void)cls;
    if (gpu_use_device(env, device) != 0) return;
    int rc;
    if (async) {
        CUDA_FN(env, set_async, cudaMemsetAsync, );
        rc = set_async(PTR(dev), value, (size_t)bytes, PTR(stream));
    } else {
        /* cudaMemset is asynchronous for device memory: wait for the legacy stream it was queued
         * on, so that memset is complete on return as documented (an mpi call or a CUDA-aware
         * MPI reading the buffer next must see the bytes). */
        CUDA_FN(env, set_sync, cudaMemset, );
        CUDA_FN(env, sync_stream, cudaStreamSynchronize, );
        rc = set_sync(PTR(dev), value, (size_t)bytes);
        if (rc == M4J_CUDA_SUCCESS) {
            rc = sync_stream(NULL);
            if (rc != M4J_CUDA_SUCCESS) {
                gpu_throw_cuda(env, "cudaStreamSynchronize (after cudaMemset)", rc);
                return;
            }
        }
    }
    if (rc != M4J_CUDA_SUCCESS) gpu_throw_cuda(env, async ? "cudaMemsetAsync" : "cudaMemset", rc);
}

/* The memory type of an address in the high 32 bits, its device in the low 32, as CUDA sees it:
 * one long rather than an array, so that pointer checks on the call path allocate nothing. */
JNIEXPORT jlong JNICALL JNI_FN(pointerKind0)(JNIEnv *env, jclass cls, jlong ptr) {
    (void)cls;
    CUDA_FN(env, attrs, cudaPointerGetAttributes, 0);
    m4j_cuda_pointer_attributes a = {0};
    int rc = attrs(&a, PTR(ptr));
    if (rc != M4J_CUDA_SUCCESS) {
        gpu_throw_cuda(env, "cudaPointerGetAttributes", rc);
        return 0;
    }
    return (jlong)(((uint64_t)(uint32_t)a.type << 32) | (uint32_t)a.device);
}

/* --- streams and events --- */

JNIEXPORT jlong JNICALL JNI_FN(streamCreate0)(JNIEnv *env, jclass cls, jint device) {
    (void)cls;
    CUDA_FN(env, create, cudaStreamCreateWithFlags, 0);
    if (gpu_use_device(env, device) != 0) return 0;
    void *s = NULL;
    /* Non-blocking: the legacy default stream must not serialize with NCCL's work. */
    int rc = create(&s, M4J_CUDA_STREAM_NON_BLOCKING);
    if (rc != M4J_CUDA_SUCCESS) {
        gpu_throw_cuda(env, "cudaStreamCreateWithFlags", rc);
        return 0;
    }
    return JPTR(s);
}

#define STREAM_OR_EVENT_CALL(fname, cname)                                     \
    JNIEXPORT void JNICALL JNI_FN(fname)(JNIEnv * env, jclass cls, jlong h, jint device) { \
        (void)cls;                                                                         \
        CUDA_FN(env, fn, cname, );                                                         \
        if (gpu_use_device(env, device) != 0) return;                                      \
        int rc = fn(PTR(h));                                                               \
        if (rc != M4J_CUDA_SUCCESS) gpu_throw_cuda(env, #cname, rc);                       \
    }

STREAM_OR_EVENT_CALL(streamDestroy0, cudaStreamDestroy)
STREAM_OR_EVENT_CALL(streamSynchronize0, cudaStreamSynchronize)
STREAM_OR_EVENT_CALL(eventDestroy0, cudaEventDestroy)
STREAM_OR_EVENT_CALL(eventSynchronize0, cudaEventSynchronize)

/* Whether all work queued on the stream (or before the event) is done: cudaSuccess or
 * cudaErrorNotReady; any other code is an error. */
#define QUERY_CALL(fname, cname)                                                             \
    JNIEXPORT jboolean JNICALL JNI_FN(fname)(JNIEnv * env, jclass cls, jlong h, jint device) { \
        (void)cls;                                                                             \
        CUDA_FN(env, fn, cname, JNI_FALSE);                                                    \
        if (gpu_use_device(env, device) != 0) return JNI_FALSE;                                \
        int rc = fn(PTR(h));                                                                   \
        if (rc == M4J_CUDA_SUCCESS) return JNI_TRUE;                                           \
        if (rc != M4J_CUDA_ERROR_NOT_READY) gpu_throw_cuda(env, #cname, rc);                   \
        return JNI_FALSE;                                                                      \
    }

QUERY_CALL(streamQuery0, cudaStreamQuery)
QUERY_CALL(eventQuery0, cudaEventQuery)

JNIEXPORT void JNICALL JNI_FN(streamWaitEvent0)(JNIEnv *env, jclass cls, jlong stream, jlong event, jint device) {
    (void)cls;
    CUDA_FN(env, wait, cudaStreamWaitEvent, );
    if (gpu_use_device(env, device) != 0) return;
    int rc = wait(PTR(stream), PTR(event), 0);
    if (rc != M4J_CUDA_SUCCESS) gpu_throw_cuda(env, "cudaStreamWaitEvent", rc);
}

JNIEXPORT jlong JNICALL JNI_FN(eventCreate0)(JNIEnv *env, jclass cls, jint device) {
    (void)cls;
    CUDA_FN(env, create, cudaEventCreateWithFlags, 0);
    if (gpu_use_device(env, device) != 0) return 0;
    void *e = NULL;
    int rc = create(&e, M4J_CUDA_EVENT_DISABLE_TIMING);
    if (rc != M4J_CUDA_SUCCESS) {
        gpu_throw_cuda(env, "cudaEventCreateWithFlags", rc);
        return 0;
    }
    return JPTR(e);
}

JNIEXPORT void JNICALL JNI_FN(eventRecord0)(JNIEnv *env, jclass cls, jlong event, jlong stream, jint device) {
    (void)cls;
    CUDA_FN(env, record, cudaEventRecord, );
    if (gpu_use_device(env, device) != 0) return;
    int rc = record(PTR(event), PTR(stream));
    if (rc != M4J_CUDA_SUCCESS) gpu_throw_cuda(env, "cudaEventRecord", rc);
}
