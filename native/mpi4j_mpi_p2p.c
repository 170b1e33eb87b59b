/* Point-to-point communication, request completion, and the statuses both report. */
#include "mpi4j_mpi.h"

#include <stdlib.h>

#include "io_github_mpi4j_backend_mpi_MpiNative.h"

#define JNI_FN(name) Java_io_github_mpi4j_backend_mpi_MpiNative_##name

/* Send modes: MpiNative.SEND_* (pinned below). */
enum { MODE_STANDARD, MODE_SYNCHRONOUS, MODE_BUFFERED, MODE_READY };
MPI4J_PIN(MODE_STANDARD, SEND_STANDARD);
MPI4J_PIN(MODE_SYNCHRONOUS, SEND_SYNCHRONOUS);
MPI4J_PIN(MODE_BUFFERED, SEND_BUFFERED);
MPI4J_PIN(MODE_READY, SEND_READY);

/* Nothing to look up: statuses reach Java through a native area (NativeStatus), not by JNI
 * field writes. */
int p2p_on_load(JNIEnv *env) {
    (void)env;
    return 0;
}

void p2p_on_unload(JNIEnv *env) {
    (void)env;
}

/* What Java sees of an MPI_Status: its StatusData's fields, and the layout of the per-thread
 * area NativeStatus.java reads (ints at 0, 4, 8, 12, the byte count at 16). */
typedef struct {
    jint source, tag, error, cancelled;
    jlong bytes;
} status_area;
_Static_assert(sizeof(status_area) == 24, "NativeStatus.BYTES");

static status_area status_values(MPI_Status *s) {
    int count = 0, cancelled = 0;
    MPI_Get_count(s, MPI_BYTE, &count);
    MPI_Test_cancelled(s, &cancelled);
    int src = s->MPI_SOURCE, tag = s->MPI_TAG;
    status_area v;
    v.source = src == MPI_PROC_NULL ? J_PROC_NULL : src == MPI_ANY_SOURCE ? J_ANY_SOURCE : src;
    v.tag = tag == MPI_ANY_TAG ? J_ANY_TAG : tag;
    v.error = MPI_SUCCESS;
    v.cancelled = cancelled ? 1 : 0;
    v.bytes = count == MPI_UNDEFINED ? 0 : (jlong)count;
    return v;
}

/* Writes an MPI_Status into a thread's status area (NativeStatus): plain stores where a
 * StatusData would take five JNI calls. */
static void put_status(jlong area, MPI_Status *s) {
    *(status_area *)(intptr_t)area = status_values(s);
}

/* The MPI_Status argument of a call whose status goes to {@code area} (0: nobody reads it). */
#define STATUS_FOR(area, local) ((area) != 0 ? (local) : MPI_STATUS_IGNORE)

JNIEXPORT void JNICALL JNI_FN(send0)(JNIEnv *env, jclass cls, jlong comm, jobject buf, jint mode, jlong off,
                                     jint count, jlong type, jint dest, jint tag, jint sendMode) {
    (void)cls;
    ubuf b;
    arg_buf(&b, buf, mode, off);
    if (ubuf_acquire(env, &b, 1) != 0) return;
    arg_huge(&b, count, TO_TYPE(type));
    int d = rank_in(dest);
    int rc;
    switch (sendMode) {
        case MODE_SYNCHRONOUS: rc = MPI_Ssend(b.ptr, count, TO_TYPE(type), d, tag, TO_COMM(comm)); break;
        case MODE_BUFFERED: rc = MPI_Bsend(b.ptr, count, TO_TYPE(type), d, tag, TO_COMM(comm)); break;
        case MODE_READY: rc = MPI_Rsend(b.ptr, count, TO_TYPE(type), d, tag, TO_COMM(comm)); break;
        default: rc = MPI_Send(b.ptr, count, TO_TYPE(type), d, tag, TO_COMM(comm));
    }
    ubuf_release(env, &b, 1, 0);
    mpi_failed(env, rc, "MPI_Send");
}

