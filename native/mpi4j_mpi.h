/* Shared declarations of the MPI bridge (libmpi4j_mpi_ompi / libmpi4j_mpi_mpich): its concerns
 * and what one concern offers the others. */
#ifndef MPI4J_MPI_H
#define MPI4J_MPI_H

#include <jni.h>
#include <mpi.h>
#include <stdint.h>

#include "jni_util.h"
#include "mpi4j_huge_pages.h"

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
/* Roots of collectives: MPI_ROOT and MPI_PROC_NULL on intercommunicators (issue 10). */
#define J_ROOT (-4)
static inline int root_in(jint r) {
    return r == J_ROOT ? MPI_ROOT : r == J_PROC_NULL ? MPI_PROC_NULL : (int)r;
}

/* ---- the bridge's concerns ------------------------------------------------------------------
 * One C file per concern. Each defines <name>_on_load (caches its class, method and field IDs
 * and global refs; returns 0, or -1 on failure, undoing its own partial work) and
 * <name>_on_unload (releases them). JNI_OnLoad (mpi4j_mpi.c) runs the on-loads in this order and,
 * when one fails, the on-unloads of those before it in reverse; JNI_OnUnload runs them all in
 * reverse. Adding a concern: its file (also listed in native/CMakeLists.txt) and its name here. */
#define MPI4J_MPI_CONCERNS(X) \
    X(jni_util)               \
    X(init)                   \
    X(errors)                 \
    X(buffers)                \
    X(handles)                \
    X(ops)                    \
    X(comm)                   \
    X(p2p)                    \
    X(coll)                   \
    X(inter)

#define MPI4J_DECLARE_CONCERN(name)     \
    int name##_on_load(JNIEnv *env);    \
    void name##_on_unload(JNIEnv *env);
MPI4J_MPI_CONCERNS(MPI4J_DECLARE_CONCERN)

/* The JVM, for MPI's callbacks into Java (set by JNI_OnLoad before any concern loads). */
extern JavaVM *g_vm;

/* ---- errors (mpi4j_mpi_errors.c) ---- */

/* The mpi.MPI error class of this MPI's error class klass. */
int java_error_class(int klass);

/* Throws the MPIException of return code rc (after any critical region is closed). Returns
 * nonzero when rc is an error. */
int mpi_failed(JNIEnv *env, int rc, const char *call);

/* ---- buffers (mpi4j_mpi_buffers.c) ---- */

/* Resolve a buffer argument: ubuf_init plus the IN_PLACE / NULL markers. */
void arg_buf(ubuf *b, jobject obj, jint mode, jlong off);
/* After ubuf_acquire: a pinned array that holds count elements of type gets huge pages when it
 * is large (mpi4j_huge_pages.c); anything else is left alone. */
void arg_huge(const ubuf *b, jlong count, MPI_Datatype type);

/* ---- predefined handles (mpi4j_mpi_handles.c) ---- */

/* The datatypes and ops mpi4j makes itself, right after MPI_Init and before MPI_Finalize.
 * handles_create returns an MPI return code. */
int handles_create(void);
void handles_free(void);

/* ---- ops (mpi4j_mpi_ops.c) ---- */

/* mpi4j's own reduction ops: MINLOC and MAXLOC over (value, index) pairs of short, int64,
 * float and double (OWN_OP_LOC + 2 * pair + 0 / 1), and SUMs that wrap like Java for int8, int16
 * and uint16 (OWN_OP_WRAP_SUM + 0..2), whose MPI ops may saturate. */
enum { OWN_OP_LOC = 0, OWN_OP_WRAP_SUM = 8, OWN_OPS = 11 };
int own_ops_create(void); /* an MPI return code */
void own_ops_free(void);
MPI_Op own_op(int i);

#endif
