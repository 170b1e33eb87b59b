/* Our own declarations of the few CUDA runtime and NCCL types, values and functions that
 * libmpi4j_gpu uses. Both libraries are dlopen'ed at run time, so the build needs neither
 * library nor header. Where the real headers are found, mpi4j_gpu_check.c is compiled against
 * them and asserts that every value, size, offset and function signature here equals theirs
 * (native/CMakeLists.txt says which headers it found).
 *
 * The function lists are X-macros over the type macros M4J_T_*: expanded here with our types
 * (the table of function pointers), and in mpi4j_gpu_check.c with the headers' types. */
#ifndef MPI4J_GPU_DECLS_H
#define MPI4J_GPU_DECLS_H

#include <limits.h>
#include <stddef.h>

/* --- CUDA runtime (cuda_runtime_api.h, driver_types.h) --- */
#define M4J_CUDA_SUCCESS 0
#define M4J_CUDA_ERROR_NOT_READY 600
#define M4J_CUDA_MEMCPY_HOST_TO_DEVICE 1
#define M4J_CUDA_MEMCPY_DEVICE_TO_HOST 2
#define M4J_CUDA_MEMCPY_DEVICE_TO_DEVICE 3
#define M4J_CUDA_MEMCPY_DEFAULT 4
#define M4J_CUDA_STREAM_NON_BLOCKING 0x01
#define M4J_CUDA_EVENT_DISABLE_TIMING 0x02
#define M4J_CUDA_MEMORY_TYPE_DEVICE 2
#define M4J_CUDA_MEMORY_TYPE_MANAGED 3

/* cudaPointerAttributes as of CUDA 13 (CUDA 12's has no reserved tail: larger is safe). */
typedef struct {
    int type; /* enum cudaMemoryType */
    int device;
    void *devicePointer;
    void *hostPointer;
    long reserved[8];
} m4j_cuda_pointer_attributes;

#ifndef M4J_T_DEFINED
#define M4J_T_CUDA_ERR int            /* cudaError_t (an enum of int size) */
#define M4J_T_KIND int                /* enum cudaMemcpyKind */
#define M4J_T_STREAM void *           /* cudaStream_t */
#define M4J_T_EVENT void *            /* cudaEvent_t */
#define M4J_T_PATTR m4j_cuda_pointer_attributes
#define M4J_T_NCCL_RES int            /* ncclResult_t */
#define M4J_T_COMM void *             /* ncclComm_t */
#define M4J_T_UID m4j_nccl_unique_id  /* ncclUniqueId, passed by value */
#define M4J_T_CONFIG m4j_nccl_config  /* ncclConfig_t (our prefix of it, see below) */
#define M4J_T_DTYPE int               /* ncclDataType_t */
#define M4J_T_REDOP int               /* ncclRedOp_t */
#endif

/* X(name, return type, parameter list) for every CUDA runtime function mpi4j calls. */
#define M4J_CUDA_FUNCTIONS(X)                                                                        \
    X(cudaRuntimeGetVersion, M4J_T_CUDA_ERR, (int *))                                                \
    X(cudaDriverGetVersion, M4J_T_CUDA_ERR, (int *))                                                 \
    X(cudaGetDeviceCount, M4J_T_CUDA_ERR, (int *))                                                   \
    X(cudaSetDevice, M4J_T_CUDA_ERR, (int))                                                          \
    X(cudaGetDevice, M4J_T_CUDA_ERR, (int *))                                                        \
    X(cudaDeviceSynchronize, M4J_T_CUDA_ERR, (void))                                                 \
    X(cudaMalloc, M4J_T_CUDA_ERR, (void **, size_t))                                                 \
    X(cudaFree, M4J_T_CUDA_ERR, (void *))                                                            \
    X(cudaMallocHost, M4J_T_CUDA_ERR, (void **, size_t))                                             \
    X(cudaFreeHost, M4J_T_CUDA_ERR, (void *))                                                        \
    X(cudaMemcpy, M4J_T_CUDA_ERR, (void *, const void *, size_t, M4J_T_KIND))                        \
    X(cudaMemcpyAsync, M4J_T_CUDA_ERR, (void *, const void *, size_t, M4J_T_KIND, M4J_T_STREAM))     \
    X(cudaMemset, M4J_T_CUDA_ERR, (void *, int, size_t))                                             \
    X(cudaMemsetAsync, M4J_T_CUDA_ERR, (void *, int, size_t, M4J_T_STREAM))                          \
    X(cudaStreamCreateWithFlags, M4J_T_CUDA_ERR, (M4J_T_STREAM *, unsigned int))                     \
    X(cudaStreamDestroy, M4J_T_CUDA_ERR, (M4J_T_STREAM))                                             \
    X(cudaStreamSynchronize, M4J_T_CUDA_ERR, (M4J_T_STREAM))                                         \
    X(cudaStreamQuery, M4J_T_CUDA_ERR, (M4J_T_STREAM))                                               \
    X(cudaStreamWaitEvent, M4J_T_CUDA_ERR, (M4J_T_STREAM, M4J_T_EVENT, unsigned int))                \
    X(cudaEventCreateWithFlags, M4J_T_CUDA_ERR, (M4J_T_EVENT *, unsigned int))                       \
    X(cudaEventDestroy, M4J_T_CUDA_ERR, (M4J_T_EVENT))                                               \
    X(cudaEventRecord, M4J_T_CUDA_ERR, (M4J_T_EVENT, M4J_T_STREAM))                                  \
    X(cudaEventSynchronize, M4J_T_CUDA_ERR, (M4J_T_EVENT))                                           \
    X(cudaEventQuery, M4J_T_CUDA_ERR, (M4J_T_EVENT))                                                 \
    X(cudaPointerGetAttributes, M4J_T_CUDA_ERR, (M4J_T_PATTR *, const void *))                       \
    X(cudaGetLastError, M4J_T_CUDA_ERR, (void))                                                      \
    X(cudaGetErrorString, const char *, (M4J_T_CUDA_ERR))                                            \
    X(cudaGetErrorName, const char *, (M4J_T_CUDA_ERR))

