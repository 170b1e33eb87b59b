/* The natives of io.github.mpi4j.nccl.NcclNative: NCCL communicators and operations through
 * the NCCL library that mpi4j_gpu.c opened. Pointer-level: addresses, counts, NCCL datatype and
 * op codes, a stream, the device. The Java side checks every argument first (real NCCL does
 * not check buffer sizes); here the device is set on the calling thread and every failure
 * becomes an NcclException with ncclGetErrorString and ncclGetLastError.
 *
 * Operations return NCCL's result: ncclSuccess, or ncclInProgress for a non-blocking
 * communicator (the caller polls ncclCommGetAsyncError with a deadline); anything else throws. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io_github_mpi4j_nccl_NcclNative.h"
#include "mpi4j_gpu.h"

#define JNI_FN(name) Java_io_github_mpi4j_nccl_NcclNative_##name
#define PIN(c, java) _Static_assert((c) == io_github_mpi4j_nccl_NcclNative_##java, #c " must equal NcclNative." #java)

PIN(M4J_NCCL_INT8, INT8);
PIN(M4J_NCCL_UINT8, UINT8);
PIN(M4J_NCCL_INT32, INT32);
PIN(M4J_NCCL_UINT32, UINT32);
PIN(M4J_NCCL_INT64, INT64);
PIN(M4J_NCCL_UINT64, UINT64);
PIN(M4J_NCCL_FLOAT16, FLOAT16);
PIN(M4J_NCCL_FLOAT32, FLOAT32);
PIN(M4J_NCCL_FLOAT64, FLOAT64);
PIN(M4J_NCCL_BFLOAT16, BFLOAT16);
PIN(M4J_NCCL_SUM, SUM);
PIN(M4J_NCCL_PROD, PROD);
PIN(M4J_NCCL_MAX, MAX);
PIN(M4J_NCCL_MIN, MIN);
PIN(M4J_NCCL_AVG, AVG);
PIN(M4J_NCCL_SUCCESS, SUCCESS);
PIN(M4J_NCCL_IN_PROGRESS, IN_PROGRESS);
PIN(M4J_NCCL_UNIQUE_ID_BYTES, UNIQUE_ID_BYTES);
PIN(M4J_NCCL_SPLIT_NOCOLOR, SPLIT_NOCOLOR);

static int ok(int rc) {
    return rc == M4J_NCCL_SUCCESS || rc == M4J_NCCL_IN_PROGRESS;
}

JNIEXPORT jbyteArray JNICALL JNI_FN(uniqueId0)(JNIEnv *env, jclass cls) {
    (void)cls;
    NCCL_FN(env, get, ncclGetUniqueId, NULL);
    m4j_nccl_unique_id id;
    memset(&id, 0, sizeof id);
    int rc = get(&id);
    if (rc != M4J_NCCL_SUCCESS) {
        gpu_throw_nccl(env, "ncclGetUniqueId", rc, NULL);
        return NULL;
    }
    jbyteArray out = (*env)->NewByteArray(env, M4J_NCCL_UNIQUE_ID_BYTES);
    if (out != NULL) (*env)->SetByteArrayRegion(env, out, 0, M4J_NCCL_UNIQUE_ID_BYTES, (const jbyte *)id.internal);
    return out;
}

/* ncclCommInitRankConfig on `device`: the id goes by value, as NCCL declares it. */
JNIEXPORT jlong JNICALL JNI_FN(commInitRank0)(JNIEnv *env, jclass cls, jbyteArray uid, jint nranks, jint rank,
                                              jint device, jboolean blocking) {
    (void)cls;
    if (uid == NULL || (*env)->GetArrayLength(env, uid) != M4J_NCCL_UNIQUE_ID_BYTES) {
        gpu_throw_arg(env, "NcclNative.commInitRank0: the unique id must have 128 bytes");
        return 0;
    }
    m4j_nccl_unique_id id;
    (*env)->GetByteArrayRegion(env, uid, 0, M4J_NCCL_UNIQUE_ID_BYTES, (jbyte *)id.internal);
    if (gpu_use_device(env, device) != 0) return 0;
    m4j_nccl_config config = m4j_nccl_config_make(blocking);
    void *comm = NULL;
    int rc;
    const char *fn;
    if (g_nccl.ncclCommInitRankConfig != NULL) {
        rc = g_nccl.ncclCommInitRankConfig(&comm, nranks, id, rank, &config);
        fn = "ncclCommInitRankConfig";
    } else {
        /* A library without the config form (every NCCL >= 2.14 has it): the plain, blocking
         * init; the deadline then cannot end a wait for a rank that never joins. */
        NCCL_FN(env, plain, ncclCommInitRank, 0);
        rc = plain(&comm, nranks, id, rank);
        fn = "ncclCommInitRank";
    }
    if (!ok(rc)) {
        char call[96];
        snprintf(call, sizeof call, "%s(rank %d of %d, device %d)", fn, (int)rank, (int)nranks, (int)device);
        gpu_throw_nccl(env, call, rc, comm);
        return 0;
    }
    return JPTR(comm);
}

