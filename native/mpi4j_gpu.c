/* libmpi4j_gpu as a library: its ABI version, JNI_OnLoad (the exception classes it throws),
 * opening the CUDA runtime and NCCL with dlopen and resolving their functions, the version and
 * device queries Capabilities reports, and the throw helpers of mpi4j_cuda.c and mpi4j_nccl.c.
 * Nothing here is linked to CUDA or NCCL: a machine without them loads this library and says
 * why they are unavailable. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <string.h>

#include "io_github_mpi4j_nativeload_GpuLinker.h"
#include "jni_util.h"
#include "mpi4j_abi.h"
#include "mpi4j_gpu.h"

#define JNI_FN(name) Java_io_github_mpi4j_nativeload_GpuLinker_##name

_Static_assert(io_github_mpi4j_nativeload_GpuLinker_CUDA == 0 && io_github_mpi4j_nativeload_GpuLinker_NCCL == 1,
               "GpuLinker.CUDA/NCCL index the handles below");

m4j_cuda_table g_cuda;
m4j_nccl_table g_nccl;
static void *g_handles[2];

static jclass g_cudaException;     /* (Ljava/lang/String;ILjava/lang/String;Ljava/lang/String;)V */
static jmethodID g_cudaExceptionInit;
static jclass g_ncclException;     /* (Ljava/lang/String;ILjava/lang/String;Ljava/lang/String;)V */
static jmethodID g_ncclExceptionInit;

static int cache_class(JNIEnv *env, const char *name, const char *sig, jclass *cls, jmethodID *init) {
    jclass local = (*env)->FindClass(env, name);
    if (local == NULL) return -1;
    *cls = (jclass)(*env)->NewGlobalRef(env, local);
    (*env)->DeleteLocalRef(env, local);
    if (*cls == NULL) return -1;
    *init = (*env)->GetMethodID(env, *cls, "<init>", sig);
    return *init == NULL ? -1 : 0;
}

static void release_classes(JNIEnv *env) {
    if (g_cudaException != NULL) (*env)->DeleteGlobalRef(env, g_cudaException);
    if (g_ncclException != NULL) (*env)->DeleteGlobalRef(env, g_ncclException);
    g_cudaException = g_ncclException = NULL;
    jni_util_on_unload(env);
}

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM *vm, void *reserved) {
    (void)reserved;
    JNIEnv *env;
    if ((*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_1_8) != JNI_OK) return JNI_ERR;
    if (jni_util_on_load(env) != 0) return JNI_ERR;
    const char *sig = "(Ljava/lang/String;ILjava/lang/String;Ljava/lang/String;)V";
    if (cache_class(env, "io/github/mpi4j/cuda/CudaException", sig, &g_cudaException, &g_cudaExceptionInit) != 0
        || cache_class(env, "io/github/mpi4j/nccl/NcclException", sig, &g_ncclException, &g_ncclExceptionInit) != 0) {
        release_classes(env);
        return JNI_ERR;
    }
    return JNI_VERSION_1_8;
}

JNIEXPORT void JNICALL JNI_OnUnload(JavaVM *vm, void *reserved) {
    (void)reserved;
    JNIEnv *env;
    if ((*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_1_8) == JNI_OK) release_classes(env);
}

/* The ABI version this library was built for; the loader calls it right after loading. */
JNIEXPORT jint JNICALL Java_io_github_mpi4j_nativeload_NativeAbi_gpuVersion0(JNIEnv *env, jclass cls) {
    (void)env;
    (void)cls;
    return MPI4J_ABI_VERSION;
}

/* --- exceptions --- */

