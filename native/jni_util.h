/* Small JNI utilities shared by mpi4j's native libraries: the MPIException class (cached),
 * one throw helper, and access to user buffers (arrays pinned, direct buffers by address). */
#ifndef MPI4J_JNI_UTIL_H
#define MPI4J_JNI_UTIL_H

#include <jni.h>
#include <stdint.h>

/* How a buffer argument is passed from Java (see MpiComm.java). */
enum { BUF_ARRAY = 0, BUF_DIRECT = 1, BUF_IN_PLACE = 2, BUF_NONE = 3, BUF_RAW = 4 };

typedef struct {
    jobject obj;   /* the array or direct buffer */
    int mode;      /* BUF_* */
    jlong offset;  /* byte offset from the start of obj */
    void *base;    /* pinned array or buffer address */
    void *ptr;     /* base + offset, or a marker for IN_PLACE / NULL */
} ubuf;

/* Caches mpi.MPIException's class and constructor (JNI_OnLoad, first of all concerns); returns
 * 0, or -1 with nothing held. */
int jni_util_on_load(JNIEnv *env);
void jni_util_on_unload(JNIEnv *env);

/* Throws mpi.MPIException(code, klass, message); never call with an exception pending. */
void throw_mpi(JNIEnv *env, int code, int klass, const char *message);
/* Throws an mpi.MPIException with class ERR_OTHER. */
void throw_other(JNIEnv *env, const char *message);

/* Fill ubuf fields; pins nothing yet. */
void ubuf_init(ubuf *b, jobject obj, int mode, jlong offset);
/* Resolves every buffer: direct addresses first, then array criticals (no JNI calls may follow
 * a critical). Returns 0 on success; on failure nothing is held and an exception is pending. */
int ubuf_acquire(JNIEnv *env, ubuf *bufs, int n);
/* Releases pinned arrays; commit != 0 copies back (HotSpot pins, so it is only a formality). */
void ubuf_release(JNIEnv *env, ubuf *bufs, int n, int commit);

#endif
