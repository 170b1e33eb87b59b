/* libmpi4j_gpu: what its C files share. mpi4j_gpu.c opens the CUDA runtime and NCCL (dlopen,
 * at first use, the file chosen by io.github.mpi4j.nativeload.GpuLibraries), resolves the
 * functions of mpi4j_gpu_decls.h into the tables below, and throws the Java exceptions;
 * mpi4j_cuda.c and mpi4j_nccl.c are the natives of io.github.mpi4j.cuda.CudaNative and
 * io.github.mpi4j.nccl.NcclNative. No CUDA or NCCL header is needed. */
#ifndef MPI4J_GPU_H
#define MPI4J_GPU_H

#include <jni.h>
#include <stdint.h>

#include "mpi4j_gpu_decls.h"

#define M4J_FN_TYPE(name, ret, params) typedef ret(*name##_fn) params;
M4J_CUDA_FUNCTIONS(M4J_FN_TYPE)
M4J_NCCL_FUNCTIONS(M4J_FN_TYPE)
#undef M4J_FN_TYPE

#define M4J_FN_FIELD(name, ret, params) name##_fn name;
typedef struct {
    M4J_CUDA_FUNCTIONS(M4J_FN_FIELD)
} m4j_cuda_table;
typedef struct {
    M4J_NCCL_FUNCTIONS(M4J_FN_FIELD)
} m4j_nccl_table;
#undef M4J_FN_FIELD

/* Filled once by GpuLinker.open0 (under the Java loader's lock), read-only afterwards. A NULL
 * entry is a function the opened library lacks: calling it throws, naming it. */
extern m4j_cuda_table g_cuda;
extern m4j_nccl_table g_nccl;

/* The library that lacks a function: "the CUDA runtime" or "NCCL". */
void gpu_throw_missing(JNIEnv *env, int nccl, const char *function);
/* io.github.mpi4j.cuda.CudaException for `call` failing with CUDA error `code`. */
void gpu_throw_cuda(JNIEnv *env, const char *call, int code);
/* io.github.mpi4j.nccl.NcclException for `call` failing with `code`; comm (may be NULL) gives
 * ncclGetLastError's detail. */
void gpu_throw_nccl(JNIEnv *env, const char *call, int code, void *comm);
/* java.lang.IllegalArgumentException: for checks the Java side should already have made. */
void gpu_throw_arg(JNIEnv *env, const char *message);

/* Declares `var` as the resolved function `name` of the CUDA table, or throws naming it and
 * returns `fail` from the calling function. */
#define CUDA_FN(env, var, name, fail)          \
    name##_fn var = g_cuda.name;               \
    if (var == NULL) {                         \
        gpu_throw_missing((env), 0, #name);    \
        return fail;                           \
    }
#define NCCL_FN(env, var, name, fail)          \
    name##_fn var = g_nccl.name;               \
    if (var == NULL) {                         \
        gpu_throw_missing((env), 1, #name);    \
        return fail;                           \
    }

/* Makes `device` the calling thread's current CUDA device (cudaSetDevice only when it
 * differs: CUDA keeps the current device per OS thread, and any Java thread may call). A
 * negative device leaves it as it is. Returns 0, or -1 with an exception pending. */
int gpu_use_device(JNIEnv *env, int device);

#define PTR(x) ((void *)(intptr_t)(x))
#define JPTR(p) ((jlong)(intptr_t)(p))

#endif