/* On a non-blocking parent, ncclCommSplit returns ncclInProgress and NCCL writes the new handle
 * later, from its own thread, once the parent's split is done (seen with NCCL 2.28 on a GPU: a
 * handle on this function's stack was written after the frame was gone). So the handle goes to a
 * heap slot that outlives the call: made by newSlot0, read once the parent's state is ready. */
JNIEXPORT jlong JNICALL JNI_FN(newSlot0)(JNIEnv *env, jclass cls) {
    (void)cls;
    void **slot = calloc(1, sizeof *slot);
    if (slot == NULL) (*env)->ThrowNew(env, (*env)->FindClass(env, "java/lang/OutOfMemoryError"), "ncclCommSplit's handle slot");
    return JPTR(slot);
}

JNIEXPORT jlong JNICALL JNI_FN(readSlot0)(JNIEnv *env, jclass cls, jlong slot) {
    (void)env;
    (void)cls;
    return JPTR(__atomic_load_n((void **)PTR(slot), __ATOMIC_ACQUIRE));
}

JNIEXPORT void JNICALL JNI_FN(freeSlot0)(JNIEnv *env, jclass cls, jlong slot) {
    (void)env;
    (void)cls;
    free(PTR(slot));
}

/* ncclCommSplit into the slot: NCCL's result, success or in progress; every other result throws. */
JNIEXPORT jint JNICALL JNI_FN(commSplit0)(JNIEnv *env, jclass cls, jlong comm, jint color, jint key, jint device,
                                          jboolean blocking, jlong slot) {
    (void)cls;
    NCCL_FN(env, split, ncclCommSplit, -1);
    if (gpu_use_device(env, device) != 0) return -1;
    m4j_nccl_config config = m4j_nccl_config_make(blocking);
    int rc = split(PTR(comm), color, key, (void **)PTR(slot), &config);
    if (!ok(rc)) gpu_throw_nccl(env, "ncclCommSplit", rc, PTR(comm));
    return rc;
}