/* --- NCCL (nccl.h) --- */
#define M4J_NCCL_SUCCESS 0
#define M4J_NCCL_UNHANDLED_CUDA_ERROR 1
#define M4J_NCCL_SYSTEM_ERROR 2
#define M4J_NCCL_INTERNAL_ERROR 3
#define M4J_NCCL_INVALID_ARGUMENT 4
#define M4J_NCCL_INVALID_USAGE 5
#define M4J_NCCL_REMOTE_ERROR 6
#define M4J_NCCL_IN_PROGRESS 7
#define M4J_NCCL_TIMEOUT 8

#define M4J_NCCL_INT8 0
#define M4J_NCCL_UINT8 1
#define M4J_NCCL_INT32 2
#define M4J_NCCL_UINT32 3
#define M4J_NCCL_INT64 4
#define M4J_NCCL_UINT64 5
#define M4J_NCCL_FLOAT16 6
#define M4J_NCCL_FLOAT32 7
#define M4J_NCCL_FLOAT64 8
#define M4J_NCCL_BFLOAT16 9

#define M4J_NCCL_SUM 0
#define M4J_NCCL_PROD 1
#define M4J_NCCL_MAX 2
#define M4J_NCCL_MIN 3
#define M4J_NCCL_AVG 4

#define M4J_NCCL_UNIQUE_ID_BYTES 128
#define M4J_NCCL_SPLIT_NOCOLOR (-1)
typedef struct {
    char internal[M4J_NCCL_UNIQUE_ID_BYTES];
} m4j_nccl_unique_id;

/* ncclConfig_t as NCCL 2.18 laid it out. NCCL reads min(size, its own sizeof) bytes of it and
 * keeps its NCCL_CONFIG_INITIALIZER defaults for every later field, so a prefix tagged with its
 * size and the version it was written for stays valid in newer NCCLs (mpi4j_gpu_check.c asserts
 * that the offsets equal the header's). Unset ints are INT_MIN, unset pointers NULL. */
typedef struct {
    size_t size;
    unsigned int magic;
    unsigned int version;
    int blocking;
    int cgaClusterSize;
    int minCTAs;
    int maxCTAs;
    const char *netName;
    int splitShare;
} m4j_nccl_config;

#define M4J_NCCL_CONFIG_MAGIC 0xcafebeefu
#define M4J_NCCL_CONFIG_VERSION 21800u /* NCCL_VERSION(2, 18, 0): the layout above */
#define M4J_NCCL_CONFIG_UNDEF_INT INT_MIN

/* NCCL_CONFIG_INITIALIZER's values for the fields we declare, with `blocking` set (the JNI
 * layer's communicators and the C twin of the overhead benchmark, bench/nccl_overhead_c.c). */
