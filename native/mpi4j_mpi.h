/* Shared declarations of the MPI bridge (libmpi4j_mpi_ompi / libmpi4j_mpi_mpich). */
#ifndef MPI4J_MPI_H
#define MPI4J_MPI_H

#include <jni.h>
#include <mpi.h>
#include <stdint.h>

#include "jni_util.h"

/*
 * Ties a C constant to the Java constant of the same meaning that javac -h wrote into
 * io_github_mpi4j_backend_mpi_MpiNative.h (include it first): a mismatch fails the build.
 */
#define MPI4J_PIN(c, java) \
    _Static_assert((c) == io_github_mpi4j_backend_mpi_MpiNative_##java, #c " must equal MpiNative." #java)

/* Each ABI family gets its own build of these sources (native/CMakeLists.txt); make sure the
 * mpi.h found is the family's. */
#if defined(MPI4J_FAMILY_OMPI)
#ifndef OPEN_MPI
#error "MPI4J_FAMILY_OMPI but this mpi.h is not Open MPI's"
#endif
#define MPI4J_FAMILY_IS_OMPI 1
#elif defined(MPI4J_FAMILY_MPICH)
#ifndef MPICH_VERSION
#error "MPI4J_FAMILY_MPICH but this mpi.h is not from the MPICH family"
#endif
#define MPI4J_FAMILY_IS_OMPI 0
#else
#error "define MPI4J_FAMILY_OMPI or MPI4J_FAMILY_MPICH"
#endif

/* Handles travel through Java as longs; Open MPI's are pointers, the MPICH family's are ints
 * (sign-extended into the long and truncated back, so every value round-trips). */
#define TO_COMM(h) ((MPI_Comm)(intptr_t)(h))
#define TO_TYPE(h) ((MPI_Datatype)(intptr_t)(h))
#define TO_OP(h) ((MPI_Op)(intptr_t)(h))
#define TO_REQ(h) ((h) == 0 ? MPI_REQUEST_NULL : (MPI_Request)(intptr_t)(h))
#define FROM_HANDLE(x) ((jlong)(intptr_t)(x))
#define FROM_REQ(r) ((r) == MPI_REQUEST_NULL ? (jlong)0 : (jlong)(intptr_t)(r))

/* Java's values of the special ranks and tags (mpi.MPI); translated so any MPI works. */
#define J_ANY_SOURCE (-1)
#define J_ANY_TAG (-1)
#define J_PROC_NULL (-2)
#define J_UNDEFINED (-32766)
#define J_ERR_NO_MEM 39 /* mpi.MPI.ERR_NO_MEM */

static inline int rank_in(jint r) {
    return r == J_ANY_SOURCE ? MPI_ANY_SOURCE : r == J_PROC_NULL ? MPI_PROC_NULL : (int)r;
}
static inline int tag_in(jint t) {
    return t == J_ANY_TAG ? MPI_ANY_TAG : (int)t;
}

/* The mpi.MPI error class of this MPI's error class klass (mpi4j_mpi_errors.c). */
int java_error_class(int klass);

/* Throws the MPIException of return code rc (after any critical region is closed). Returns
 * nonzero when rc is an error. */
int mpi_failed(JNIEnv *env, int rc, const char *call);

/* Copies an MPI_Status into an io.github.mpi4j.spi.StatusData (status may be NULL). */
void set_status(JNIEnv *env, jobject status, MPI_Status *s);

/* Resolve a buffer argument: ubuf_init plus the IN_PLACE / NULL markers. */
void arg_buf(ubuf *b, jobject obj, jint mode, jlong off);

/* Called from JNI_OnLoad / the user-op module. */
extern JavaVM *g_vm;
int user_ops_init(JNIEnv *env);

#endif
