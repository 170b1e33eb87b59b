/* A stale mpi4j JNI library for NativeAbiTest (test-only). Built three ways:
 *   STALE_ABI_NEWER:  reports the ABI version after this jar's, from both version functions, as
 *                     a library from another mpi4j release would;
 *   STALE_ABI_GONE:   its JNI_OnLoad caches a class these classes no longer have, and fails;
 *   neither:          has no version function at all, as a library from before the check.
 * None has the real functions: the loader must refuse it before any is called. */
#include <jni.h>

#include "io_github_mpi4j_nativeload_NativeAbi.h"

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM *vm, void *reserved) {
    (void)reserved;
#ifdef STALE_ABI_GONE
    JNIEnv *env;
    if ((*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_1_8) != JNI_OK) return JNI_ERR;
    /* Leaves the NoClassDefFoundError pending, as a real bridge's failed FindClass would. */
    if ((*env)->FindClass(env, "io/github/mpi4j/spi/RemovedLongAgo") == NULL) return JNI_ERR;
#else
    (void)vm;
#endif
    return JNI_VERSION_1_8;
}

#ifdef STALE_ABI_NEWER
JNIEXPORT jint JNICALL Java_io_github_mpi4j_nativeload_NativeAbi_dynamicLinkerVersion0(JNIEnv *env, jclass cls) {
    (void)env;
    (void)cls;
    return io_github_mpi4j_nativeload_NativeAbi_VERSION + 1;
}

JNIEXPORT jint JNICALL Java_io_github_mpi4j_nativeload_NativeAbi_mpiBridgeVersion0(JNIEnv *env, jclass cls) {
    (void)env;
    (void)cls;
    return io_github_mpi4j_nativeload_NativeAbi_VERSION + 1;
}
#endif
