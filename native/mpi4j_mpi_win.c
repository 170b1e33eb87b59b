/* One-sided communication (issue 11): MPI_Win_* over memory that cannot move. The Java side
 * (MpiWindow, mpi.Win) has checked every argument and the epoch state; buffers arrive as
 * addresses. Lock types and assertions arrive as mpi.MPI's values and are translated here. */
#include "mpi4j_mpi.h"

#include <stdlib.h>

#include "io_github_mpi4j_backend_mpi_MpiWinNative.h"

#define JNI_FN(name) Java_io_github_mpi4j_backend_mpi_MpiWinNative_##name
#define K(name) io_github_mpi4j_backend_mpi_MpiWinNative_##name
#define TO_WIN(h) ((MPI_Win)(intptr_t)(h))
#define PTR(a) ((void *)(intptr_t)(a))

/* mpi.MPI's assertion bits and lock types (Open MPI's values). */
enum { J_NOCHECK = 1, J_NOPRECEDE = 2, J_NOPUT = 4, J_NOSTORE = 8, J_NOSUCCEED = 16 };
enum { J_LOCK_EXCLUSIVE = 1, J_LOCK_SHARED = 2 };

static int assert_in(jint a) {
    int m = 0;
    if (a & J_NOCHECK) m |= MPI_MODE_NOCHECK;
    if (a & J_NOPRECEDE) m |= MPI_MODE_NOPRECEDE;
    if (a & J_NOPUT) m |= MPI_MODE_NOPUT;
    if (a & J_NOSTORE) m |= MPI_MODE_NOSTORE;
    if (a & J_NOSUCCEED) m |= MPI_MODE_NOSUCCEED;
    return m;
}

static jlong new_win(JNIEnv *env, int rc, MPI_Win w, const char *call) {
    if (mpi_failed(env, rc, call)) return 0;
    MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN);
    return FROM_HANDLE(w);
}

JNIEXPORT jlong JNICALL JNI_FN(address0)(JNIEnv *env, jclass cls, jobject buf) {
    (void)cls;
    return (jlong)(intptr_t)(*env)->GetDirectBufferAddress(env, buf);
}

JNIEXPORT jlong JNICALL JNI_FN(create0)(JNIEnv *env, jclass cls, jlong comm, jlong address, jlong bytes,
                                        jint disp_unit) {
    (void)cls;
    MPI_Win w = MPI_WIN_NULL;
    int rc = MPI_Win_create(PTR(address), (MPI_Aint)bytes, (int)disp_unit, MPI_INFO_NULL, TO_COMM(comm), &w);
    return new_win(env, rc, w, "MPI_Win_create");
}

JNIEXPORT jlong JNICALL JNI_FN(allocate0)(JNIEnv *env, jclass cls, jlong comm, jlong bytes, jint disp_unit,
                                          jboolean shared, jobjectArray base) {
    (void)cls;
    MPI_Win w = MPI_WIN_NULL;
    void *p = NULL;
    int rc = shared ? MPI_Win_allocate_shared((MPI_Aint)bytes, (int)disp_unit, MPI_INFO_NULL, TO_COMM(comm), &p, &w)
                    : MPI_Win_allocate((MPI_Aint)bytes, (int)disp_unit, MPI_INFO_NULL, TO_COMM(comm), &p, &w);
    jlong h = new_win(env, rc, w, shared ? "MPI_Win_allocate_shared" : "MPI_Win_allocate");
    if (h == 0) return 0;
    if (bytes > 0 && p != NULL) {
        jobject b = (*env)->NewDirectByteBuffer(env, p, bytes);
        if (b == NULL) return h; /* exception pending; Java frees the window */
        (*env)->SetObjectArrayElement(env, base, 0, b);
    }
    return h;
}

JNIEXPORT jlong JNICALL JNI_FN(createDynamic0)(JNIEnv *env, jclass cls, jlong comm) {
    (void)cls;
    MPI_Win w = MPI_WIN_NULL;
    int rc = MPI_Win_create_dynamic(MPI_INFO_NULL, TO_COMM(comm), &w);
    return new_win(env, rc, w, "MPI_Win_create_dynamic");
}

