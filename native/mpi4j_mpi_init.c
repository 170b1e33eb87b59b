/* Starting and stopping MPI, and the environment queries: the libmpi this bridge needs
 * (checked at load), MPI_Init with the JVM's signal handlers kept, MPI_Finalize, MPI_Abort,
 * clocks, versions, the processor name. */
#define _GNU_SOURCE
#include "mpi4j_mpi.h"

#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io_github_mpi4j_backend_mpi_MpiNative.h"

#define JNI_FN(name) Java_io_github_mpi4j_backend_mpi_MpiNative_##name

int init_on_load(JNIEnv *env) {
    (void)env;
    /* This bridge is linked to no libmpi: the Java loader opened the system libmpi RTLD_GLOBAL
     * first (MpiBridge). Refuse to load without one, or next to the other ABI family's libmpi,
     * rather than fail at the first MPI call. */
    if (dlsym(RTLD_DEFAULT, "MPI_Init") == NULL) return -1;
    if ((dlsym(RTLD_DEFAULT, "ompi_mpi_comm_world") != NULL) != (MPI4J_FAMILY_IS_OMPI != 0)) return -1;
    /* The JVM loads us (and libmpi with us) RTLD_LOCAL; Open MPI's plugins need libmpi's symbols
     * global, so re-open the library that defines MPI_Init with RTLD_GLOBAL. */
    Dl_info info;
    if (dladdr((void *)&MPI_Init, &info) != 0 && info.dli_fname != NULL) {
        dlopen(info.dli_fname, RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD);
    }
    return 0;
}

void init_on_unload(JNIEnv *env) {
    (void)env; /* nothing cached */
}

/* Signals the JVM relies on: faults (implicit null checks, stack banging, safepoint polls),
 * thread suspension, thread dumps. MPI and UCX may install handlers for them in MPI_Init; we
 * put the JVM's back so a NullPointerException stays an exception. */
static const int jvm_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGUSR2, SIGQUIT, SIGPIPE};
#define N_JVM_SIGNALS ((int)(sizeof jvm_signals / sizeof jvm_signals[0]))

static void set_default_env(const char *name, const char *value) {
    if (getenv(name) == NULL) setenv(name, value, 0);
}

/* Open MPI before 5.0 (seen with 4.1.4, and in plain C programs): the default one-sided
 * component, osc/rdma, dies with SIGSEGV in MPI_Compare_and_swap between processes (which
 * would take the JVM down) and cannot make an MPI_Win_create window in a one-process job.
 * osc/sm, osc/ucx and osc/pt2pt do both, so unless the user chose components (OMPI_MCA_osc,
 * also what "mpirun --mca osc ..." sets), leave rdma out. MPI4J_OMPI_OSC replaces our
 * choice ("" keeps Open MPI's own). Open MPI 5 has no osc/pt2pt and relies on rdma: untouched.
 * MPI_Get_library_version may be called before MPI_Init. */
static void default_osc(void) {
#if MPI4J_FAMILY_IS_OMPI
    if (getenv("OMPI_MCA_osc") != NULL) return;
    const char *choice = getenv("MPI4J_OMPI_OSC");
    if (choice == NULL) {
        char text[MPI_MAX_LIBRARY_VERSION_STRING + 1];
        int len = 0, major = 0;
        if (MPI_Get_library_version(text, &len) != MPI_SUCCESS) return;
        text[len < 0 ? 0 : len] = '\0';
        const char *v = strstr(text, "Open MPI v");
        if (v == NULL || sscanf(v, "Open MPI v%d", &major) != 1 || major >= 5) return;
        choice = "^rdma";
    }
    if (choice[0] != '\0') setenv("OMPI_MCA_osc", choice, 0);
#endif
}

JNIEXPORT jint JNICALL JNI_FN(init0)(JNIEnv *env, jclass cls, jint required) {
    (void)cls;
    int already = 0, provided = MPI_THREAD_SINGLE;
    MPI_Initialized(&already);
    if (already) {
        MPI_Query_thread(&provided);
    } else {
        /* Keep Open MPI's and UCX's fault handlers out of the JVM's way. */
        set_default_env("OMPI_MCA_opal_signal", "");
        set_default_env("UCX_ERROR_SIGNALS", "");
        default_osc();
        struct sigaction saved[N_JVM_SIGNALS];
        for (int i = 0; i < N_JVM_SIGNALS; i++) sigaction(jvm_signals[i], NULL, &saved[i]);
        int rc = MPI_Init_thread(NULL, NULL, (int)required, &provided);
        for (int i = 0; i < N_JVM_SIGNALS; i++) sigaction(jvm_signals[i], &saved[i], NULL);
        if (rc != MPI_SUCCESS) {
            char msg[128];
            snprintf(msg, sizeof msg, "MPI_Init_thread failed with code %d", rc);
            throw_other(env, msg);
            return -1;
        }
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    if (mpi_failed(env, handles_create(), "MPI_Init (pair types)")) return -1;
    return provided;
}

JNIEXPORT void JNICALL JNI_FN(finalize0)(JNIEnv *env, jclass cls) {
    (void)cls;
    handles_free();
    mpi_failed(env, MPI_Finalize(), "MPI_Finalize");
}

JNIEXPORT void JNICALL JNI_FN(abort0)(JNIEnv *env, jclass cls, jlong comm, jint code) {
    (void)cls;
    mpi_failed(env, MPI_Abort(TO_COMM(comm), (int)code), "MPI_Abort");
}

JNIEXPORT jdouble JNICALL JNI_FN(wtime0)(JNIEnv *env, jclass cls) {
    (void)env;
    (void)cls;
    return MPI_Wtime();
}

JNIEXPORT jdouble JNICALL JNI_FN(wtick0)(JNIEnv *env, jclass cls) {
    (void)env;
    (void)cls;
    return MPI_Wtick();
}

JNIEXPORT jstring JNICALL JNI_FN(processorName0)(JNIEnv *env, jclass cls) {
    (void)cls;
    char name[MPI_MAX_PROCESSOR_NAME + 1];
    int len = 0;
    if (mpi_failed(env, MPI_Get_processor_name(name, &len), "MPI_Get_processor_name")) return NULL;
    name[len] = '\0';
    return (*env)->NewStringUTF(env, name);
}

JNIEXPORT jint JNICALL JNI_FN(version0)(JNIEnv *env, jclass cls) {
    (void)env;
    (void)cls;
    int v = 0, sv = 0;
    MPI_Get_version(&v, &sv);
    return v * 100 + sv;
}

JNIEXPORT jstring JNICALL JNI_FN(libVersion0)(JNIEnv *env, jclass cls) {
    (void)cls;
    char text[MPI_MAX_LIBRARY_VERSION_STRING + 1];
    int len = 0;
    if (mpi_failed(env, MPI_Get_library_version(text, &len), "MPI_Get_library_version")) return NULL;
    text[len] = '\0';
    while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == ' ')) text[--len] = '\0';
    return (*env)->NewStringUTF(env, text);
}

JNIEXPORT jboolean JNICALL JNI_FN(isThreadMain0)(JNIEnv *env, jclass cls) {
    (void)env;
    (void)cls;
    int flag = 0;
    MPI_Is_thread_main(&flag);
    return flag ? JNI_TRUE : JNI_FALSE;
}