static void throw_with(JNIEnv *env, jclass cls, jmethodID init, const char *call, int code, const char *name,
                       const char *text) {
    jstring jcall = (*env)->NewStringUTF(env, call);
    jstring jname = jcall == NULL || name == NULL ? NULL : (*env)->NewStringUTF(env, name);
    jstring jtext = jcall == NULL || text == NULL ? NULL : (*env)->NewStringUTF(env, text);
    if (!(*env)->ExceptionCheck(env)) {
        jobject ex = (*env)->NewObject(env, cls, init, jcall, (jint)code, jname, jtext);
        if (ex != NULL) {
            (*env)->Throw(env, (jthrowable)ex);
            (*env)->DeleteLocalRef(env, ex);
        }
    }
    if (jcall != NULL) (*env)->DeleteLocalRef(env, jcall);
    if (jname != NULL) (*env)->DeleteLocalRef(env, jname);
    if (jtext != NULL) (*env)->DeleteLocalRef(env, jtext);
}

void gpu_throw_missing(JNIEnv *env, int nccl, const char *function) {
    char text[256];
    snprintf(text, sizeof text, "the %s library that was loaded has no function %s", nccl ? "NCCL" : "CUDA runtime",
             function);
    if (nccl) {
        throw_with(env, g_ncclException, g_ncclExceptionInit, function, -1, NULL, text);
    } else {
        throw_with(env, g_cudaException, g_cudaExceptionInit, function, -1, NULL, text);
    }
}

void gpu_throw_cuda(JNIEnv *env, const char *call, int code) {
    /* The library's own name and text for the code; both functions are cheap and thread-safe. */
    const char *name = g_cuda.cudaGetErrorName != NULL ? g_cuda.cudaGetErrorName(code) : NULL;
    const char *text = g_cuda.cudaGetErrorString != NULL ? g_cuda.cudaGetErrorString(code) : NULL;
    throw_with(env, g_cudaException, g_cudaExceptionInit, call, code, name, text);
}

void gpu_throw_nccl(JNIEnv *env, const char *call, int code, void *comm) {
    const char *text = g_nccl.ncclGetErrorString != NULL ? g_nccl.ncclGetErrorString(code) : NULL;
    /* ncclGetLastError(NULL) is the last error of any communicator of this thread (NCCL >= 2.13). */
    const char *last = g_nccl.ncclGetLastError != NULL ? g_nccl.ncclGetLastError(comm) : NULL;
    throw_with(env, g_ncclException, g_ncclExceptionInit, call, code, text, last);
}

void gpu_throw_arg(JNIEnv *env, const char *message) {
    jclass cls = (*env)->FindClass(env, "java/lang/IllegalArgumentException");
    if (cls != NULL) (*env)->ThrowNew(env, cls, message);
}

int gpu_use_device(JNIEnv *env, int device) {
    if (device < 0) return 0;
    CUDA_FN(env, get, cudaGetDevice, -1);
    CUDA_FN(env, set, cudaSetDevice, -1);
    int current = -1;
    if (get(&current) == M4J_CUDA_SUCCESS && current == device) return 0;
    int rc = set(device);
    if (rc != M4J_CUDA_SUCCESS) {
        char call[64];
        snprintf(call, sizeof call, "cudaSetDevice(%d)", device);
        gpu_throw_cuda(env, call, rc);
        return -1;
    }
    return 0;
}

/* --- opening the libraries (io.github.mpi4j.nativeload.GpuLinker) --- */

static void *find(void *handle, const char *name) {
    return dlsym(handle, name);
}

/* Opens `path` as library `which` (GpuLinker.CUDA or NCCL) and resolves its functions. Returns
 * null, or dlopen's reason. The CUDA runtime is opened first and RTLD_GLOBAL, so that an NCCL
 * that leaves the runtime's functions to the process (a test double; real NCCL links its own
 * copy statically) binds to the same runtime as mpi4j; libcudart's symbols are versioned, so
 * another framework's runtime beside it does not mix with it. NCCL itself stays RTLD_LOCAL. */