JNIEXPORT jlong JNICALL JNI_FN(rma0)(JNIEnv *env, jclass cls, jint kind, jlong win, jlong origin, jint ocount,
                                     jlong otype, jlong result, jint rcount, jlong rtype, jint target, jlong disp,
                                     jint tcount, jlong ttype, jlong op, jboolean request) {
    (void)cls;
    MPI_Win w = TO_WIN(win);
    MPI_Request r = MPI_REQUEST_NULL;
    int rc;
    const char *call;
    switch (kind) {
    case K(PUT):
        call = request ? "MPI_Rput" : "MPI_Put";
        rc = request ? MPI_Rput(PTR(origin), ocount, TO_TYPE(otype), target, (MPI_Aint)disp, tcount, TO_TYPE(ttype),
                                w, &r)
                     : MPI_Put(PTR(origin), ocount, TO_TYPE(otype), target, (MPI_Aint)disp, tcount, TO_TYPE(ttype), w);
        break;
    case K(GET):
        call = request ? "MPI_Rget" : "MPI_Get";
        rc = request ? MPI_Rget(PTR(origin), ocount, TO_TYPE(otype), target, (MPI_Aint)disp, tcount, TO_TYPE(ttype),
                                w, &r)
                     : MPI_Get(PTR(origin), ocount, TO_TYPE(otype), target, (MPI_Aint)disp, tcount, TO_TYPE(ttype), w);
        break;
    case K(ACCUMULATE):
        call = request ? "MPI_Raccumulate" : "MPI_Accumulate";
        rc = request ? MPI_Raccumulate(PTR(origin), ocount, TO_TYPE(otype), target, (MPI_Aint)disp, tcount,
                                       TO_TYPE(ttype), TO_OP(op), w, &r)
                     : MPI_Accumulate(PTR(origin), ocount, TO_TYPE(otype), target, (MPI_Aint)disp, tcount,
                                      TO_TYPE(ttype), TO_OP(op), w);
        break;
    default:
        call = request ? "MPI_Rget_accumulate" : "MPI_Get_accumulate";
        rc = request ? MPI_Rget_accumulate(PTR(origin), ocount, TO_TYPE(otype), PTR(result), rcount, TO_TYPE(rtype),
                                           target, (MPI_Aint)disp, tcount, TO_TYPE(ttype), TO_OP(op), w, &r)
                     : MPI_Get_accumulate(PTR(origin), ocount, TO_TYPE(otype), PTR(result), rcount, TO_TYPE(rtype),
                                          target, (MPI_Aint)disp, tcount, TO_TYPE(ttype), TO_OP(op), w);
    }
    if (mpi_failed(env, rc, call)) return 0;
    return FROM_REQ(r);
}

JNIEXPORT void JNICALL JNI_FN(fetchAndOp0)(JNIEnv *env, jclass cls, jlong win, jlong origin, jlong result,
                                           jlong type, jint target, jlong disp, jlong op) {
    (void)cls;
    mpi_failed(env, MPI_Fetch_and_op(PTR(origin), PTR(result), TO_TYPE(type), target, (MPI_Aint)disp, TO_OP(op),
                                     TO_WIN(win)), "MPI_Fetch_and_op");
}

JNIEXPORT void JNICALL JNI_FN(compareAndSwap0)(JNIEnv *env, jclass cls, jlong win, jlong origin, jlong compare,
                                               jlong result, jlong type, jint target, jlong disp) {
    (void)cls;
    mpi_failed(env, MPI_Compare_and_swap(PTR(origin), PTR(compare), PTR(result), TO_TYPE(type), target,
                                         (MPI_Aint)disp, TO_WIN(win)), "MPI_Compare_and_swap");
}

/* The group of the given ranks of comm (for post and start). */
static int group_of(JNIEnv *env, jlong comm, jintArray ranks, MPI_Group *out) {
    jsize n = (*env)->GetArrayLength(env, ranks);
    int *r = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    if (r == NULL) {
        throw_other(env, "mpi4j window: out of memory");
        return -1;
    }
    if (n > 0) (*env)->GetIntArrayRegion(env, ranks, 0, n, (jint *)r);
    MPI_Group all;
    int rc = MPI_Comm_group(TO_COMM(comm), &all);
    if (rc == MPI_SUCCESS) {
        rc = MPI_Group_incl(all, (int)n, r, out);
        MPI_Group_free(&all);
    }
    free(r);
    return mpi_failed(env, rc, "MPI_Group_incl") ? -1 : 0;
}

