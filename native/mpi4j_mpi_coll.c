/* Collective operations, blocking and non-blocking (nb). Blocking calls may pin Java arrays for
 * their duration; non-blocking ones receive direct memory only (Java stages arrays). */
#include "mpi4j_mpi.h"

#include <stdlib.h>
#include <string.h>

#include "io_github_mpi4j_backend_mpi_MpiNative.h"

#define JNI_FN(name) Java_io_github_mpi4j_backend_mpi_MpiNative_##name

/* Selectors shared with MpiNative.java. */
enum { K_GATHER, K_SCATTER, K_ALLGATHER, K_ALLTOALL };
MPI4J_PIN(K_GATHER, GATHER);
MPI4J_PIN(K_SCATTER, SCATTER);
MPI4J_PIN(K_ALLGATHER, ALLGATHER);
MPI4J_PIN(K_ALLTOALL, ALLTOALL);

int coll_on_load(JNIEnv *env) {
    (void)env; /* nothing cached */
    return 0;
}

void coll_on_unload(JNIEnv *env) {
    (void)env;
}

/* Ends a collective: returns the request of a non-blocking call, 0 otherwise. */
static jlong finish(JNIEnv *env, int rc, MPI_Request r, const char *call) {
    if (mpi_failed(env, rc, call)) return 0;
    return FROM_REQ(r);
}

JNIEXPORT jlong JNICALL JNI_FN(barrier0)(JNIEnv *env, jclass cls, jlong comm, jboolean nb) {
    (void)cls;
    MPI_Request r = MPI_REQUEST_NULL;
    int rc = nb ? MPI_Ibarrier(TO_COMM(comm), &r) : MPI_Barrier(TO_COMM(comm));
    return finish(env, rc, r, nb ? "MPI_Ibarrier" : "MPI_Barrier");
}

JNIEXPORT jlong JNICALL JNI_FN(bcast0)(JNIEnv *env, jclass cls, jlong comm, jobject buf, jint mode, jlong off,
                                       jint count, jlong type, jint root, jboolean nb) {
    (void)cls;
    root = root_in(root); /* MPI_ROOT, MPI_PROC_NULL: intercommunicators (issue 10) */
    ubuf b;
    MPI_Request r = MPI_REQUEST_NULL;
    arg_buf(&b, buf, mode, off);
    if (ubuf_acquire(env, &b, 1) != 0) return 0;
    arg_huge(&b, count, TO_TYPE(type));
    int rc = nb ? MPI_Ibcast(b.ptr, count, TO_TYPE(type), root, TO_COMM(comm), &r)
                : MPI_Bcast(b.ptr, count, TO_TYPE(type), root, TO_COMM(comm));
    ubuf_release(env, &b, 1, 1);
    return finish(env, rc, r, nb ? "MPI_Ibcast" : "MPI_Bcast");
}

/* This process's rank in c; -1 when MPI cannot tell. */
static int rank_of(MPI_Comm c) {
    int rank = -1;
    return MPI_Comm_rank(c, &rank) == MPI_SUCCESS ? rank : -1;
}

#if defined(OPEN_MPI)
/* The size of one element of t when count of them lie back to back without holes (so a copy may
 * move them), else 0. */
static int hole_free_size(jlong count, MPI_Datatype t) {
    int size = 0;
    MPI_Aint lb = -1, extent = 0, true_lb = -1, true_extent = 0;
    if (count < 1 || MPI_Type_size(t, &size) != MPI_SUCCESS || MPI_Type_get_extent(t, &lb, &extent) != MPI_SUCCESS ||
        MPI_Type_get_true_extent(t, &true_lb, &true_extent) != MPI_SUCCESS) {
        return 0;
    }
    return lb == 0 && true_lb == 0 && size > 0 && (MPI_Aint)size == extent && true_extent == extent ? size : 0;
}

/*
 * Open MPI reduces a large allreduce, reduce or scan from the send buffer into the receive
 * buffer in one vector loop (result = send + received). When the receive buffer starts 1-63 bytes
 * past the send buffer modulo 4 KiB, each load of that loop falsely waits on the store just before
 * it ("4K aliasing"): a 16 MiB allreduce of doubles took 9.6-10.9 ms instead of 5.8-6.6, a scan
 * 11.2 instead of 6.0-6.4 (C alone, docs/performance.md, twenty-eighth session). Two Java arrays
 * allocated one after the other lie exactly there: the second one's data starts 16 bytes (its
 * header) after the first one's end. Such a call copies the send buffer into the receive buffer
 * itself (glibc's copy avoids that aliasing) and runs in place, which MPI defines as the same
 * operation. Only for data without holes (a copy would write into them) and intracommunicators
 * (no MPI_IN_PLACE otherwise), and only for blocking calls. In a blocking call, whether a rank
 * goes in place is its own business in Open MPI (each rank's algorithm step checks its own send
 * buffer; nothing about it is exchanged), so ranks with other layouts may call as they were;
 * CollectiveSuite mixes the two. Not in a non-blocking one: libnbc picks the algorithm of an
 * MPI_Iallreduce from MPI_IN_PLACE too (binomial in place, a ring otherwise from 4 ranks and
 * 64 KiB), so ranks whose buffers lay differently ran different schedules and failed with
 * MPI_ERR_TRUNCATE (the overlap benchmark at np 4, thirty-second session).
 */
