/* Collective operations, blocking and non-blocking (nb). Blocking calls may pin Java arrays for
 * their duration; non-blocking ones receive direct memory only (Java stages arrays). */
#include "mpi4j_mpi.h"

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
    int rc = nb ? MPI_Ibcast(b.ptr, count, TO_TYPE(type), root, TO_COMM(comm), &r)
                : MPI_Bcast(b.ptr, count, TO_TYPE(type), root, TO_COMM(comm));
    ubuf_release(env, &b, 1, 1);
    return finish(env, rc, r, nb ? "MPI_Ibcast" : "MPI_Bcast");
}

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
    int rc;
    if (all) {
        rc = nb ? MPI_Iallreduce(b[0].ptr, b[1].ptr, count, t, o, c, &r)
                : MPI_Allreduce(b[0].ptr, b[1].ptr, count, t, o, c);
    } else {
        rc = nb ? MPI_Ireduce(b[0].ptr, b[1].ptr, count, t, o, root, c, &r)
                : MPI_Reduce(b[0].ptr, b[1].ptr, count, t, o, root, c);
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
    int rc;
    if (exclusive) {
        rc = nb ? MPI_Iexscan(b[0].ptr, b[1].ptr, count, t, o, c, &r) : MPI_Exscan(b[0].ptr, b[1].ptr, count, t, o, c);
    } else {
        rc = nb ? MPI_Iscan(b[0].ptr, b[1].ptr, count, t, o, c, &r) : MPI_Scan(b[0].ptr, b[1].ptr, count, t, o, c);
    }
    ubuf_release(env, b, 2, 1);
    return finish(env, rc, r, exclusive ? "MPI_Exscan" : "MPI_Scan");
}