/* Finalize, destroy, abort: NCCL's result, thrown unless success or in progress. */
#define COMM_CALL(fname, cname)                                                                 \
    JNIEXPORT jint JNICALL JNI_FN(fname)(JNIEnv * env, jclass cls, jlong comm, jint device) {   \
        (void)cls;                                                                              \
        NCCL_FN(env, fn, cname, -1);                                                            \
        if (gpu_use_device(env, device) != 0) return -1;                                        \
        int rc = fn(PTR(comm));                                                                 \
        if (!ok(rc)) gpu_throw_nccl(env, #cname, rc, NULL);                                     \
        return rc;                                                                              \
    }

/* Without ncclCommFinalize (NCCL < 2.14) ncclCommDestroy alone ends the communicator. */
JNIEXPORT jint JNICALL JNI_FN(commFinalize0)(JNIEnv *env, jclass cls, jlong comm, jint device) {
    (void)cls;
    if (g_nccl.ncclCommFinalize == NULL) return M4J_NCCL_SUCCESS;
    if (gpu_use_device(env, device) != 0) return -1;
    int rc = g_nccl.ncclCommFinalize(PTR(comm));
    if (!ok(rc)) gpu_throw_nccl(env, "ncclCommFinalize", rc, NULL);
    return rc;
}
COMM_CALL(commDestroy0, ncclCommDestroy)
COMM_CALL(commAbort0, ncclCommAbort)

/* The communicator's asynchronous state: success, in progress, or the error (not thrown). */
JNIEXPORT jint JNICALL JNI_FN(asyncError0)(JNIEnv *env, jclass cls, jlong comm) {
    (void)cls;
    NCCL_FN(env, get, ncclCommGetAsyncError, -1);
    int state = M4J_NCCL_SUCCESS;
    int rc = get(PTR(comm), &state);
    if (rc != M4J_NCCL_SUCCESS) {
        gpu_throw_nccl(env, "ncclCommGetAsyncError", rc, PTR(comm));
        return -1;
    }
    return state;
}

#define COMM_INT(fname, cname)                                                     \
    JNIEXPORT jint JNICALL JNI_FN(fname)(JNIEnv * env, jclass cls, jlong comm) {   \
        (void)cls;                                                                 \
        NCCL_FN(env, fn, cname, -1);                                               \
        int v = -1;                                                                \
        int rc = fn(PTR(comm), &v);                                                \
        if (rc != M4J_NCCL_SUCCESS) gpu_throw_nccl(env, #cname, rc, PTR(comm));    \
        return v;                                                                  \
    }

COMM_INT(count0, ncclCommCount)
COMM_INT(cuDevice0, ncclCommCuDevice)
COMM_INT(userRank0, ncclCommUserRank)

/* The operations: one macro per shape would hide little, so each is written out. */
#define OP_END(name)                                                \
    if (!ok(rc)) gpu_throw_nccl(env, name, rc, PTR(comm));          \
    return rc;

JNIEXPORT jint JNICALL JNI_FN(allReduce0)(JNIEnv *env, jclass cls, jlong send, jlong recv, jlong count, jint type,
                                          jint op, jlong comm, jlong stream, jint device) {
    (void)cls;
    NCCL_FN(env, fn, ncclAllReduce, -1);
    if (gpu_use_device(env, device) != 0) return -1;
    int rc = fn(PTR(send), PTR(recv), (size_t)count, type, op, PTR(comm), PTR(stream));
    OP_END("ncclAllReduce")
}

JNIEXPORT jint JNICALL JNI_FN(broadcast0)(JNIEnv *env, jclass cls, jlong send, jlong recv, jlong count, jint type,
                                          jint root, jlong comm, jlong stream, jint device) {
    (void)cls;
    NCCL_FN(env, fn, ncclBroadcast, -1);
    if (gpu_use_device(env, device) != 0) return -1;
    int rc = fn(PTR(send), PTR(recv), (size_t)count, type, root, PTR(comm), PTR(stream));
    OP_END("ncclBroadcast")
}

JNIEXPORT jint JNICALL JNI_FN(reduce0)(JNIEnv *env, jclass cls, jlong send, jlong recv, jlong count, jint type,
                                       jint op, jint root, jlong comm, jlong stream, jint device) {
    (void)cls;
    NCCL_FN(env, fn, ncclReduce, -1);
    if (gpu_use_device(env, device) != 0) return -1;
    int rc = fn(PTR(send), PTR(recv), (size_t)count, type, op, root, PTR(comm), PTR(stream));
    OP_END("ncclReduce")
}

JNIEXPORT jint JNICALL JNI_FN(allGather0)(JNIEnv *env, jclass cls, jlong send, jlong recv, jlong sendCount,
                                          jint type, jlong comm, jlong stream, jint device) {
    (void)cls;
    NCCL_FN(env, fn, ncclAllGather, -1);
    if (gpu_use_device(env, device) != 0) return -1;
    int rc = fn(PTR(send), PTR(recv), (size_t)sendCount, type, PTR(comm), PTR(stream));
    OP_END("ncclAllGather")
}

JNIEXPORT jint JNICALL JNI_FN(reduceScatter0)(JNIEnv *env, jclass cls, jlong send, jlong recv, jlong recvCount,
                                              jint type, jint op, jlong comm, jlong stream, jint device) {
    (void)cls;
    NCCL_FN(env, fn, ncclReduceScatter, -1);
    if (gpu_use_device(env, device) != 0) return -1;
    int rc = fn(PTR(send), PTR(recv), (size_t)recvCount, type, op, PTR(comm), PTR(stream));
    OP_END("ncclReduceScatter")
}

JNIEXPORT jint JNICALL JNI_FN(send0)(JNIEnv *env, jclass cls, jlong buf, jlong count, jint type, jint peer,
                                     jlong comm, jlong stream, jint device) {
    (void)cls;
    NCCL_FN(env, fn, ncclSend, -1);
    if (gpu_use_device(env, device) != 0) return -1;
    int rc = fn(PTR(buf), (size_t)count, type, peer, PTR(comm), PTR(stream));
    OP_END("ncclSend")
}

JNIEXPORT jint JNICALL JNI_FN(recv0)(JNIEnv *env, jclass cls, jlong buf, jlong count, jint type, jint peer,
                                     jlong comm, jlong stream, jint device) {
    (void)cls;
    NCCL_FN(env, fn, ncclRecv, -1);
    if (gpu_use_device(env, device) != 0) return -1;
    int rc = fn(PTR(buf), (size_t)count, type, peer, PTR(comm), PTR(stream));
    OP_END("ncclRecv")
}

JNIEXPORT jint JNICALL JNI_FN(groupStart0)(JNIEnv *env, jclass cls) {
    (void)cls;
    NCCL_FN(env, fn, ncclGroupStart, -1);
    int rc = fn();
    if (!ok(rc)) gpu_throw_nccl(env, "ncclGroupStart", rc, NULL);
    return rc;
}

JNIEXPORT jint JNICALL JNI_FN(groupEnd0)(JNIEnv *env, jclass cls) {
    (void)cls;
    NCCL_FN(env, fn, ncclGroupEnd, -1);
    int rc = fn();
    if (!ok(rc)) gpu_throw_nccl(env, "ncclGroupEnd", rc, NULL);
    return rc;
}

/* NCCL's text for a result code, and its last error (of `comm`, or of this thread if 0). */
JNIEXPORT jstring JNICALL JNI_FN(errorString0)(JNIEnv *env, jclass cls, jint code) {
    (void)cls;
    const char *s = g_nccl.ncclGetErrorString != NULL ? g_nccl.ncclGetErrorString(code) : NULL;
    return s == NULL ? NULL : (*env)->NewStringUTF(env, s);
}

JNIEXPORT jstring JNICALL JNI_FN(lastError0)(JNIEnv *env, jclass cls, jlong comm) {
    (void)cls;
    const char *s = g_nccl.ncclGetLastError != NULL ? g_nccl.ncclGetLastError(PTR(comm)) : NULL;
    return s == NULL ? NULL : (*env)->NewStringUTF(env, s);
}
