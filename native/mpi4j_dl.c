/* libmpi4j_dl: the few dynamic-linker calls the Java loader needs before any MPI bridge can be
 * loaded. The JVM opens libraries RTLD_LOCAL, but the bridges are linked to no libmpi (one
 * bridge must serve libmpi.so.12 of MPICH, Intel MPI, MVAPICH and Cray alike, whatever file
 * name a distribution gives it), and Open MPI's plugins need libmpi's symbols global. So the
 * loader opens the system libmpi here with RTLD_GLOBAL first; the bridge loaded next binds to
 * it. This library itself needs no MPI. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <jni.h>
#include <link.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "io_github_mpi4j_nativeload_DynamicLinker.h"
#include "mpi4j_abi.h"

#define JNI_FN(name) Java_io_github_mpi4j_nativeload_DynamicLinker_##name

/* The ABI version this library was built for; the loader calls it right after loading. */
JNIEXPORT jint JNICALL Java_io_github_mpi4j_nativeload_NativeAbi_dynamicLinkerVersion0(JNIEnv *env, jclass cls) {
    (void)env;
    (void)cls;
    return MPI4J_ABI_VERSION;
}

/* Large enough for every implementation's MPI_MAX_LIBRARY_VERSION_STRING (MPICH: 8192). */
#define VERSION_BUFFER 16384

static void throw_error(JNIEnv *env, const char *message) {
    jclass cls = (*env)->FindClass(env, "java/lang/UnsatisfiedLinkError");
    if (cls != NULL) (*env)->ThrowNew(env, cls, message);
}

/* Signals the JVM handles itself. Libraries that libmpi pulls in may install handlers for them
 * when they are loaded (UCX under MPICH does, before MPI_Init could stop it), so the JVM's
 * handlers are put back after dlopen; MPI_Init is guarded the same way by the bridge. */
static const int jvm_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGUSR2, SIGQUIT, SIGPIPE,
                                  SIGHUP, SIGINT, SIGTERM};
#define N_JVM_SIGNALS ((int)(sizeof jvm_signals / sizeof jvm_signals[0]))

JNIEXPORT jlong JNICALL JNI_FN(openGlobal0)(JNIEnv *env, jclass cls, jstring path) {
    (void)cls;
    const char *p = (*env)->GetStringUTFChars(env, path, NULL);
    if (p == NULL) return 0;
    /* UCX reads its configuration when it is loaded: keep its fault handlers out of the JVM's
     * way from the start (also quiets its "unused variable" warning). */
    if (getenv("UCX_ERROR_SIGNALS") == NULL) setenv("UCX_ERROR_SIGNALS", "", 0);
    struct sigaction saved[N_JVM_SIGNALS];
    for (int i = 0; i < N_JVM_SIGNALS; i++) sigaction(jvm_signals[i], NULL, &saved[i]);
    dlerror();
    void *h = dlopen(p, RTLD_NOW | RTLD_GLOBAL);
    for (int i = 0; i < N_JVM_SIGNALS; i++) sigaction(jvm_signals[i], &saved[i], NULL);
    (*env)->ReleaseStringUTFChars(env, path, p);
    if (h == NULL) {
        const char *e = dlerror();
        throw_error(env, e != NULL ? e : "dlopen failed");
        return 0;
    }
    return (jlong)(intptr_t)h;
}

JNIEXPORT jboolean JNICALL JNI_FN(hasSymbol0)(JNIEnv *env, jclass cls, jlong handle, jstring name) {
    (void)cls;
    const char *n = (*env)->GetStringUTFChars(env, name, NULL);
    if (n == NULL) return JNI_FALSE;
    void *s = dlsym((void *)(intptr_t)handle, n);
    (*env)->ReleaseStringUTFChars(env, name, n);
    return s != NULL ? JNI_TRUE : JNI_FALSE;
}

JNIEXPORT jstring JNICALL JNI_FN(fileOf0)(JNIEnv *env, jclass cls, jlong handle) {
    (void)cls;
    struct link_map *map = NULL;
    if (dlinfo((void *)(intptr_t)handle, RTLD_DI_LINKMAP, &map) != 0 || map == NULL || map->l_name == NULL) {
        return NULL;
    }
    return (*env)->NewStringUTF(env, map->l_name);
}

/* MPI_Get_library_version may be called before MPI_Init (MPI-3); it only formats a string. */
JNIEXPORT jstring JNICALL JNI_FN(libraryVersion0)(JNIEnv *env, jclass cls, jlong handle) {
    (void)cls;
    typedef int (*version_fn)(char *, int *);
    version_fn fn;
    void *sym = dlsym((void *)(intptr_t)handle, "MPI_Get_library_version");
    if (sym == NULL) return NULL;
    memcpy(&fn, &sym, sizeof fn);
    char *text = calloc(1, VERSION_BUFFER);
    if (text == NULL) return NULL;
    int len = 0;
    jstring result = NULL;
    if (fn(text, &len) == 0) {
        text[len > 0 && len < VERSION_BUFFER ? len : VERSION_BUFFER - 1] = '\0';
        result = (*env)->NewStringUTF(env, text);
    }
    free(text);
    return result;
}
