/* The IOException that libmpi4j_dl's socket and file calls throw for a failed system call. */
#ifndef MPI4J_IO_ERRORS_H
#define MPI4J_IO_ERRORS_H

#include <jni.h>

/* Throws java.io.IOException("<what>: <strerror(err)>"); never call with an exception pending. */
void mpi4j_throw_io(JNIEnv *env, const char *what, int err);

#endif
