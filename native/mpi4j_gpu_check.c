/* Compile-time proof that our declarations (mpi4j_gpu_decls.h) equal the real headers'. Built
 * only where native/CMakeLists.txt found them: MPI4J_HAVE_CUDA_H (cuda_runtime_api.h) and
 * MPI4J_HAVE_NCCL_H (nccl.h, which needs the CUDA headers too). Nothing here runs: a mismatch
 * fails the build. The function lists are expanded with the headers' types and each signature
 * is compared with the header's declaration; enums are compared by value and by size (ours are
 * ints). */
#include <stddef.h>

#if defined(MPI4J_HAVE_CUDA_H)
#include <cuda_runtime_api.h>

#define M4J_T_DEFINED
#define M4J_T_CUDA_ERR cudaError_t
#define M4J_T_KIND enum cudaMemcpyKind
#define M4J_T_STREAM cudaStream_t
#define M4J_T_EVENT cudaEvent_t
#define M4J_T_PATTR struct cudaPointerAttributes

#if defined(MPI4J_HAVE_NCCL_H)
#include <nccl.h>
#define M4J_T_NCCL_RES ncclResult_t
#define M4J_T_COMM ncclComm_t
#define M4J_T_UID ncclUniqueId
#define M4J_T_CONFIG ncclConfig_t
#define M4J_T_DTYPE ncclDataType_t
#define M4J_T_REDOP ncclRedOp_t
#endif

#include "mpi4j_gpu_decls.h"

#define SAME(ours, theirs) _Static_assert((ours) == (theirs), #ours " must equal " #theirs)
#define SIGNATURE(name, ret, params) \
    _Static_assert(__builtin_types_compatible_p(__typeof__(&name), ret(*) params), "signature of " #name);

M4J_CUDA_FUNCTIONS(SIGNATURE)
SAME(sizeof(cudaError_t), sizeof(int));
SAME(sizeof(enum cudaMemcpyKind), sizeof(int));
SAME(M4J_CUDA_SUCCESS, cudaSuccess);
SAME(M4J_CUDA_ERROR_NOT_READY, cudaErrorNotReady);
SAME(M4J_CUDA_MEMCPY_HOST_TO_DEVICE, cudaMemcpyHostToDevice);
SAME(M4J_CUDA_MEMCPY_DEVICE_TO_HOST, cudaMemcpyDeviceToHost);
SAME(M4J_CUDA_MEMCPY_DEVICE_TO_DEVICE, cudaMemcpyDeviceToDevice);
SAME(M4J_CUDA_MEMCPY_DEFAULT, cudaMemcpyDefault);
SAME(M4J_CUDA_STREAM_NON_BLOCKING, cudaStreamNonBlocking);
SAME(M4J_CUDA_EVENT_DISABLE_TIMING, cudaEventDisableTiming);
SAME(M4J_CUDA_MEMORY_TYPE_DEVICE, cudaMemoryTypeDevice);
SAME(M4J_CUDA_MEMORY_TYPE_MANAGED, cudaMemoryTypeManaged);
SAME(sizeof(enum cudaMemoryType), sizeof(int));
/* CUDA writes the whole struct: ours may be larger, never smaller, with the same offsets. */
_Static_assert(sizeof(m4j_cuda_pointer_attributes) >= sizeof(struct cudaPointerAttributes), "pointer attributes size");
SAME(offsetof(m4j_cuda_pointer_attributes, type), offsetof(struct cudaPointerAttributes, type));
SAME(offsetof(m4j_cuda_pointer_attributes, device), offsetof(struct cudaPointerAttributes, device));
SAME(offsetof(m4j_cuda_pointer_attributes, devicePointer), offsetof(struct cudaPointerAttributes, devicePointer));
SAME(offsetof(m4j_cuda_pointer_attributes, hostPointer), offsetof(struct cudaPointerAttributes, hostPointer));

#if defined(MPI4J_HAVE_NCCL_H)
M4J_NCCL_FUNCTIONS(SIGNATURE)
SAME(sizeof(ncclResult_t), sizeof(int));
SAME(sizeof(ncclDataType_t), sizeof(int));
SAME(sizeof(ncclRedOp_t), sizeof(int));
SAME(M4J_NCCL_SUCCESS, ncclSuccess);
SAME(M4J_NCCL_UNHANDLED_CUDA_ERROR, ncclUnhandledCudaError);
SAME(M4J_NCCL_SYSTEM_ERROR, ncclSystemError);
SAME(M4J_NCCL_INTERNAL_ERROR, ncclInternalError);
SAME(M4J_NCCL_INVALID_ARGUMENT, ncclInvalidArgument);
SAME(M4J_NCCL_INVALID_USAGE, ncclInvalidUsage);
SAME(M4J_NCCL_REMOTE_ERROR, ncclRemoteError);
SAME(M4J_NCCL_IN_PROGRESS, ncclInProgress);
SAME(M4J_NCCL_TIMEOUT, ncclTimeout);
SAME(M4J_NCCL_INT8, ncclInt8);
SAME(M4J_NCCL_UINT8, ncclUint8);
SAME(M4J_NCCL_INT32, ncclInt32);
SAME(M4J_NCCL_UINT32, ncclUint32);
SAME(M4J_NCCL_INT64, ncclInt64);
SAME(M4J_NCCL_UINT64, ncclUint64);
SAME(M4J_NCCL_FLOAT16, ncclFloat16);
SAME(M4J_NCCL_FLOAT32, ncclFloat32);
SAME(M4J_NCCL_FLOAT64, ncclFloat64);
SAME(M4J_NCCL_BFLOAT16, ncclBfloat16);
SAME(M4J_NCCL_SUM, ncclSum);
SAME(M4J_NCCL_PROD, ncclProd);
SAME(M4J_NCCL_MAX, ncclMax);
SAME(M4J_NCCL_MIN, ncclMin);
SAME(M4J_NCCL_AVG, ncclAvg);
SAME(M4J_NCCL_UNIQUE_ID_BYTES, NCCL_UNIQUE_ID_BYTES);
SAME(sizeof(m4j_nccl_unique_id), sizeof(ncclUniqueId));
SAME(M4J_NCCL_SPLIT_NOCOLOR, NCCL_SPLIT_NOCOLOR);
SAME(M4J_NCCL_CONFIG_MAGIC, NCCL_API_MAGIC);
SAME(M4J_NCCL_CONFIG_UNDEF_INT, NCCL_CONFIG_UNDEF_INT);
SAME(M4J_NCCL_VERSION(2, 30, 7), NCCL_VERSION(2, 30, 7));
SAME(M4J_NCCL_VERSION(2, 8, 4), NCCL_VERSION(2, 8, 4));
/* Our config is a prefix of NCCL's: same offsets, never longer. */
_Static_assert(sizeof(m4j_nccl_config) <= sizeof(ncclConfig_t), "our ncclConfig_t prefix is longer than NCCL's");
#define SAME_FIELD(f) SAME(offsetof(m4j_nccl_config, f), offsetof(ncclConfig_t, f))
SAME_FIELD(size);
SAME_FIELD(magic);
SAME_FIELD(version);
SAME_FIELD(blocking);
SAME_FIELD(cgaClusterSize);
SAME_FIELD(minCTAs);
SAME_FIELD(maxCTAs);
SAME_FIELD(netName);
SAME_FIELD(splitShare);
#endif

#endif

/* ISO C wants at least one declaration in a translation unit. */
typedef int mpi4j_gpu_check_unit;
