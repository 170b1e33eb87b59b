/* The MPI bridge as a library: its ABI version and the loading and unloading of its concerns
 * (the list is MPI4J_MPI_CONCERNS in mpi4j_mpi.h; each concern is a file of its own). */
#include "mpi4j_mpi.h"

#include "mpi4j_abi.h"

JavaVM *g_vm;

typedef struct {
    int (*on_load)(JNIEnv *env);
    void (*on_unload)(JNIEnv *env);
} concern;

#define MPI4J_CONCERN_ENTRY(name) {name##_on_load, name##_on_unload},
static const concern concerns[] = {MPI4J_MPI_CONCERNS(MPI4J_CONCERN_ENTRY)};
#define N_CONCERNS ((int)(sizeof concerns / sizeof concerns[0]))

/* Unloads concerns n-1 .. 0, the reverse of their load order. */
static void unload_concerns(JNIEnv *env, int n) {
    for (int i = n - 1; i >= 0; i--) concerns[i].on_unload(env);
}

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM *vm, void *reserved) {
    (void)reserved;
    JNIEnv *env;
    g_vm = vm;
    if ((*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_1_8) != JNI_OK) return JNI_ERR;
    for (int i = 0; i < N_CONCERNS; i++) {
        if (concerns[i].on_load(env) != 0) {
            /* Undo the concerns loaded so far: the JVM then refuses and closes the library. */
            unload_concerns(env, i);
            return JNI_ERR;
        }
    }
    return JNI_VERSION_1_8;
}

JNIEXPORT void JNICALL JNI_OnUnload(JavaVM *vm, void *reserved) {
    (void)reserved;
    JNIEnv *env;
    if ((*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_1_8) == JNI_OK) unload_concerns(env, N_CONCERNS);
}

/* The ABI version this bridge was built for; the loader calls it right after loading. */
JNIEXPORT jint JNICALL Java_io_github_mpi4j_nativeload_NativeAbi_mpiBridgeVersion0(JNIEnv *env, jclass cls) {
    (void)env;
    (void)cls;
    return MPI4J_ABI_VERSION;
}
