/* Process topologies and neighbour collectives (issue 10): MPI_Cart_create, MPI_Graph_create,
 * MPI_Dist_graph_create_adjacent, the degrees of a topology, and MPI_(I)Neighbor_*. The Java
 * side (MpiTopology) has checked every argument and stages arrays in direct memory. */
#include "mpi4j_mpi.h"

#include <stdlib.h>

#include "io_github_mpi4j_backend_mpi_MpiTopoNative.h"

#define JNI_FN(name) Java_io_github_mpi4j_backend_mpi_MpiTopoNative_##name

enum { K_ALLGATHER, K_ALLTOALL };
_Static_assert(K_ALLGATHER == io_github_mpi4j_backend_mpi_MpiTopoNative_ALLGATHER, "MpiTopoNative.ALLGATHER");
_Static_assert(K_ALLTOALL == io_github_mpi4j_backend_mpi_MpiTopoNative_ALLTOALL, "MpiTopoNative.ALLTOALL");

/* A Java int[] copied into malloc'ed memory (at least one int, so that empty arrays are not NULL). */
static int *copy_ints(JNIEnv *env, jintArray a, jsize *n) {
    jsize len = a == NULL ? 0 : (*env)->GetArrayLength(env, a);
    int *c = malloc(sizeof(int) * (size_t)(len > 0 ? len : 1));
    if (c == NULL) {
        throw_other(env, "mpi4j topology: out of memory");
        return NULL;
    }
    if (len > 0) (*env)->GetIntArrayRegion(env, a, 0, len, (jint *)c);
    if (n != NULL) *n = len;
    return c;
}

static jlong new_comm(JNIEnv *env, int rc, MPI_Comm c, const char *call) {
    if (mpi_failed(env, rc, call)) return 0;
    if (c == MPI_COMM_NULL) return 0;
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    return FROM_HANDLE(c);
}

JNIEXPORT jlong JNICALL JNI_FN(cartCreate0)(JNIEnv *env, jclass cls, jlong comm, jintArray dims,
                                            jbooleanArray periods, jboolean reorder) {
    (void)cls;
    jsize n = 0;
    int *d = copy_ints(env, dims, &n);
    if (d == NULL) return 0;
    int *p = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    if (p == NULL) {
        free(d);
        throw_other(env, "MPI_Cart_create: out of memory");
        return 0;
    }
    jboolean *jp = n > 0 ? (*env)->GetBooleanArrayElements(env, periods, NULL) : NULL;
    if (n > 0 && jp == NULL) {
        free(d);
        free(p);
        return 0; /* OutOfMemoryError pending */
    }
    for (jsize i = 0; i < n; i++) p[i] = jp[i] ? 1 : 0;
    if (jp != NULL) (*env)->ReleaseBooleanArrayElements(env, periods, jp, JNI_ABORT);
    MPI_Comm c = MPI_COMM_NULL;
    int rc = MPI_Cart_create(TO_COMM(comm), (int)n, d, p, reorder ? 1 : 0, &c);
    free(d);
    free(p);
    return new_comm(env, rc, c, "MPI_Cart_create");
}

JNIEXPORT jlong JNICALL JNI_FN(graphCreate0)(JNIEnv *env, jclass cls, jlong comm, jintArray index, jintArray edges,
                                             jboolean reorder) {
    (void)cls;
    jsize n = 0;
    int *ix = copy_ints(env, index, &n);
    if (ix == NULL) return 0;
    int *ed = copy_ints(env, edges, NULL);
    if (ed == NULL) {
        free(ix);
        return 0;
    }
    MPI_Comm c = MPI_COMM_NULL;
    int rc = MPI_Graph_create(TO_COMM(comm), (int)n, ix, ed, reorder ? 1 : 0, &c);
    free(ix);
    free(ed);
    return new_comm(env, rc, c, "MPI_Graph_create");
}

JNIEXPORT jlong JNICALL JNI_FN(distGraphCreateAdjacent0)(JNIEnv *env, jclass cls, jlong comm, jintArray sources,
                                                         jintArray sweights, jintArray destinations,
                                                         jintArray dweights, jboolean reorder) {
    (void)cls;
    jsize in = 0, out = 0;
    int *src = copy_ints(env, sources, &in);
    int *dst = src == NULL ? NULL : copy_ints(env, destinations, &out);
    int *sw = NULL, *dw = NULL;
    int weighted = sweights != NULL;
    if (dst != NULL && weighted) {
        sw = copy_ints(env, sweights, NULL);
        dw = sw == NULL ? NULL : copy_ints(env, dweights, NULL);
    }
    jlong result = 0;
    if (dst != NULL && (!weighted || dw != NULL)) {
        MPI_Comm c = MPI_COMM_NULL;
        int rc = MPI_Dist_graph_create_adjacent(TO_COMM(comm), (int)in, src, weighted ? sw : MPI_UNWEIGHTED, (int)out,
                                                dst, weighted ? dw : MPI_UNWEIGHTED, MPI_INFO_NULL, reorder ? 1 : 0,
                                                &c);
        result = new_comm(env, rc, c, "MPI_Dist_graph_create_adjacent");
    }
    free(src);
    free(dst);
    free(sw);
    free(dw);
    return result;
}

