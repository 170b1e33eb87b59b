/* Matched probes: MPI_Mprobe / MPI_Improbe take a message out of matching, MPI_Mrecv /
 * MPI_Imrecv receive exactly that message. Statuses go back to Java as {source, tag, bytes}. */
#include "mpi4j_mpi.h"

#include "io_github_mpi4j_backend_mpi_MpiNative.h"
#include "io_github_mpi4j_backend_mpi_MpiProbeNative.h"

#define JNI_FN(name) Java_io_github_mpi4j_backend_mpi_MpiProbeNative_##name

#define TO_MSG(h) ((MPI_Message)(intptr_t)(h))
#define FROM_MSG(m) ((jlong)(intptr_t)(m))

/* {source, tag, bytes} of an MPI_Status into status[0..2], special values in mpi4j's numbering. */
static void put_status(JNIEnv *env, jlongArray status, MPI_Status *s) {
    int count = 0;
    MPI_Get_count(s, MPI_BYTE, &count);
    int src = s->MPI_SOURCE, tag = s->MPI_TAG;
    jlong v[3];
    v[0] = src == MPI_PROC_NULL ? J_PROC_NULL : src == MPI_ANY_SOURCE ? J_ANY_SOURCE : src;
    v[1] = tag == MPI_ANY_TAG ? J_ANY_TAG : tag;
    v[2] = count == MPI_UNDEFINED ? 0 : (jlong)count;
    (*env)->SetLongArrayRegion(env, status, 0, 3, v);
}

JNIEXPORT jlong JNICALL JNI_FN(mprobe0)(JNIEnv *env, jclass cls, jlong comm, jint source, jint tag,
                                        jlongArray status) {
    (void)cls;
    MPI_Message m = MPI_MESSAGE_NULL;
    MPI_Status s;
    if (mpi_failed(env, MPI_Mprobe(rank_in(source), tag_in(tag), TO_COMM(comm), &m, &s), "MPI_Mprobe")) return 0;
    put_status(env, status, &s);
    return FROM_MSG(m);
}

JNIEXPORT jlong JNICALL JNI_FN(improbe0)(JNIEnv *env, jclass cls, jlong comm, jint source, jint tag,
                                         jlongArray status) {
    (void)cls;
    MPI_Message m = MPI_MESSAGE_NULL;
    MPI_Status s;
    int flag = 0;
    if (mpi_failed(env, MPI_Improbe(rank_in(source), tag_in(tag), TO_COMM(comm), &flag, &m, &s), "MPI_Improbe")) {
        return 0;
    }
    if (!flag) return 0;
    put_status(env, status, &s);
    return FROM_MSG(m);
}

JNIEXPORT void JNICALL JNI_FN(mrecv0)(JNIEnv *env, jclass cls, jlong message, jobject buf, jint mode, jlong off,
                                      jint count, jlong type, jlongArray status) {
    (void)cls;
    ubuf b;
    MPI_Status s;
    MPI_Message m = TO_MSG(message);
    arg_buf(&b, buf, mode, off);
    if (ubuf_acquire(env, &b, 1) != 0) return;
    int rc = MPI_Mrecv(b.ptr, count, TO_TYPE(type), &m, &s);
    ubuf_release(env, &b, 1, 1);
    if (mpi_failed(env, rc, "MPI_Mrecv")) return;
    put_status(env, status, &s);
}

JNIEXPORT jlong JNICALL JNI_FN(imrecv0)(JNIEnv *env, jclass cls, jlong message, jobject buf, jint mode, jlong off,
                                        jint count, jlong type) {
    (void)cls;
    void *p = NULL;
    if (mode == io_github_mpi4j_backend_mpi_MpiNative_RAW) {
        p = (void *)(intptr_t)off;
    } else if (buf != NULL && mode != io_github_mpi4j_backend_mpi_MpiNative_NONE) {
        p = (*env)->GetDirectBufferAddress(env, buf);
        if (p == NULL) {
            throw_other(env, "mpi4j: MPI_Imrecv needs direct memory");
            return 0;
        }
        p = (char *)p + off;
    }
    MPI_Message m = TO_MSG(message);
    MPI_Request r = MPI_REQUEST_NULL;
    if (mpi_failed(env, MPI_Imrecv(p, count, TO_TYPE(type), &m, &r), "MPI_Imrecv")) return 0;
    return FROM_REQ(r);
}