JNIEXPORT jstring JNICALL JNI_FN(open0)(JNIEnv *env, jclass cls, jint which, jstring path) {
    (void)cls;
    if (which != 0 && which != 1) {
        gpu_throw_arg(env, "GpuLinker.open0: which must be CUDA or NCCL");
        return NULL;
    }
    if (g_handles[which] != NULL) return (*env)->NewStringUTF(env, "already opened");
    const char *p = (*env)->GetStringUTFChars(env, path, NULL);
    if (p == NULL) return NULL;
    dlerror();
    void *h = dlopen(p, RTLD_NOW | (which == 0 ? RTLD_GLOBAL : RTLD_LOCAL));
    (*env)->ReleaseStringUTFChars(env, path, p);
    if (h == NULL) {
        const char *e = dlerror();
        return (*env)->NewStringUTF(env, e != NULL ? e : "dlopen failed");
    }
#define M4J_RESOLVE_CUDA(name, ret, params) g_cuda.name = (name##_fn)find(h, #name);
#define M4J_RESOLVE_NCCL(name, ret, params) g_nccl.name = (name##_fn)find(h, #name);
    if (which == 0) {
        M4J_CUDA_FUNCTIONS(M4J_RESOLVE_CUDA)
    } else {
        M4J_NCCL_FUNCTIONS(M4J_RESOLVE_NCCL)
    }
    g_handles[which] = h;
    return NULL;
}

JNIEXPORT jstring JNICALL JNI_FN(fileOf0)(JNIEnv *env, jclass cls, jint which) {
    (void)cls;
    if ((which != 0 && which != 1) || g_handles[which] == NULL) return NULL;
    struct link_map *map = NULL;
    if (dlinfo(g_handles[which], RTLD_DI_LINKMAP, &map) != 0 || map == NULL || map->l_name == NULL) return NULL;
    return (*env)->NewStringUTF(env, map->l_name);
}