JNIEXPORT jintArray JNICALL JNI_FN(degrees0)(JNIEnv *env, jclass cls, jlong comm) {
    (void)cls;
    MPI_Comm c = TO_COMM(comm);
    int kind = MPI_UNDEFINED, in = 0, out = 0, rc = MPI_Topo_test(c, &kind);
    if (mpi_failed(env, rc, "MPI_Topo_test")) return NULL;
    if (kind == MPI_CART) {
        rc = MPI_Cartdim_get(c, &in);
        in *= 2;
        out = in;
    } else if (kind == MPI_GRAPH) {
        int rank = 0;
        MPI_Comm_rank(c, &rank);
        rc = MPI_Graph_neighbors_count(c, rank, &in);
        out = in;
    } else if (kind == MPI_DIST_GRAPH) {
        int weighted = 0;
        rc = MPI_Dist_graph_neighbors_count(c, &in, &out, &weighted);
    }
    if (mpi_failed(env, rc, "MPI topology degrees")) return NULL;
    jintArray a = (*env)->NewIntArray(env, 2);
    if (a == NULL) return NULL;
    jint d[2] = {in, out};
    (*env)->SetIntArrayRegion(env, a, 0, 2, d);
    return a;
}

static jlong finish(JNIEnv *env, int rc, MPI_Request r, const char *call) {
    if (mpi_failed(env, rc, call)) return 0;
    return FROM_REQ(r);
}

JNIEXPORT jlong JNICALL JNI_FN(neighbor0)(JNIEnv *env, jclass cls, jint kind, jlong comm, jobject sbuf, jint smode,
                                          jlong soff, jint scount, jlong stype, jobject rbuf, jint rmode, jlong roff,
                                          jint rcount, jlong rtype, jboolean nb) {
    (void)cls;
    ubuf b[2];
    MPI_Request r = MPI_REQUEST_NULL;
    arg_buf(&b[0], sbuf, smode, soff);
    arg_buf(&b[1], rbuf, rmode, roff);
    if (ubuf_acquire(env, b, 2) != 0) return 0;
    MPI_Datatype st = TO_TYPE(stype), rt = TO_TYPE(rtype);
    MPI_Comm c = TO_COMM(comm);
    int rc;
    const char *call;
    if (kind == K_ALLGATHER) {
        call = "MPI_Neighbor_allgather";
        rc = nb ? MPI_Ineighbor_allgather(b[0].ptr, scount, st, b[1].ptr, rcount, rt, c, &r)
                : MPI_Neighbor_allgather(b[0].ptr, scount, st, b[1].ptr, rcount, rt, c);
    } else {
        call = "MPI_Neighbor_alltoall";
        rc = nb ? MPI_Ineighbor_alltoall(b[0].ptr, scount, st, b[1].ptr, rcount, rt, c, &r)
                : MPI_Neighbor_alltoall(b[0].ptr, scount, st, b[1].ptr, rcount, rt, c);
    }
    ubuf_release(env, b, 2, 1);
    return finish(env, rc, r, call);
}

static int *ints(JNIEnv *env, jobject buf) {
    return buf == NULL ? NULL : (int *)(*env)->GetDirectBufferAddress(env, buf);
}

JNIEXPORT jlong JNICALL JNI_FN(neighborv0)(JNIEnv *env, jclass cls, jint kind, jlong comm, jobject sbuf, jint smode,
                                           jlong soff, jint scount, jobject scounts, jobject sdispls, jlong stype,
                                           jobject rbuf, jint rmode, jlong roff, jobject rcounts, jobject rdispls,
                                           jlong rtype, jboolean nb) {
    (void)cls;
    int *sc = ints(env, scounts), *sd = ints(env, sdispls), *rc_ = ints(env, rcounts), *rd = ints(env, rdispls);
    ubuf b[2];
    MPI_Request r = MPI_REQUEST_NULL;
    arg_buf(&b[0], sbuf, smode, soff);
    arg_buf(&b[1], rbuf, rmode, roff);
    if (ubuf_acquire(env, b, 2) != 0) return 0;
    MPI_Datatype st = TO_TYPE(stype), rt = TO_TYPE(rtype);
    MPI_Comm c = TO_COMM(comm);
    int rc;
    const char *call;
    if (kind == K_ALLGATHER) {
        call = "MPI_Neighbor_allgatherv";
        rc = nb ? MPI_Ineighbor_allgatherv(b[0].ptr, scount, st, b[1].ptr, rc_, rd, rt, c, &r)
                : MPI_Neighbor_allgatherv(b[0].ptr, scount, st, b[1].ptr, rc_, rd, rt, c);
    } else {
        call = "MPI_Neighbor_alltoallv";
        rc = nb ? MPI_Ineighbor_alltoallv(b[0].ptr, sc, sd, st, b[1].ptr, rc_, rd, rt, c, &r)
                : MPI_Neighbor_alltoallv(b[0].ptr, sc, sd, st, b[1].ptr, rc_, rd, rt, c);
    }
    ubuf_release(env, b, 2, 1);
    return finish(env, rc, r, call);
}