static int in_aliasing_window(const ubuf *b) {
    if (b[0].ptr == MPI_IN_PLACE || b[0].ptr == NULL || b[1].ptr == NULL || b[1].ptr == MPI_IN_PLACE) return 0;
    uintptr_t gap = ((uintptr_t)b[1].ptr - (uintptr_t)b[0].ptr) & 4095;
    return gap != 0 && gap < 64;
}

static void copy_then_in_place(ubuf *b, jlong count, MPI_Datatype t, MPI_Comm c) {
    int inter = 1, size = hole_free_size(count, t);
    if (size == 0 || MPI_Comm_test_inter(c, &inter) != MPI_SUCCESS || inter) return;
    memmove(b[1].ptr, b[0].ptr, (size_t)count * (size_t)size); /* overlap is the caller's error; no worse */
    b[0].ptr = MPI_IN_PLACE;
}
#endif

#if defined(MPICH)
/*
 * MPICH 4.0's blocking MPI_Reduce with MPI_IN_PLACE at the root crashes the process once the data
 * is a few KiB (777 ints at a root other than 0, any root at 100,000; its non-blocking reduce
 * does not). The root instead sends a copy of its receive buffer, which is the same operation.
 * Returns the copy to free after the call (NULL when none was made); on failure to allocate, the
 * MPI error code through *rc.
 */
static void *mpich_reduce_in_place_copy(ubuf *b, jlong count, MPI_Datatype t, MPI_Comm c, int root, int *rc) {
    *rc = MPI_SUCCESS;
    if (b[0].ptr != MPI_IN_PLACE || b[1].ptr == NULL || count < 1) return NULL;
    if (rank_of(c) != root) return NULL; /* intercomms: root is MPI_ROOT */
    MPI_Aint lb, extent, true_lb, true_extent;
    if (MPI_Type_get_extent(t, &lb, &extent) != MPI_SUCCESS ||
        MPI_Type_get_true_extent(t, &true_lb, &true_extent) != MPI_SUCCESS) {
        return NULL;
    }
    size_t span = (size_t)(count - 1) * (size_t)extent + (size_t)true_extent;
    char *copy = malloc(span > 0 ? span : 1);
    if (copy == NULL) {
        *rc = MPI_ERR_NO_MEM;
        return NULL;
    }
    memcpy(copy, (char *)b[1].ptr + true_lb, span);
    b[0].ptr = copy - true_lb;
    return copy;
}
#endif

JNIEXPORT jlong JNICALL JNI_FN(reduce0)(JNIEnv *env, jclass cls, jlong comm, jobject sbuf, jint smode, jlong soff,
                                        jobject rbuf, jint rmode, jlong roff, jint count, jlong type, jlong op,
                                        jint root, jboolean all, jboolean nb) {
    (void)cls;
    root = root_in(root); /* MPI_ROOT, MPI_PROC_NULL: intercommunicators (issue 10) */
    ubuf b[2];
    MPI_Request r = MPI_REQUEST_NULL;
    arg_buf(&b[0], sbuf, smode, soff);
    arg_buf(&b[1], rbuf, rmode, roff);
    if (ubuf_acquire(env, b, 2) != 0) return 0;
    MPI_Datatype t = TO_TYPE(type);
    MPI_Op o = TO_OP(op);
    MPI_Comm c = TO_COMM(comm);
    arg_huge(&b[0], count, t);
    arg_huge(&b[1], count, t);
#if defined(OPEN_MPI)
    if (!nb && in_aliasing_window(b) && (all || rank_of(c) == root)) copy_then_in_place(b, count, t, c);
#endif
    int rc;
    if (all) {
        rc = nb ? MPI_Iallreduce(b[0].ptr, b[1].ptr, count, t, o, c, &r)
                : MPI_Allreduce(b[0].ptr, b[1].ptr, count, t, o, c);
    } else if (nb) {
        rc = MPI_Ireduce(b[0].ptr, b[1].ptr, count, t, o, root, c, &r);
    } else {
#if defined(MPICH)
        void *copy = mpich_reduce_in_place_copy(b, count, t, c, root, &rc);
        if (rc == MPI_SUCCESS) rc = MPI_Reduce(b[0].ptr, b[1].ptr, count, t, o, root, c);
        free(copy);
#else
        rc = MPI_Reduce(b[0].ptr, b[1].ptr, count, t, o, root, c);
#endif
    }
    ubuf_release(env, b, 2, 1);
    return finish(env, rc, r, all ? "MPI_Allreduce" : "MPI_Reduce");
}

