/* Host memory given by address, seen from Java as a direct ByteBuffer (HostViews). Part of
 * libmpi4j_dl because it needs no MPI: the pure-Java fabric uses it. The Java side has checked
 * the address and the length (a Buf's length fits in an int). */
#include <jni.h>
#include <stdint.h>

#include "io_github_mpi4j_buffer_HostViews.h"

JNIEXPORT jobject JNICALL Java_io_github_mpi4j_buffer_HostViews_view0(JNIEnv *env, jclass cls, jlong address,
                                                                      jlong bytes) {
    (void)cls;
    return (*env)->NewDirectByteBuffer(env, (void *)(intptr_t)address, bytes);
}