/* The functions of the contract that the opened library lacks, separated by spaces. */
JNIEXPORT jstring JNICALL JNI_FN(missing0)(JNIEnv *env, jclass cls, jint which) {
    (void)cls;
    char names[2048] = "";
    size_t used = 0;
#define M4J_MISSING(table, name)                                                       \
    if (table.name == NULL && used + strlen(#name) + 2 < sizeof names) {               \
        used += (size_t)snprintf(names + used, sizeof names - used, used ? " %s" : "%s", #name); \
    }
#define M4J_MISSING_CUDA(name, ret, params) M4J_MISSING(g_cuda, name)
#define M4J_MISSING_NCCL(name, ret, params) M4J_MISSING(g_nccl, name)
    if (which == 0) {
        M4J_CUDA_FUNCTIONS(M4J_MISSING_CUDA)
    } else {
        M4J_NCCL_FUNCTIONS(M4J_MISSING_NCCL)
    }
    return (*env)->NewStringUTF(env, names);
}

/* {runtime status, runtime version, driver status, driver version, count status, device count};
 * a status of -1 means the library lacks the function. */
JNIEXPORT jintArray JNICALL JNI_FN(cudaStatus0)(JNIEnv *env, jclass cls) {
    (void)cls;
    jint v[6] = {-1, 0, -1, 0, -1, 0};
    int x = 0;
    if (g_cuda.cudaRuntimeGetVersion != NULL) { v[0] = g_cuda.cudaRuntimeGetVersion(&x); v[1] = x; }
    x = 0;
    if (g_cuda.cudaDriverGetVersion != NULL) { v[2] = g_cuda.cudaDriverGetVersion(&x); v[3] = x; }
    x = 0;
    if (g_cuda.cudaGetDeviceCount != NULL) {
        v[4] = g_cuda.cudaGetDeviceCount(&x);
        v[5] = x;
        /* A failed count leaves a sticky-looking last error; clear it so later calls report their own. */
        if (v[4] != M4J_CUDA_SUCCESS && g_cuda.cudaGetLastError != NULL) g_cuda.cudaGetLastError();
    }
    jintArray out = (*env)->NewIntArray(env, 6);
    if (out != NULL) (*env)->SetIntArrayRegion(env, out, 0, 6, v);
    return out;
}

/* "name: text" of CUDA error `code`, from the library itself, or null. */
JNIEXPORT jstring JNICALL JNI_FN(cudaErrorText0)(JNIEnv *env, jclass cls, jint code) {
    (void)cls;
    const char *name = g_cuda.cudaGetErrorName != NULL ? g_cuda.cudaGetErrorName(code) : NULL;
    const char *text = g_cuda.cudaGetErrorString != NULL ? g_cuda.cudaGetErrorString(code) : NULL;
    if (name == NULL && text == NULL) return NULL;
    char buf[512];
    snprintf(buf, sizeof buf, "%s: %s", name != NULL ? name : "cudaError", text != NULL ? text : "(no text)");
    return (*env)->NewStringUTF(env, buf);
}

/* {status, version code}; status -1: no ncclGetVersion. */
JNIEXPORT jintArray JNICALL JNI_FN(ncclStatus0)(JNIEnv *env, jclass cls) {
    (void)cls;
    jint v[2] = {-1, 0};
    int x = 0;
    if (g_nccl.ncclGetVersion != NULL) { v[0] = g_nccl.ncclGetVersion(&x); v[1] = x; }
    jintArray out = (*env)->NewIntArray(env, 2);
    if (out != NULL) (*env)->SetIntArrayRegion(env, out, 0, 2, v);
    return out;
}

JNIEXPORT jstring JNICALL JNI_FN(ncclErrorText0)(JNIEnv *env, jclass cls, jint code) {
    (void)cls;
    const char *text = g_nccl.ncclGetErrorString != NULL ? g_nccl.ncclGetErrorString(code) : NULL;
    return text == NULL ? NULL : (*env)->NewStringUTF(env, text);
}

/* Whether the MPI library already in the process is CUDA-aware, asked through its extension
 * functions (looked up in the global scope, where libmpi4j_dl opened libmpi): {family, answer}
 * with family 0 none found, 1 Open MPI (MPIX_Query_cuda_support), 2 MPICH
 * (MPIX_GPU_query_support); answer 1 yes, 0 no, -2 MPICH not initialized yet (it answers only
 * after MPI_Init). */
JNIEXPORT jintArray JNICALL JNI_FN(mpiCudaSupport0)(JNIEnv *env, jclass cls) {
    (void)cls;
    jint v[2] = {0, 0};
    void *ompi_query = dlsym(RTLD_DEFAULT, "MPIX_Query_cuda_support");
    void *mpich_query = dlsym(RTLD_DEFAULT, "MPIX_GPU_query_support");
    if (dlsym(RTLD_DEFAULT, "ompi_mpi_comm_world") != NULL) {
        /* Open MPI answers at any time (it reports how it was built). */
        if (ompi_query != NULL) {
            int (*query)(void);
            memcpy(&query, &ompi_query, sizeof query);
            v[0] = 1;
            v[1] = query() ? 1 : 0;
        }
    } else if (mpich_query != NULL || ompi_query != NULL) {
        /* The MPICH family aborts the process when asked before MPI_Init (MPICH 4 also has
         * MPIX_Query_cuda_support, over the same internals): ask only once it is initialized. */
        int done = 0;
        void *init_sym = dlsym(RTLD_DEFAULT, "MPI_Initialized");
        if (init_sym != NULL) {
            int (*initialized)(int *);
            memcpy(&initialized, &init_sym, sizeof initialized);
            if (initialized(&done) != 0) done = 0;
        }
        v[0] = 2;
        v[1] = -2;
        if (done && mpich_query != NULL) {
            int (*query)(int, int *);
            memcpy(&query, &mpich_query, sizeof query);
            int supported = 0;
            /* MPIX_GPU_SUPPORT_CUDA is 0 in MPICH's mpi.h. */
            v[1] = query(0, &supported) == 0 && supported ? 1 : 0;
        } else if (done) {
            int (*query)(void);
            memcpy(&query, &ompi_query, sizeof query);
            v[1] = query() ? 1 : 0;
        }
    }
    jintArray out = (*env)->NewIntArray(env, 2);
    if (out != NULL) (*env)->SetIntArrayRegion(env, out, 0, 2, v);
    return out;
}