JNIEXPORT jlong JNICALL JNI_FN(coll0)(JNIEnv *env, jclass cls, jint kind, jlong comm, jobject sbuf, jint smode,
                                      jlong soff, jint scount, jlong stype, jobject rbuf, jint rmode, jlong roff,
                                      jint rcount, jlong rtype, jint root, jboolean nb) {
    (void)cls;
    root = root_in(root); /* MPI_ROOT, MPI_PROC_NULL: intercommunicators (issue 10) */
    ubuf b[2];
    MPI_Request r = MPI_REQUEST_NULL;
    arg_buf(&b[0], sbuf, smode, soff);
    arg_buf(&b[1], rbuf, rmode, roff);
    if (ubuf_acquire(env, b, 2) != 0) return 0;
    void *sp = b[0].ptr, *rp = b[1].ptr;
    MPI_Datatype st = TO_TYPE(stype), rt = TO_TYPE(rtype);
    MPI_Comm c = TO_COMM(comm);
    int rc;
    const char *call;
    switch (kind) {
        case K_GATHER:
            call = "MPI_Gather";
            rc = nb ? MPI_Igather(sp, scount, st, rp, rcount, rt, root, c, &r)
                    : MPI_Gather(sp, scount, st, rp, rcount, rt, root, c);
            break;
        case K_SCATTER:
            call = "MPI_Scatter";
            rc = nb ? MPI_Iscatter(sp, scount, st, rp, rcount, rt, root, c, &r)
                    : MPI_Scatter(sp, scount, st, rp, rcount, rt, root, c);
            break;
        case K_ALLGATHER:
            call = "MPI_Allgather";
            rc = nb ? MPI_Iallgather(sp, scount, st, rp, rcount, rt, c, &r)
                    : MPI_Allgather(sp, scount, st, rp, rcount, rt, c);
            break;
        default:
            call = "MPI_Alltoall";
            rc = nb ? MPI_Ialltoall(sp, scount, st, rp, rcount, rt, c, &r)
                    : MPI_Alltoall(sp, scount, st, rp, rcount, rt, c);
    }
    ubuf_release(env, b, 2, 1);
    return finish(env, rc, r, call);
}

/*
 * MPICH 4.0 puts the block of a one-rank MPI_Allgatherv at offset 0 whatever its displacement
 * (a silent wrong result; MpiSuitesTest's vVariants at np 1 under MPICH). With one rank the
 * operation is a gatherv to rank 0, which MPICH gets right, so that is called instead.
 */
static int single_rank_allgatherv_is_broken(MPI_Comm c, const void *sendbuf) {
    if (MPI4J_FAMILY_IS_OMPI || sendbuf == MPI_IN_PLACE) return 0;
    int inter = 1, size = 0;
    MPI_Comm_test_inter(c, &inter);
    MPI_Comm_size(c, &size);
    return !inter && size == 1;
}

/* Counts and displacements arrive as direct IntBuffers (or null where not significant). */
static int *ints(JNIEnv *env, jobject buf) {
    return buf == NULL ? NULL : (int *)(*env)->GetDirectBufferAddress(env, buf);
}

JNIEXPORT jlong JNICALL JNI_FN(vcoll0)(JNIEnv *env, jclass cls, jint kind, jlong comm, jobject sbuf, jint smode,
                                       jlong soff, jint scount, jobject scounts, jobject sdispls, jlong stype,
                                       jobject rbuf, jint rmode, jlong roff, jint rcount, jobject rcounts,
                                       jobject rdispls, jlong rtype, jint root, jboolean nb) {
    (void)cls;
    root = root_in(root); /* MPI_ROOT, MPI_PROC_NULL: intercommunicators (issue 10) */
    int *sc = ints(env, scounts), *sd = ints(env, sdispls), *rc_ = ints(env, rcounts), *rd = ints(env, rdispls);
    ubuf b[2];
    MPI_Request r = MPI_REQUEST_NULL;
    arg_buf(&b[0], sbuf, smode, soff);
    arg_buf(&b[1], rbuf, rmode, roff);
    if (ubuf_acquire(env, b, 2) != 0) return 0;
    void *sp = b[0].ptr, *rp = b[1].ptr;
    MPI_Datatype st = TO_TYPE(stype), rt = TO_TYPE(rtype);
    MPI_Comm c = TO_COMM(comm);
    int rc;
    const char *call;
    switch (kind) {
        case K_GATHER:
            call = "MPI_Gatherv";
            rc = nb ? MPI_Igatherv(sp, scount, st, rp, rc_, rd, rt, root, c, &r)
                    : MPI_Gatherv(sp, scount, st, rp, rc_, rd, rt, root, c);
            break;
        case K_SCATTER:
            call = "MPI_Scatterv";
            rc = nb ? MPI_Iscatterv(sp, sc, sd, st, rp, rcount, rt, root, c, &r)
                    : MPI_Scatterv(sp, sc, sd, st, rp, rcount, rt, root, c);
            break;
        case K_ALLGATHER:
            call = "MPI_Allgatherv";
            if (single_rank_allgatherv_is_broken(c, sp)) {
                rc = nb ? MPI_Igatherv(sp, scount, st, rp, rc_, rd, rt, 0, c, &r)
                        : MPI_Gatherv(sp, scount, st, rp, rc_, rd, rt, 0, c);
            } else {
                rc = nb ? MPI_Iallgatherv(sp, scount, st, rp, rc_, rd, rt, c, &r)
                        : MPI_Allgatherv(sp, scount, st, rp, rc_, rd, rt, c);
            }
            break;
        default:
            call = "MPI_Alltoallv";
            rc = nb ? MPI_Ialltoallv(sp, sc, sd, st, rp, rc_, rd, rt, c, &r)
                    : MPI_Alltoallv(sp, sc, sd, st, rp, rc_, rd, rt, c);
    }
    ubuf_release(env, b, 2, 1);
    return finish(env, rc, r, call);
}

