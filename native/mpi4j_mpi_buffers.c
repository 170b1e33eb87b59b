/* Memory at the bridge's edge: how a buffer argument is passed (its mode, pinned against
 * MpiNative), direct addresses, the malloc'ed staging memory Java stages arrays through, and the
 * buffer MPI_Bsend uses. */
#include "mpi4j_mpi.h"

#include <stdio.h>
#include <stdlib.h>

#include "io_github_mpi4j_backend_mpi_MpiNative.h"

#define JNI_FN(name) Java_io_github_mpi4j_backend_mpi_MpiNative_##name

MPI4J_PIN(BUF_ARRAY, ARRAY);
MPI4J_PIN(BUF_DIRECT, DIRECT);
MPI4J_PIN(BUF_IN_PLACE, IN_PLACE);
MPI4J_PIN(BUF_NONE, NONE);
MPI4J_PIN(BUF_RAW, RAW);

int buffers_on_load(JNIEnv *env) {
    (void)env; /* nothing cached */
    return 0;
}

void buffers_on_unload(JNIEnv *env) {
    (void)env;
}

void arg_buf(ubuf *b, jobject obj, jint mode, jlong off) {
    ubuf_init(b, obj, mode, off);
    if (mode == BUF_IN_PLACE) b->ptr = MPI_IN_PLACE;
    if (mode == BUF_RAW) b->ptr = (void *)(intptr_t)off; /* an address Java already knows */
}

void arg_huge(const ubuf *b, jlong count, MPI_Datatype type) {
    /* Under 4,096 elements only derived types of 1 KiB or more could reach 4 MiB; small
     * messages skip the extent query. */
    if (b->mode != BUF_ARRAY || count < 4096) return;
    MPI_Aint lb, extent;
    if (MPI_Type_get_extent(type, &lb, &extent) != MPI_SUCCESS || extent < 1) return;
    huge_pages_for(b->ptr, (size_t)count * (size_t)extent);
}

JNIEXPORT jlong JNICALL JNI_FN(address0)(JNIEnv *env, jclass cls, jobject buf) {
    (void)cls;
    return (jlong)(intptr_t)(*env)->GetDirectBufferAddress(env, buf);
}

/* Staging memory for Java arrays: malloc'ed, so memory the pool does not keep is returned at
 * once instead of waiting for the GC to notice an unreachable direct buffer. */
JNIEXPORT jobject JNICALL JNI_FN(allocateStaging0)(JNIEnv *env, jclass cls, jlong bytes) {
    (void)cls;
    void *p = bytes > 0 ? malloc((size_t)bytes) : NULL;
    if (p == NULL) {
        char msg[96];
        snprintf(msg, sizeof msg, "cannot allocate %lld bytes of staging memory", (long long)bytes);
        throw_mpi(env, J_ERR_NO_MEM, J_ERR_NO_MEM, msg);
        return NULL;
    }
    jobject buf = (*env)->NewDirectByteBuffer(env, p, bytes);
    if (buf == NULL) free(p); /* an exception is pending */
    return buf;
}

JNIEXPORT void JNICALL JNI_FN(freeStaging0)(JNIEnv *env, jclass cls, jobject buf) {
    (void)cls;
    free((*env)->GetDirectBufferAddress(env, buf));
}

JNIEXPORT void JNICALL JNI_FN(bufferAttach0)(JNIEnv *env, jclass cls, jobject buf, jint size) {
    (void)cls;
    void *p = (*env)->GetDirectBufferAddress(env, buf);
    if (p == NULL) {
        throw_other(env, "MPI_Buffer_attach: not a direct buffer");
        return;
    }
    mpi_failed(env, MPI_Buffer_attach(p, (int)size), "MPI_Buffer_attach");
}

JNIEXPORT void JNICALL JNI_FN(bufferDetach0)(JNIEnv *env, jclass cls) {
    (void)cls;
    void *p = NULL;
    int size = 0;
    mpi_failed(env, MPI_Buffer_detach(&p, &size), "MPI_Buffer_detach");
}
