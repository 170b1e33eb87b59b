/* Single-copy transfers between processes of one node (ProcessCopy): the receiver reads the
 * sender's memory with process_vm_readv (Linux "cross-memory attach"), so a large message is
 * copied once instead of into a shared-memory ring and out again. Java has checked the local
 * range against its array or buffer; the remote range is the peer's to get right: the kernel
 * refuses addresses the peer has not mapped (EFAULT), and a peer may only hand over its own
 * memory. Part of libmpi4j_dl: no MPI needed. */
#define _GNU_SOURCE
#include <errno.h>
#include <jni.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/uio.h>

#include "io_github_mpi4j_buffer_ProcessCopy.h"

/* Reads n bytes at remote in process pid into local; returns n, or -errno of the first failure
 * (a read that makes no progress counts as EFAULT). */
static jlong read_all(pid_t pid, char *local, uintptr_t remote, size_t n) {
    size_t done = 0;
    while (done < n) {
        struct iovec l = {local + done, n - done};
        struct iovec r = {(void *)(remote + done), n - done};
        ssize_t got = process_vm_readv(pid, &l, 1, &r, 1, 0);
        if (got < 0) {
            if (errno == EINTR) continue;
            return -(jlong)errno;
        }
        if (got == 0) return -(jlong)EFAULT;
        done += (size_t)got;
    }
    return (jlong)n;
}

JNIEXPORT jlong JNICALL Java_io_github_mpi4j_buffer_ProcessCopy_readIntoBuffer0(JNIEnv *env, jclass cls, jint pid,
                                                                                jlong remote, jobject buffer,
                                                                                jlong at, jlong n) {
    (void)cls;
    char *b = (*env)->GetDirectBufferAddress(env, buffer);
    if (b == NULL) return -(jlong)EINVAL; /* Java passes direct buffers only */
    return read_all((pid_t)pid, b + at, (uintptr_t)remote, (size_t)n);
}

JNIEXPORT jlong JNICALL Java_io_github_mpi4j_buffer_ProcessCopy_readIntoArray0(JNIEnv *env, jclass cls, jint pid,
                                                                               jlong remote, jobject array,
                                                                               jlong at, jlong n) {
    (void)cls;
    /* Pinned for the system call alone: nothing here calls back into Java or waits for a peer. */
    char *a = (*env)->GetPrimitiveArrayCritical(env, (jarray)array, NULL);
    if (a == NULL) return -(jlong)ENOMEM; /* an OutOfMemoryError is pending */
    jlong r = read_all((pid_t)pid, a + at, (uintptr_t)remote, (size_t)n);
    (*env)->ReleasePrimitiveArrayCritical(env, (jarray)array, a, 0);
    return r;
}