JNIEXPORT void JNICALL JNI_FN(recv0)(JNIEnv *env, jclass cls, jlong comm, jobject buf, jint mode, jlong off,
                                     jint count, jlong type, jint source, jint tag, jlong statusArea) {
    (void)cls;
    ubuf b;
    MPI_Status s;
    arg_buf(&b, buf, mode, off);
    if (ubuf_acquire(env, &b, 1) != 0) return;
    arg_huge(&b, count, TO_TYPE(type));
    int rc = MPI_Recv(b.ptr, count, TO_TYPE(type), rank_in(source), tag_in(tag), TO_COMM(comm),
                      STATUS_FOR(statusArea, &s));
    ubuf_release(env, &b, 1, 1);
    if (mpi_failed(env, rc, "MPI_Recv")) return;
    if (statusArea != 0) put_status(statusArea, &s);
}

/* Non-blocking and persistent calls take only memory that stays put while the request runs:
 * by address (Java knows the addresses of direct buffers and of its staging) or a direct
 * buffer. Returns nonzero, with an exception pending, for anything else. An address needs no
 * JNI call at all: asking for a pending exception cost as much as a small receive's matching. */
static int direct_ptr(JNIEnv *env, jobject buf, jint mode, jlong off, void **out) {
    if (mode == BUF_RAW) {
        *out = (void *)(intptr_t)off;
        return 0;
    }
    *out = NULL;
    if (mode == BUF_NONE || buf == NULL) return 0;
    void *p = (*env)->GetDirectBufferAddress(env, buf);
    if (p == NULL) {
        throw_other(env, "mpi4j: non-blocking operations need direct memory");
        return -1;
    }
    *out = (char *)p + off;
    return 0;
}

JNIEXPORT jlong JNICALL JNI_FN(isend0)(JNIEnv *env, jclass cls, jlong comm, jobject buf, jint mode, jlong off,
                                       jint count, jlong type, jint dest, jint tag, jint sendMode,
                                       jboolean persistent) {
    (void)cls;
    void *p;
    if (direct_ptr(env, buf, mode, off, &p) != 0) return 0;
    MPI_Request r = MPI_REQUEST_NULL;
    MPI_Datatype t = TO_TYPE(type);
    MPI_Comm c = TO_COMM(comm);
    int d = rank_in(dest);
    int rc;
    const char *call; /* the error message names the call that failed */
    if (persistent) {
        switch (sendMode) {
            case MODE_SYNCHRONOUS: call = "MPI_Ssend_init"; rc = MPI_Ssend_init(p, count, t, d, tag, c, &r); break;
            case MODE_BUFFERED: call = "MPI_Bsend_init"; rc = MPI_Bsend_init(p, count, t, d, tag, c, &r); break;
            case MODE_READY: call = "MPI_Rsend_init"; rc = MPI_Rsend_init(p, count, t, d, tag, c, &r); break;
            default: call = "MPI_Send_init"; rc = MPI_Send_init(p, count, t, d, tag, c, &r);
        }
    } else {
        switch (sendMode) {
            case MODE_SYNCHRONOUS: call = "MPI_Issend"; rc = MPI_Issend(p, count, t, d, tag, c, &r); break;
            case MODE_BUFFERED: call = "MPI_Ibsend"; rc = MPI_Ibsend(p, count, t, d, tag, c, &r); break;
            case MODE_READY: call = "MPI_Irsend"; rc = MPI_Irsend(p, count, t, d, tag, c, &r); break;
            default: call = "MPI_Isend"; rc = MPI_Isend(p, count, t, d, tag, c, &r);
        }
    }
    if (mpi_failed(env, rc, call)) return 0;
    return FROM_REQ(r);
}

#if !MPI4J_FAMILY_IS_OMPI
/* MPICH before 4.2 answers MPI_Irecv from MPI_PROC_NULL with a pre-completed request whose
 * status says source 0, tag 0 (pmodels/mpich#6805). MPI requires source MPI_PROC_NULL, tag
 * MPI_ANY_TAG, count 0, so such a receive gets a generalized request, already complete, that
 * reports exactly that. */
static int proc_null_query(void *extra, MPI_Status *status) {
    (void)extra;
    status->MPI_SOURCE = MPI_PROC_NULL;
    status->MPI_TAG = MPI_ANY_TAG;
    status->MPI_ERROR = MPI_SUCCESS;
    MPI_Status_set_elements(status, MPI_BYTE, 0);
    MPI_Status_set_cancelled(status, 0);
    return MPI_SUCCESS;
}
static int proc_null_free(void *extra) {
    (void)extra;
    return MPI_SUCCESS;
}
static int proc_null_cancel(void *extra, int complete) {
    (void)extra;
    (void)complete;
    return MPI_SUCCESS;
}
static int irecv_proc_null(MPI_Request *r) {
    int rc = MPI_Grequest_start(proc_null_query, proc_null_free, proc_null_cancel, NULL, r);
    return rc == MPI_SUCCESS ? MPI_Grequest_complete(*r) : rc;
}
#endif