JNIEXPORT jlong JNICALL JNI_FN(reduceScatter0)(JNIEnv *env, jclass cls, jlong comm, jobject sbuf, jint smode,
                                               jlong soff, jobject rbuf, jint rmode, jlong roff, jobject rcounts,
                                               jint rcount, jlong type, jlong op, jboolean block, jboolean nb) {
    (void)cls;
    int *counts = ints(env, rcounts);
    ubuf b[2];
    MPI_Request r = MPI_REQUEST_NULL;
    arg_buf(&b[0], sbuf, smode, soff);
    arg_buf(&b[1], rbuf, rmode, roff);
    if (ubuf_acquire(env, b, 2) != 0) return 0;
    MPI_Datatype t = TO_TYPE(type);
    MPI_Op o = TO_OP(op);
    MPI_Comm c = TO_COMM(comm);
    int rc;
    if (block) {
        rc = nb ? MPI_Ireduce_scatter_block(b[0].ptr, b[1].ptr, rcount, t, o, c, &r)
                : MPI_Reduce_scatter_block(b[0].ptr, b[1].ptr, rcount, t, o, c);
    } else {
        rc = nb ? MPI_Ireduce_scatter(b[0].ptr, b[1].ptr, counts, t, o, c, &r)
                : MPI_Reduce_scatter(b[0].ptr, b[1].ptr, counts, t, o, c);
    }
    ubuf_release(env, b, 2, 1);
    return finish(env, rc, r, block ? "MPI_Reduce_scatter_block" : "MPI_Reduce_scatter");
}

JNIEXPORT jlong JNICALL JNI_FN(scan0)(JNIEnv *env, jclass cls, jlong comm, jobject sbuf, jint smode, jlong soff,
                                      jobject rbuf, jint rmode, jlong roff, jint count, jlong type, jlong op,
                                      jboolean exclusive, jboolean nb) {
    (void)cls;
    ubuf b[2];
    MPI_Request r = MPI_REQUEST_NULL;
    arg_buf(&b[0], sbuf, smode, soff);
    arg_buf(&b[1], rbuf, rmode, roff);
    if (ubuf_acquire(env, b, 2) != 0) return 0;
    MPI_Datatype t = TO_TYPE(type);
    MPI_Op o = TO_OP(op);
    MPI_Comm c = TO_COMM(comm);
    arg_huge(&b[0], count, t);
    arg_huge(&b[1], count, t);
#if defined(OPEN_MPI)
    /* Not for exscan: measured in Java at np 2, its in-place form took 4.0-4.7 ms against 2.9
     * (the last rank reduces nothing, and in place it copies more), and at rank 0 it would
     * overwrite the receive buffer that mpi4j leaves as it was. Blocking only (see above). */
    if (!nb && !exclusive && in_aliasing_window(b)) copy_then_in_place(b, count, t, c);
#endif
    int rc;
    if (exclusive) {
        rc = nb ? MPI_Iexscan(b[0].ptr, b[1].ptr, count, t, o, c, &r) : MPI_Exscan(b[0].ptr, b[1].ptr, count, t, o, c);
    } else {
        rc = nb ? MPI_Iscan(b[0].ptr, b[1].ptr, count, t, o, c, &r) : MPI_Scan(b[0].ptr, b[1].ptr, count, t, o, c);
    }
    ubuf_release(env, b, 2, 1);
    return finish(env, rc, r, exclusive ? "MPI_Exscan" : "MPI_Scan");
}
