/* Positional file I/O of a view's runs for the fabric's MPI-IO (fileio.NativeFileIo): one JNI
 * call does every pwrite or pread of an access, in C. Through FileChannel each run is tens of
 * microseconds of Java until the JIT has compiled the JDK's I/O path, and a collective file
 * access is called far too rarely for that to happen; a heap array also crosses a temporary
 * direct buffer there. Part of libmpi4j_dl (no MPI needed). Java has checked every range
 * against its buffer; an array is pinned for one run at a time. */
#include <errno.h>
#include <jni.h>
#include <string.h>
#include <unistd.h>

#include "mpi4j_io_errors.h"

#include "io_github_mpi4j_fileio_NativeFileIo.h"

/* The descriptor of a JDK FileChannel: its private FileDescriptor field "fd" and that object's
 * int field "fd" (JDK 11 to 21). JNI reads them without the module checks that keep Java code
 * out; -1 where either is absent. */
JNIEXPORT jint JNICALL Java_io_github_mpi4j_fileio_NativeFileIo_fdOf0(JNIEnv *env, jclass cls, jobject channel) {
    (void)cls;
    jclass impl = (*env)->GetObjectClass(env, channel);
    jfieldID holder = (*env)->GetFieldID(env, impl, "fd", "Ljava/io/FileDescriptor;");
    if (holder == NULL) {
        (*env)->ExceptionClear(env);
        return -1;
    }
    jobject descriptor = (*env)->GetObjectField(env, channel, holder);
    if (descriptor == NULL) return -1;
    jclass fdClass = (*env)->GetObjectClass(env, descriptor);
    jfieldID value = (*env)->GetFieldID(env, fdClass, "fd", "I");
    if (value == NULL) {
        (*env)->ExceptionClear(env);
        return -1;
    }
    return (*env)->GetIntField(env, descriptor, value);
}

/* One run: the whole length, across short transfers and signals. Returns the bytes moved (fewer
 * than len only when a read meets the end of the file), or -1 with errno set. */
static jlong one_run(int fd, char *mem, jlong len, jlong pos, int writing) {
    jlong done = 0;
    while (done < len) {
        ssize_t n = writing ? pwrite(fd, mem + done, (size_t)(len - done), (off_t)(pos + done))
                            : pread(fd, mem + done, (size_t)(len - done), (off_t)(pos + done));
        if (n < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        if (n == 0) break; /* a read at the end of the file (a write of 0 bytes cannot happen here) */
        done += n;
    }
    return done;
}

/* Runs runs[2i] (file position), runs[2i+1] (length), i < count, over the memory of `memory`
 * (a direct buffer, or a primitive array when is_array) from byte `at`, its bytes in order.
 * Returns the bytes moved: all of them, or for reads those before the first run the end of
 * the file cuts. Throws IOException on an error. */
static jlong runs(JNIEnv *env, jint fd, jobject memory, jboolean is_array, jlong at, jlongArray runs_array,
                  jint count, int writing) {
    jlong *r = (*env)->GetLongArrayElements(env, runs_array, NULL);
    if (r == NULL) return 0; /* out of memory: an exception is pending */
    char *direct = is_array ? NULL : (*env)->GetDirectBufferAddress(env, memory);
    jlong total = 0;
    int err = 0;
    for (jint i = 0; i < count; i++) {
        jlong pos = r[2 * i], len = r[2 * i + 1];
        char *base = direct;
        if (is_array) {
            base = (*env)->GetPrimitiveArrayCritical(env, (jarray)memory, NULL);
            if (base == NULL) break; /* out of memory: an exception is pending */
        }
        jlong n = one_run(fd, base + at + total, len, pos, writing);
        err = errno;
        if (is_array) (*env)->ReleasePrimitiveArrayCritical(env, (jarray)memory, base, writing ? JNI_ABORT : 0);
        if (n < 0) {
            (*env)->ReleaseLongArrayElements(env, runs_array, r, JNI_ABORT);
            mpi4j_throw_io(env, writing ? "pwrite" : "pread", err);
            return total;
        }
        total += n;
        if (n < len) break; /* the end of the file */
    }
    (*env)->ReleaseLongArrayElements(env, runs_array, r, JNI_ABORT);
    return total;
}

JNIEXPORT jlong JNICALL Java_io_github_mpi4j_fileio_NativeFileIo_writeRuns0(JNIEnv *env, jclass cls, jint fd,
                                                                           jobject memory, jboolean is_array,
                                                                           jlong at, jlongArray r, jint count) {
    (void)cls;
    return runs(env, fd, memory, is_array, at, r, count, 1);
}

JNIEXPORT jlong JNICALL Java_io_github_mpi4j_fileio_NativeFileIo_readRuns0(JNIEnv *env, jclass cls, jint fd,
                                                                          jobject memory, jboolean is_array,
                                                                          jlong at, jlongArray r, jint count) {
    (void)cls;
    return runs(env, fd, memory, is_array, at, r, count, 0);
}