JNIEXPORT jlong JNICALL JNI_FN(irecv0)(JNIEnv *env, jclass cls, jlong comm, jobject buf, jint mode, jlong off,
                                       jint count, jlong type, jint source, jint tag, jboolean persistent) {
    (void)cls;
    void *p;
    if (direct_ptr(env, buf, mode, off, &p) != 0) return 0;
    MPI_Request r = MPI_REQUEST_NULL;
    int rc;
#if !MPI4J_FAMILY_IS_OMPI
    if (!persistent && rank_in(source) == MPI_PROC_NULL) {
        rc = irecv_proc_null(&r);
    } else
#endif
    rc = persistent
        ? MPI_Recv_init(p, count, TO_TYPE(type), rank_in(source), tag_in(tag), TO_COMM(comm), &r)
        : MPI_Irecv(p, count, TO_TYPE(type), rank_in(source), tag_in(tag), TO_COMM(comm), &r);
    if (mpi_failed(env, rc, "MPI_Irecv")) return 0;
    return FROM_REQ(r);
}

JNIEXPORT void JNICALL JNI_FN(sendRecv0)(JNIEnv *env, jclass cls, jlong comm, jobject sbuf, jint smode,
                                         jlong soff, jint scount, jlong stype, jint dest, jint stag, jobject rbuf,
                                         jint rmode, jlong roff, jint rcount, jlong rtype, jint source, jint rtag,
                                         jlong statusArea) {
    (void)cls;
    ubuf b[2];
    MPI_Status s;
    arg_buf(&b[0], sbuf, smode, soff);
    arg_buf(&b[1], rbuf, rmode, roff);
    if (ubuf_acquire(env, b, 2) != 0) return;
    arg_huge(&b[0], scount, TO_TYPE(stype));
    arg_huge(&b[1], rcount, TO_TYPE(rtype));
    int rc = MPI_Sendrecv(b[0].ptr, scount, TO_TYPE(stype), rank_in(dest), stag, b[1].ptr, rcount, TO_TYPE(rtype),
                          rank_in(source), tag_in(rtag), TO_COMM(comm), &s);
    ubuf_release(env, b, 2, 1);
    if (mpi_failed(env, rc, "MPI_Sendrecv")) return;
    put_status(statusArea, &s);
}

JNIEXPORT void JNICALL JNI_FN(sendRecvReplace0)(JNIEnv *env, jclass cls, jlong comm, jobject buf, jint mode,
                                                jlong off, jint count, jlong type, jint dest, jint stag,
                                                jint source, jint rtag, jlong statusArea) {
    (void)cls;
    ubuf b;
    MPI_Status s;
    arg_buf(&b, buf, mode, off);
    if (ubuf_acquire(env, &b, 1) != 0) return;
    int rc = MPI_Sendrecv_replace(b.ptr, count, TO_TYPE(type), rank_in(dest), stag, rank_in(source), tag_in(rtag),
                                  TO_COMM(comm), &s);
    ubuf_release(env, &b, 1, 1);
    if (mpi_failed(env, rc, "MPI_Sendrecv_replace")) return;
    put_status(statusArea, &s);
}

JNIEXPORT void JNICALL JNI_FN(probe0)(JNIEnv *env, jclass cls, jlong comm, jint source, jint tag,
                                      jlong statusArea) {
    (void)cls;
    MPI_Status s;
    if (mpi_failed(env, MPI_Probe(rank_in(source), tag_in(tag), TO_COMM(comm), &s), "MPI_Probe")) return;
    put_status(statusArea, &s);
}

JNIEXPORT jboolean JNICALL JNI_FN(iprobe0)(JNIEnv *env, jclass cls, jlong comm, jint source, jint tag,
                                           jlong statusArea) {
    (void)cls;
    MPI_Status s;
    int flag = 0;
    if (mpi_failed(env, MPI_Iprobe(rank_in(source), tag_in(tag), TO_COMM(comm), &flag, &s), "MPI_Iprobe")) {
        return JNI_FALSE;
    }
    if (flag) put_status(statusArea, &s);
    return flag ? JNI_TRUE : JNI_FALSE;
}

