/* The NCCL ABI the fake implements: the real nccl.h when the build found it (FAKE_HAVE_NCCL_H,
 * tests/native/CMakeLists.txt says which), otherwise these declarations of the public NCCL 2.30
 * ABI (values from the public header; ncclUniqueId is 128 bytes passed by value). */
#ifndef FAKE_NCCL_ABI_H
#define FAKE_NCCL_ABI_H

#include <cuda_runtime_api.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#ifdef FAKE_HAVE_NCCL_H
#include <nccl.h>
#else
#define NCCL_MAJOR 2
#define NCCL_MINOR 30
#define NCCL_PATCH 7
#define NCCL_VERSION_CODE 23007
#define NCCL_UNIQUE_ID_BYTES 128
#define NCCL_SPLIT_NOCOLOR -1
#define NCCL_CONFIG_UNDEF_INT INT_MIN
#define NCCL_API_MAGIC 0xcafebeef
typedef struct ncclComm *ncclComm_t;
typedef struct {
    char internal[NCCL_UNIQUE_ID_BYTES];
} ncclUniqueId;
typedef enum {
    ncclSuccess = 0,
    ncclUnhandledCudaError = 1,
    ncclSystemError = 2,
    ncclInternalError = 3,
    ncclInvalidArgument = 4,
    ncclInvalidUsage = 5,
    ncclRemoteError = 6,
    ncclInProgress = 7,
    ncclTimeout = 8,
    ncclNumResults = 9
} ncclResult_t;
typedef enum { ncclSum = 0, ncclProd = 1, ncclMax = 2, ncclMin = 3, ncclAvg = 4, ncclNumOps = 5,
               ncclMaxRedOp = 0x7fffffff } ncclRedOp_t;
typedef enum {
    ncclInt8 = 0, ncclChar = 0, ncclUint8 = 1, ncclInt32 = 2, ncclInt = 2, ncclUint32 = 3, ncclInt64 = 4,
    ncclUint64 = 5, ncclFloat16 = 6, ncclHalf = 6, ncclFloat32 = 7, ncclFloat = 7, ncclFloat64 = 8,
    ncclDouble = 8, ncclBfloat16 = 9, ncclFloat8e4m3 = 10, ncclFloat8e5m2 = 11, ncclNumTypes = 12
} ncclDataType_t;
/* The leading fields every ncclConfig_t version shares; the fake reads no others. */
typedef struct {
    size_t size;
    unsigned int magic;
    unsigned int version;
    int blocking;
} ncclConfig_t;

ncclResult_t ncclGetVersion(int *version);
ncclResult_t ncclGetUniqueId(ncclUniqueId *uniqueId);
ncclResult_t ncclCommInitRank(ncclComm_t *comm, int nranks, ncclUniqueId commId, int rank);
ncclResult_t ncclCommInitRankConfig(ncclComm_t *comm, int nranks, ncclUniqueId commId, int rank, ncclConfig_t *config);
ncclResult_t ncclCommSplit(ncclComm_t comm, int color, int key, ncclComm_t *newcomm, ncclConfig_t *config);
ncclResult_t ncclCommFinalize(ncclComm_t comm);
ncclResult_t ncclCommDestroy(ncclComm_t comm);
ncclResult_t ncclCommAbort(ncclComm_t comm);
ncclResult_t ncclCommGetAsyncError(ncclComm_t comm, ncclResult_t *asyncError);
ncclResult_t ncclCommCount(const ncclComm_t comm, int *count);
ncclResult_t ncclCommCuDevice(const ncclComm_t comm, int *device);
ncclResult_t ncclCommUserRank(const ncclComm_t comm, int *rank);
const char *ncclGetErrorString(ncclResult_t result);
const char *ncclGetLastError(ncclComm_t comm);
ncclResult_t ncclAllReduce(const void *sendbuff, void *recvbuff, size_t count, ncclDataType_t datatype, ncclRedOp_t op,
                           ncclComm_t comm, cudaStream_t stream);
ncclResult_t ncclBroadcast(const void *sendbuff, void *recvbuff, size_t count, ncclDataType_t datatype, int root,
                           ncclComm_t comm, cudaStream_t stream);
ncclResult_t ncclReduce(const void *sendbuff, void *recvbuff, size_t count, ncclDataType_t datatype, ncclRedOp_t op,
                        int root, ncclComm_t comm, cudaStream_t stream);
ncclResult_t ncclAllGather(const void *sendbuff, void *recvbuff, size_t sendcount, ncclDataType_t datatype,
                           ncclComm_t comm, cudaStream_t stream);
ncclResult_t ncclReduceScatter(const void *sendbuff, void *recvbuff, size_t recvcount, ncclDataType_t datatype,
                               ncclRedOp_t op, ncclComm_t comm, cudaStream_t stream);
ncclResult_t ncclSend(const void *sendbuff, size_t count, ncclDataType_t datatype, int peer, ncclComm_t comm,
                      cudaStream_t stream);
ncclResult_t ncclRecv(void *recvbuff, size_t count, ncclDataType_t datatype, int peer, ncclComm_t comm,
                      cudaStream_t stream);
ncclResult_t ncclGroupStart(void);
ncclResult_t ncclGroupEnd(void);
#endif

#endif
