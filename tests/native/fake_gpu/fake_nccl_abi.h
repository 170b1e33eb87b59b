/* The NCCL ABI the fake implements: the real nccl.h when the build found it (FAKE_HAVE_NCCL_H,
 * tests/native/CMakeLists.txt says which), otherwise these declarations of the public NCCL 2.30
 * ABI (values from the public header; ncclUniqueId is 128 bytes passed by value). */
#ifndef FAKE_NCCL_ABI_H
#define FAKE_NCCL_ABI_H

#include <cuda_runtime_api.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>

/* The enum values of the public NCCL 2.30 ABI, once: declared from here without nccl.h, and
 * checked against nccl.h when it is there (so the declarations CI uses are the header's). */
#define FAKE_NCCL_RESULTS(X)                                                                       \
    X(ncclSuccess, 0) X(ncclUnhandledCudaError, 1) X(ncclSystemError, 2) X(ncclInternalError, 3)     \
    X(ncclInvalidArgument, 4) X(ncclInvalidUsage, 5) X(ncclRemoteError, 6) X(ncclInProgress, 7)      \
    X(ncclTimeout, 8) X(ncclNumResults, 9)
#define FAKE_NCCL_OPS(X) X(ncclSum, 0) X(ncclProd, 1) X(ncclMax, 2) X(ncclMin, 3) X(ncclAvg, 4) X(ncclNumOps, 5)
#define FAKE_NCCL_TYPES(X)                                                                         \
    X(ncclInt8, 0) X(ncclChar, 0) X(ncclUint8, 1) X(ncclInt32, 2) X(ncclInt, 2) X(ncclUint32, 3)     \
    X(ncclInt64, 4) X(ncclUint64, 5) X(ncclFloat16, 6) X(ncclHalf, 6) X(ncclFloat32, 7)              \
    X(ncclFloat, 7) X(ncclFloat64, 8) X(ncclDouble, 8) X(ncclBfloat16, 9) X(ncclFloat8e4m3, 10)      \
    X(ncclFloat8e5m2, 11) X(ncclNumTypes, 12)
#define FAKE_NCCL_API_MAGIC 0xcafebeef
#define FAKE_NCCL_UNIQUE_ID_BYTES 128
/* The leading fields every ncclConfig_t version shares; the fake reads no others. */
#define FAKE_NCCL_CONFIG_HEAD                                                                      \
    size_t size;                                                                                   \
    unsigned int magic;                                                                            \
    unsigned int version;                                                                          \
    int blocking;

#ifdef FAKE_HAVE_NCCL_H
#include <nccl.h>
#define FAKE_NCCL_CHECK(name, value) _Static_assert(name == value, #name " differs from nccl.h");
FAKE_NCCL_RESULTS(FAKE_NCCL_CHECK)
FAKE_NCCL_OPS(FAKE_NCCL_CHECK)
FAKE_NCCL_TYPES(FAKE_NCCL_CHECK)
_Static_assert(NCCL_API_MAGIC == FAKE_NCCL_API_MAGIC, "NCCL_API_MAGIC differs from nccl.h");
_Static_assert(sizeof(ncclUniqueId) == FAKE_NCCL_UNIQUE_ID_BYTES, "ncclUniqueId size differs from nccl.h");
struct fake_nccl_config_head { FAKE_NCCL_CONFIG_HEAD };
_Static_assert(offsetof(ncclConfig_t, blocking) == offsetof(struct fake_nccl_config_head, blocking) &&
               offsetof(ncclConfig_t, version) == offsetof(struct fake_nccl_config_head, version),
               "ncclConfig_t's leading fields differ from nccl.h");
#else
#define NCCL_MAJOR 2
#define NCCL_MINOR 30
#define NCCL_PATCH 7
#define NCCL_VERSION_CODE 23007
#define NCCL_UNIQUE_ID_BYTES FAKE_NCCL_UNIQUE_ID_BYTES
#define NCCL_SPLIT_NOCOLOR -1
#define NCCL_CONFIG_UNDEF_INT INT_MIN
#define NCCL_API_MAGIC FAKE_NCCL_API_MAGIC
#define FAKE_NCCL_ENUM(name, value) name = value,
typedef struct ncclComm *ncclComm_t;
typedef struct {
    char internal[NCCL_UNIQUE_ID_BYTES];
} ncclUniqueId;
typedef enum { FAKE_NCCL_RESULTS(FAKE_NCCL_ENUM) } ncclResult_t;
typedef enum { FAKE_NCCL_OPS(FAKE_NCCL_ENUM) ncclMaxRedOp = 0x7fffffff } ncclRedOp_t;
typedef enum { FAKE_NCCL_TYPES(FAKE_NCCL_ENUM) } ncclDataType_t;
typedef struct {
    FAKE_NCCL_CONFIG_HEAD
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