/* ---- requests ---------------------------------------------------------------------------- */

JNIEXPORT void JNICALL JNI_FN(start0)(JNIEnv *env, jclass cls, jlong request) {
    (void)cls;
    MPI_Request r = TO_REQ(request);
    mpi_failed(env, MPI_Start(&r), "MPI_Start");
}

JNIEXPORT void JNICALL JNI_FN(wait0)(JNIEnv *env, jclass cls, jlong request, jlong statusArea) {
    (void)cls;
    MPI_Request r = TO_REQ(request);
    MPI_Status s;
    if (mpi_failed(env, MPI_Wait(&r, STATUS_FOR(statusArea, &s)), "MPI_Wait")) return;
    if (statusArea != 0) put_status(statusArea, &s);
}

JNIEXPORT jboolean JNICALL JNI_FN(test0)(JNIEnv *env, jclass cls, jlong request, jlong statusArea) {
    (void)cls;
    MPI_Request r = TO_REQ(request);
    MPI_Status s;
    int flag = 0;
    if (mpi_failed(env, MPI_Test(&r, &flag, STATUS_FOR(statusArea, &s)), "MPI_Test")) return JNI_FALSE;
    if (flag && statusArea != 0) put_status(statusArea, &s);
    return flag ? JNI_TRUE : JNI_FALSE;
}

JNIEXPORT void JNICALL JNI_FN(cancel0)(JNIEnv *env, jclass cls, jlong request) {
    (void)cls;
    MPI_Request r = TO_REQ(request);
    mpi_failed(env, MPI_Cancel(&r), "MPI_Cancel");
}

JNIEXPORT void JNICALL JNI_FN(requestFree0)(JNIEnv *env, jclass cls, jlong request) {
    (void)cls;
    MPI_Request r = TO_REQ(request);
    mpi_failed(env, MPI_Request_free(&r), "MPI_Request_free");
}

/* Copies the Java handles into a C array (0 -> MPI_REQUEST_NULL). */
static MPI_Request *load_requests(JNIEnv *env, jlongArray requests, jsize *n, jlong **raw) {
    *n = (*env)->GetArrayLength(env, requests);
    size_t m = (size_t)(*n > 0 ? *n : 1);
    MPI_Request *r = malloc(sizeof(MPI_Request) * m);
    *raw = malloc(sizeof(jlong) * m);
    if (r == NULL || *raw == NULL) {
        free(r);
        free(*raw);
        throw_other(env, "request completion: out of memory");
        return NULL;
    }
    (*env)->GetLongArrayRegion(env, requests, 0, *n, *raw);
    for (jsize i = 0; i < *n; i++) r[i] = TO_REQ((*raw)[i]);
    return r;
}

/* Writes the handles back: completed non-persistent requests became MPI_REQUEST_NULL (0). */
static void store_requests(JNIEnv *env, jlongArray requests, MPI_Request *r, jlong *raw, jsize n) {
    for (jsize i = 0; i < n; i++) raw[i] = FROM_REQ(r[i]);
    (*env)->SetLongArrayRegion(env, requests, 0, n, raw);
    free(r);
    free(raw);
}

/* Writes n statuses into a status area (NativeStatus), each with its own error field (set by
 * MPI where a call reports MPI_ERR_IN_STATUS). */
static void put_statuses(jlong area, MPI_Status *s, int n) {
    status_area *a = (status_area *)(intptr_t)area;
    for (int i = 0; i < n; i++) {
        a[i] = status_values(&s[i]);
        a[i].error = s[i].MPI_ERROR;
    }
}