static inline m4j_nccl_config m4j_nccl_config_make(int blocking) {
    m4j_nccl_config c = {0};
    c.size = sizeof c;
    c.magic = M4J_NCCL_CONFIG_MAGIC;
    c.version = M4J_NCCL_CONFIG_VERSION;
    c.blocking = blocking ? 1 : 0;
    c.cgaClusterSize = M4J_NCCL_CONFIG_UNDEF_INT;
    c.minCTAs = M4J_NCCL_CONFIG_UNDEF_INT;
    c.maxCTAs = M4J_NCCL_CONFIG_UNDEF_INT;
    c.netName = NULL;
    c.splitShare = M4J_NCCL_CONFIG_UNDEF_INT;
    return c;
}
/* NCCL's version codes: X*1000+Y*100+Z up to 2.8, X*10000+Y*100+Z after. */
#define M4J_NCCL_VERSION(x, y, z) (((x) <= 2 && (y) <= 8) ? (x)*1000 + (y)*100 + (z) : (x)*10000 + (y)*100 + (z))
#define M4J_NCCL_MIN_VERSION M4J_NCCL_VERSION(2, 18, 0)

/* X(name, return type, parameter list) for every NCCL function mpi4j calls. */
#define M4J_NCCL_FUNCTIONS(X)                                                                                    \
    X(ncclGetVersion, M4J_T_NCCL_RES, (int *))                                                                   \
    X(ncclGetUniqueId, M4J_T_NCCL_RES, (M4J_T_UID *))                                                            \
    X(ncclCommInitRank, M4J_T_NCCL_RES, (M4J_T_COMM *, int, M4J_T_UID, int))                                     \
    X(ncclCommInitRankConfig, M4J_T_NCCL_RES, (M4J_T_COMM *, int, M4J_T_UID, int, M4J_T_CONFIG *))               \
    X(ncclCommSplit, M4J_T_NCCL_RES, (M4J_T_COMM, int, int, M4J_T_COMM *, M4J_T_CONFIG *))                       \
    X(ncclCommFinalize, M4J_T_NCCL_RES, (M4J_T_COMM))                                                            \
    X(ncclCommDestroy, M4J_T_NCCL_RES, (M4J_T_COMM))                                                             \
    X(ncclCommAbort, M4J_T_NCCL_RES, (M4J_T_COMM))                                                               \
    X(ncclCommGetAsyncError, M4J_T_NCCL_RES, (M4J_T_COMM, M4J_T_NCCL_RES *))                                     \
    X(ncclCommCount, M4J_T_NCCL_RES, (M4J_T_COMM, int *))                                                        \
    X(ncclCommCuDevice, M4J_T_NCCL_RES, (M4J_T_COMM, int *))                                                     \
    X(ncclCommUserRank, M4J_T_NCCL_RES, (M4J_T_COMM, int *))                                                     \
    X(ncclAllReduce, M4J_T_NCCL_RES,                                                                             \
      (const void *, void *, size_t, M4J_T_DTYPE, M4J_T_REDOP, M4J_T_COMM, M4J_T_STREAM))                        \
    X(ncclBroadcast, M4J_T_NCCL_RES, (const void *, void *, size_t, M4J_T_DTYPE, int, M4J_T_COMM, M4J_T_STREAM)) \
    X(ncclReduce, M4J_T_NCCL_RES,                                                                                \
      (const void *, void *, size_t, M4J_T_DTYPE, M4J_T_REDOP, int, M4J_T_COMM, M4J_T_STREAM))                   \
    X(ncclAllGather, M4J_T_NCCL_RES, (const void *, void *, size_t, M4J_T_DTYPE, M4J_T_COMM, M4J_T_STREAM))      \
    X(ncclReduceScatter, M4J_T_NCCL_RES,                                                                         \
      (const void *, void *, size_t, M4J_T_DTYPE, M4J_T_REDOP, M4J_T_COMM, M4J_T_STREAM))                        \
    X(ncclSend, M4J_T_NCCL_RES, (const void *, size_t, M4J_T_DTYPE, int, M4J_T_COMM, M4J_T_STREAM))              \
    X(ncclRecv, M4J_T_NCCL_RES, (void *, size_t, M4J_T_DTYPE, int, M4J_T_COMM, M4J_T_STREAM))                    \
    X(ncclGroupStart, M4J_T_NCCL_RES, (void))                                                                    \
    X(ncclGroupEnd, M4J_T_NCCL_RES, (void))                                                                      \
    X(ncclGetErrorString, const char *, (M4J_T_NCCL_RES))                                                        \
    X(ncclGetLastError, const char *, (M4J_T_COMM))

#endif
