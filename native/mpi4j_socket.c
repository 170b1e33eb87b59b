/* Socket reads and writes straight from Java arrays, for the fabric's TCP transport
 * (ArraySocketIo): without them an array's bytes go through a staging buffer, one more copy
 * of every byte. Part of libmpi4j_dl (no MPI needed). The array is pinned for the one
 * non-blocking read or write alone: the socket is non-blocking, so the call never waits for
 * another thread. Java has checked every range against its array. */
#include <errno.h>
#include <jni.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "mpi4j_io_errors.h"

#include "io_github_mpi4j_fabric_transport_ArraySocketIo.h"

/* The descriptor of a JDK SocketChannel: its private int field "fdVal" (JDK 11 to 21). JNI
 * reads it without the module checks that keep Java code out; -1 where the field is absent. */
JNIEXPORT jint JNICALL Java_io_github_mpi4j_fabric_transport_ArraySocketIo_fdOf0(JNIEnv *env, jclass cls,
                                                                               jobject channel) {
    (void)cls;
    jclass impl = (*env)->GetObjectClass(env, channel);
    jfieldID field = (*env)->GetFieldID(env, impl, "fdVal", "I");
    if (field == NULL) {
        (*env)->ExceptionClear(env);
        return -1;
    }
    return (*env)->GetIntField(env, channel, field);
}

/* What a non-blocking call's result means to Java: the bytes moved; 0 when the socket had no
 * room or nothing waiting (or a signal came); an IOException for anything else. */
static jint moved(JNIEnv *env, ssize_t done, int err, const char *what) {
    if (done >= 0) return (jint)done;
    if (err == EAGAIN || err == EWOULDBLOCK || err == EINTR) return 0;
    mpi4j_throw_io(env, what, err);
    return 0;
}

/* Bytes written; 0 when the socket is full; throws IOException on an error. */
JNIEXPORT jint JNICALL Java_io_github_mpi4j_fabric_transport_ArraySocketIo_write0(JNIEnv *env, jclass cls, jint fd,
                                                                                jobject array, jlong at, jint n) {
    (void)cls;
    char *a = (*env)->GetPrimitiveArrayCritical(env, (jarray)array, NULL);
    if (a == NULL) return 0; /* out of memory: an exception is pending */
    ssize_t done = write(fd, a + at, (size_t)n);
    int err = errno;
    (*env)->ReleasePrimitiveArrayCritical(env, (jarray)array, a, JNI_ABORT);
    return moved(env, done, err, "write");
}

/* A frame's header (from a direct buffer) and payload (from an array) in one writev: one
 * segment for a message that fits, no copy. Bytes written in all; 0 when the socket is full. */
JNIEXPORT jint JNICALL Java_io_github_mpi4j_fabric_transport_ArraySocketIo_writev0(JNIEnv *env, jclass cls, jint fd,
                                                                                 jobject head, jint head_at,
                                                                                 jint head_len, jobject array,
                                                                                 jlong at, jint n) {
    (void)cls;
    char *h = (*env)->GetDirectBufferAddress(env, head);
    if (h == NULL) return 0; /* Java passes a direct buffer */
    char *a = (*env)->GetPrimitiveArrayCritical(env, (jarray)array, NULL);
    if (a == NULL) return 0; /* out of memory: an exception is pending */
    struct iovec parts[2] = {{h + head_at, (size_t)head_len}, {a + at, (size_t)n}};
    ssize_t done = writev(fd, parts, 2);
    int err = errno;
    (*env)->ReleasePrimitiveArrayCritical(env, (jarray)array, a, JNI_ABORT);
    return moved(env, done, err, "writev");
}

/* Bytes read; 0 when nothing is waiting; -1 at the end of the stream; throws IOException on an error. */
JNIEXPORT jint JNICALL Java_io_github_mpi4j_fabric_transport_ArraySocketIo_read0(JNIEnv *env, jclass cls, jint fd,
                                                                               jobject array, jlong at, jint n) {
    (void)cls;
    char *a = (*env)->GetPrimitiveArrayCritical(env, (jarray)array, NULL);
    if (a == NULL) return 0; /* out of memory: an exception is pending */
    ssize_t done = read(fd, a + at, (size_t)n);
    int err = errno;
    (*env)->ReleasePrimitiveArrayCritical(env, (jarray)array, a, 0);
    if (done == 0 && n > 0) return -1; /* the peer closed the connection */
    return moved(env, done, err, "read");
}