JNIEXPORT jint JNICALL JNI_FN(sync0)(JNIEnv *env, jclass cls, jint kind, jlong win, jint a, jint b, jint c,
                                     jlong comm, jintArray ranks) {
    (void)cls;
    MPI_Win w = TO_WIN(win);
    int rc, flag = 0;
    const char *call;
    MPI_Group g;
    switch (kind) {
    case K(FENCE): call = "MPI_Win_fence"; rc = MPI_Win_fence(assert_in(a), w); break;
    case K(COMPLETE): call = "MPI_Win_complete"; rc = MPI_Win_complete(w); break;
    case K(WAIT): call = "MPI_Win_wait"; rc = MPI_Win_wait(w); break;
    case K(TEST): call = "MPI_Win_test"; rc = MPI_Win_test(w, &flag); break;
    case K(LOCK):
        call = "MPI_Win_lock";
        rc = MPI_Win_lock(c == J_LOCK_EXCLUSIVE ? MPI_LOCK_EXCLUSIVE : MPI_LOCK_SHARED, b, assert_in(a), w);
        break;
    case K(UNLOCK): call = "MPI_Win_unlock"; rc = MPI_Win_unlock(a, w); break;
    case K(LOCK_ALL): call = "MPI_Win_lock_all"; rc = MPI_Win_lock_all(assert_in(a), w); break;
    case K(UNLOCK_ALL): call = "MPI_Win_unlock_all"; rc = MPI_Win_unlock_all(w); break;
    case K(FLUSH): call = "MPI_Win_flush"; rc = MPI_Win_flush(a, w); break;
    case K(FLUSH_ALL): call = "MPI_Win_flush_all"; rc = MPI_Win_flush_all(w); break;
    case K(FLUSH_LOCAL): call = "MPI_Win_flush_local"; rc = MPI_Win_flush_local(a, w); break;
    case K(FLUSH_LOCAL_ALL): call = "MPI_Win_flush_local_all"; rc = MPI_Win_flush_local_all(w); break;
    case K(SYNC): call = "MPI_Win_sync"; rc = MPI_Win_sync(w); break;
    case K(FREE): call = "MPI_Win_free"; rc = MPI_Win_free(&w); break;
    default: /* POST, START */
        if (group_of(env, comm, ranks, &g) != 0) return 0;
        call = kind == K(POST) ? "MPI_Win_post" : "MPI_Win_start";
        rc = kind == K(POST) ? MPI_Win_post(g, assert_in(a), w) : MPI_Win_start(g, assert_in(a), w);
        MPI_Group_free(&g);
    }
    mpi_failed(env, rc, call);
    return flag;
}

JNIEXPORT jobject JNICALL JNI_FN(sharedQuery0)(JNIEnv *env, jclass cls, jlong win, jint rank, jintArray disp_unit) {
    (void)cls;
    MPI_Aint size = 0;
    int du = 1;
    void *p = NULL;
    if (mpi_failed(env, MPI_Win_shared_query(TO_WIN(win), rank, &size, &du, &p), "MPI_Win_shared_query")) return NULL;
    jint j = du;
    (*env)->SetIntArrayRegion(env, disp_unit, 0, 1, &j);
    if (size == 0 || p == NULL) return NULL;
    return (*env)->NewDirectByteBuffer(env, p, (jlong)size);
}

JNIEXPORT void JNICALL JNI_FN(attach0)(JNIEnv *env, jclass cls, jlong win, jlong address, jlong bytes) {
    (void)cls;
    mpi_failed(env, MPI_Win_attach(TO_WIN(win), PTR(address), (MPI_Aint)bytes), "MPI_Win_attach");
}

JNIEXPORT void JNICALL JNI_FN(detach0)(JNIEnv *env, jclass cls, jlong win, jlong address) {
    (void)cls;
    mpi_failed(env, MPI_Win_detach(TO_WIN(win), PTR(address)), "MPI_Win_detach");
}