static int all_complete(JNIEnv *env, jlongArray requests, jlong statusArea, int blocking) {
    jsize n;
    jlong *raw;
    MPI_Request *r = load_requests(env, requests, &n, &raw);
    if (r == NULL) return 0;
    /* Without a statuses array nobody looks at them: let MPI skip filling them. */
    MPI_Status *s = MPI_STATUSES_IGNORE;
    if (statusArea != 0) {
        s = malloc(sizeof(MPI_Status) * (size_t)(n > 0 ? n : 1));
        if (s == NULL) {
            free(r);
            free(raw);
            throw_other(env, "MPI_Waitall: out of memory");
            return 0;
        }
        for (jsize i = 0; i < n; i++) s[i].MPI_ERROR = MPI_SUCCESS;
    }
    int flag = 1;
    int rc = blocking ? MPI_Waitall((int)n, r, s) : MPI_Testall((int)n, r, &flag, s);
    store_requests(env, requests, r, raw, n);
    if (statusArea != 0) {
        if ((rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS) && flag) put_statuses(statusArea, s, (int)n);
        free(s);
    }
    if (mpi_failed(env, rc, blocking ? "MPI_Waitall" : "MPI_Testall")) return 0;
    return flag;
}

JNIEXPORT void JNICALL JNI_FN(waitAll0)(JNIEnv *env, jclass cls, jlongArray requests, jlong statusArea) {
    (void)cls;
    all_complete(env, requests, statusArea, 1);
}

JNIEXPORT jboolean JNICALL JNI_FN(testAll0)(JNIEnv *env, jclass cls, jlongArray requests, jlong statusArea) {
    (void)cls;
    return all_complete(env, requests, statusArea, 0) ? JNI_TRUE : JNI_FALSE;
}

static jint any_complete(JNIEnv *env, jlongArray requests, jlong statusArea, int blocking) {
    jsize n;
    jlong *raw;
    MPI_Request *r = load_requests(env, requests, &n, &raw);
    if (r == NULL) return -1;
    MPI_Status s;
    int index = MPI_UNDEFINED, flag = 1;
    int rc = blocking ? MPI_Waitany((int)n, r, &index, &s) : MPI_Testany((int)n, r, &index, &flag, &s);
    store_requests(env, requests, r, raw, n);
    if (mpi_failed(env, rc, blocking ? "MPI_Waitany" : "MPI_Testany")) return -1;
    if (!flag) return (jint)0x80000000;
    if (index == MPI_UNDEFINED) return -1;
    if (statusArea != 0) put_status(statusArea, &s);
    return index;
}

JNIEXPORT jint JNICALL JNI_FN(waitAny0)(JNIEnv *env, jclass cls, jlongArray requests, jlong statusArea) {
    (void)cls;
    return any_complete(env, requests, statusArea, 1);
}

JNIEXPORT jint JNICALL JNI_FN(testAny0)(JNIEnv *env, jclass cls, jlongArray requests, jlong statusArea) {
    (void)cls;
    return any_complete(env, requests, statusArea, 0);
}

static jint some_complete(JNIEnv *env, jlongArray requests, jintArray indices, jlong statusArea,
                          int blocking) {
    jsize n;
    jlong *raw;
    MPI_Request *r = load_requests(env, requests, &n, &raw);
    if (r == NULL) return -1;
    size_t m = (size_t)(n > 0 ? n : 1);
    MPI_Status *s = malloc(sizeof(MPI_Status) * m);
    int *idx = malloc(sizeof(int) * m);
    if (s == NULL || idx == NULL) {
        free(s);
        free(idx);
        free(r);
        free(raw);
        throw_other(env, "MPI_Waitsome: out of memory");
        return -1;
    }
    int out = 0;
    int rc = blocking ? MPI_Waitsome((int)n, r, &out, idx, s) : MPI_Testsome((int)n, r, &out, idx, s);
    store_requests(env, requests, r, raw, n);
    jint result = -1;
    if (!mpi_failed(env, rc, blocking ? "MPI_Waitsome" : "MPI_Testsome")) {
        if (out == MPI_UNDEFINED) {
            result = -1;
        } else {
            (*env)->SetIntArrayRegion(env, indices, 0, out, (jint *)idx);
            if (statusArea != 0) put_statuses(statusArea, s, out);
            result = out;
        }
    }
    free(s);
    free(idx);
    return result;
}

JNIEXPORT jint JNICALL JNI_FN(waitSome0)(JNIEnv *env, jclass cls, jlongArray requests, jintArray indices,
                                         jlong statusArea) {
    (void)cls;
    return some_complete(env, requests, indices, statusArea, 1);
}

JNIEXPORT jint JNICALL JNI_FN(testSome0)(JNIEnv *env, jclass cls, jlongArray requests, jintArray indices,
                                         jlong statusArea) {
    (void)cls;
    return some_complete(env, requests, indices, statusArea, 0);
}
