/* Tests of the fake CUDA runtime + NCCL pair itself, run by FakeGpuLibraryTest:
 *   fake_gpu_test <scenario> [np]        forks np ranks (default 1); exit 0 and "PASS" when all pass
 *   fake_gpu_test strings <libcudart> <libnccl>   compares error texts with the real libraries
 * Expected values are computed here from rank and size, independently of the fake's code. */
#define _GNU_SOURCE
#include "fake_nccl_abi.h"

#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int g_rank, g_np;
static ncclUniqueId g_id, g_id2;
static int g_failures;

static void fail(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "rank %d: FAIL: ", g_rank);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    g_failures++;
}

#define EXPECT_CUDA(call, want)                                                                    \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != (want)) fail("%s:%d %s = %d (%s), expected %d", __FILE__, __LINE__, #call, (int)e_, \
                               cudaGetErrorName(e_), (int)(want));                                 \
    } while (0)
#define EXPECT_NCCL(call, want)                                                                    \
    do {                                                                                           \
        ncclResult_t r_ = (call);                                                                  \
        if (r_ != (want)) fail("%s:%d %s = %d (%s; %s), expected %d", __FILE__, __LINE__, #call, (int)r_, \
                               ncclGetErrorString(r_), ncclGetLastError(NULL), (int)(want));        \
    } while (0)
#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) fail(__VA_ARGS__);                                                            \
    } while (0)

static void expect_last_error(const char *part);

static ncclComm_t world(void) {
    ncclComm_t c = NULL;
    EXPECT_CUDA(cudaSetDevice(g_rank % 4), cudaSuccess);
    EXPECT_NCCL(ncclCommInitRank(&c, g_np, g_id, g_rank), ncclSuccess);
    return c;
}

static void *dev_alloc(size_t bytes) {
    void *p = NULL;
    EXPECT_CUDA(cudaMalloc(&p, bytes), cudaSuccess);
    return p;
}

/* --- memory: registry and pointer checks ------------------------------------------------ */

static void *other_thread_device(void *unused) {
    (void)unused;
    int d = -1;
    cudaGetDevice(&d);
    return (void *)(intptr_t)d;
}

static void scenario_memory(void) {
    int n = -1;
    EXPECT_CUDA(cudaGetDeviceCount(&n), cudaSuccess);
    CHECK(n == 3, "device count %d, FAKE_GPU_DEVICES=3", n);
    EXPECT_CUDA(cudaSetDevice(3), cudaErrorInvalidDevice);
    EXPECT_CUDA(cudaGetLastError(), cudaErrorInvalidDevice);
    EXPECT_CUDA(cudaGetLastError(), cudaSuccess);
    EXPECT_CUDA(cudaSetDevice(2), cudaSuccess);
    pthread_t t;
    void *other = NULL;
    pthread_create(&t, NULL, other_thread_device, NULL);
    pthread_join(t, &other);
    CHECK((intptr_t)other == 0, "a new thread's device is %d, not 0", (int)(intptr_t)other);

    char host[64], back[64];
    for (int i = 0; i < 64; i++) host[i] = (char)i;
    char *d = dev_alloc(64);
    EXPECT_CUDA(cudaMemcpy(d, host, 64, cudaMemcpyHostToDevice), cudaSuccess);
    EXPECT_CUDA(cudaMemcpy(back, d, 64, cudaMemcpyDeviceToHost), cudaSuccess);
    CHECK(memcmp(host, back, 64) == 0, "round trip through device memory");
    /* Past the end, host pointer where device memory is required, wrong direction, bad kind. */
    EXPECT_CUDA(cudaMemcpy(d + 1, host, 64, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    CHECK(strcmp(cudaGetErrorString(cudaGetLastError()), "invalid argument") == 0, "error text");
    EXPECT_CUDA(cudaMemcpy(back, host, 8, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    EXPECT_CUDA(cudaMemcpy(d, host, 8, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
    EXPECT_CUDA(cudaMemcpy(d, host, 8, (enum cudaMemcpyKind)7), cudaErrorInvalidMemcpyDirection);
    EXPECT_CUDA(cudaMemset(d + 60, 0, 8), cudaErrorInvalidValue);
    EXPECT_CUDA(cudaMemset(host, 0, 8), cudaErrorInvalidValue);
    EXPECT_CUDA(cudaFree(host), cudaErrorInvalidValue);
    EXPECT_CUDA(cudaFree(d + 1), cudaErrorInvalidValue);
    EXPECT_CUDA(cudaMemcpy(d, host, 8, cudaMemcpyDefault), cudaSuccess);

    struct cudaPointerAttributes a;
    EXPECT_CUDA(cudaPointerGetAttributes(&a, d + 10), cudaSuccess);
    CHECK(a.type == cudaMemoryTypeDevice && a.device == 2, "device pointer attributes: type %d device %d", a.type, a.device);
    EXPECT_CUDA(cudaPointerGetAttributes(&a, host), cudaSuccess);
    CHECK(a.type == cudaMemoryTypeUnregistered, "host pointer attributes: type %d", a.type);
    void *pinned = NULL;
    EXPECT_CUDA(cudaMallocHost(&pinned, 16), cudaSuccess);
    EXPECT_CUDA(cudaPointerGetAttributes(&a, pinned), cudaSuccess);
    CHECK(a.type == cudaMemoryTypeHost, "pinned pointer attributes: type %d", a.type);
    EXPECT_CUDA(cudaFreeHost(pinned), cudaSuccess);
    EXPECT_CUDA(cudaFree(d), cudaSuccess);
    EXPECT_CUDA(cudaFree(d), cudaErrorInvalidValue); /* twice */
    EXPECT_CUDA(cudaFree(NULL), cudaSuccess);
    void *zero = (void *)1;
    EXPECT_CUDA(cudaMalloc(&zero, 0), cudaSuccess);
    CHECK(zero == NULL, "cudaMalloc of 0 bytes gives NULL");
    EXPECT_CUDA(cudaMalloc(NULL, 8), cudaErrorInvalidValue);
}

/* FAKE_GPU_DEVICES=0: a machine without a GPU, as the real runtime reports it. */
static void scenario_nodevice(void) {
    int n = -1;
    EXPECT_CUDA(cudaGetDeviceCount(&n), cudaErrorNoDevice);
    CHECK(n == 0, "device count %d", n);
    void *p = NULL;
    EXPECT_CUDA(cudaMalloc(&p, 16), cudaErrorNoDevice);
    EXPECT_CUDA(cudaSetDevice(0), cudaErrorNoDevice);
    CHECK(strcmp(cudaGetErrorString(cudaGetLastError()), "no CUDA-capable device is detected") == 0, "error text");
    ncclComm_t comm = NULL;
    EXPECT_NCCL(ncclCommInitRank(&comm, 1, g_id, 0), ncclUnhandledCudaError);
    expect_last_error("no CUDA-capable device");
}

/* --- streams: work runs at synchronization points --------------------------------------- */

static void scenario_streams(void) {
    EXPECT_CUDA(cudaSetDevice(0), cudaSuccess);
    int *d = dev_alloc(4 * sizeof(int));
    int *pinned = NULL;
    EXPECT_CUDA(cudaMallocHost((void **)&pinned, 4 * sizeof(int)), cudaSuccess);
    int ones[4] = {1, 1, 1, 1}, got[4];
    EXPECT_CUDA(cudaMemcpy(d, ones, sizeof ones, cudaMemcpyHostToDevice), cudaSuccess);

    /* A non-blocking stream's copy is not seen by a blocking cudaMemcpy until it is synchronized. */
    cudaStream_t nb, a, b;
    EXPECT_CUDA(cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking), cudaSuccess);
    int sevens[4] = {7, 7, 7, 7};
    EXPECT_CUDA(cudaMemcpyAsync(d, sevens, sizeof sevens, cudaMemcpyHostToDevice, nb), cudaSuccess);
    EXPECT_CUDA(cudaMemcpy(got, d, sizeof got, cudaMemcpyDeviceToHost), cudaSuccess);
    CHECK(got[0] == 1, "unsynchronized non-blocking stream: read %d, expected the old 1", got[0]);
    EXPECT_CUDA(cudaStreamSynchronize(nb), cudaSuccess);
    EXPECT_CUDA(cudaMemcpy(got, d, sizeof got, cudaMemcpyDeviceToHost), cudaSuccess);
    CHECK(got[0] == 7, "after cudaStreamSynchronize: read %d, expected 7", got[0]);

    /* Pageable host memory, as the real runtime: the source of an async host-to-device copy is
     * staged at the call; an async copy into pageable memory is complete on return. */
    int fresh[4] = {9, 9, 9, 9};
    EXPECT_CUDA(cudaMemcpyAsync(d, fresh, sizeof fresh, cudaMemcpyHostToDevice, nb), cudaSuccess);
    fresh[0] = 10; /* too late: the copy took the 9s */
    int late[4] = {0};
    EXPECT_CUDA(cudaMemcpyAsync(late, d, sizeof late, cudaMemcpyDeviceToHost, nb), cudaSuccess);
    CHECK(late[0] == 9, "async copy into pageable memory: read %d on return, expected 9", late[0]);

    /* A blocking stream's work is ordered before a later legacy-stream copy. */
    EXPECT_CUDA(cudaStreamCreateWithFlags(&a, cudaStreamDefault), cudaSuccess);
    EXPECT_CUDA(cudaMemsetAsync(d, 0, sizeof ones, a), cudaSuccess);
    EXPECT_CUDA(cudaMemcpy(got, d, sizeof got, cudaMemcpyDeviceToHost), cudaSuccess);
    CHECK(got[3] == 0, "legacy copy after a blocking stream's memset read %d, expected 0", got[3]);

    /* An async copy into pinned memory is stale until synchronized; an event orders two streams. */
    EXPECT_CUDA(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking), cudaSuccess);
    cudaEvent_t ev;
    EXPECT_CUDA(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming), cudaSuccess);
    pinned[0] = -1;
    EXPECT_CUDA(cudaMemsetAsync(d, 0x01, sizeof ones, nb), cudaSuccess);
    EXPECT_CUDA(cudaEventRecord(ev, nb), cudaSuccess);
    EXPECT_CUDA(cudaEventQuery(ev), cudaSuccess); /* a query runs the work it asks about */
    EXPECT_CUDA(cudaMemsetAsync(d, 0x02, sizeof ones, nb), cudaSuccess);
    EXPECT_CUDA(cudaEventRecord(ev, nb), cudaSuccess);
    EXPECT_CUDA(cudaStreamWaitEvent(b, ev, 0), cudaSuccess);
    EXPECT_CUDA(cudaMemcpyAsync(pinned, d, sizeof ones, cudaMemcpyDeviceToHost, b), cudaSuccess);
    CHECK(pinned[0] == -1, "async copy into pinned memory ran before any synchronization");
    EXPECT_CUDA(cudaStreamSynchronize(b), cudaSuccess); /* runs nb's memset first (the event) */
    CHECK(pinned[0] == 0x02020202, "stream b waited for the event: read %#x, expected 0x02020202", pinned[0]);
    EXPECT_CUDA(cudaStreamQuery(nb), cudaSuccess);

    /* Device synchronize runs everything; a destroyed stream's queued work still runs. */
    EXPECT_CUDA(cudaMemsetAsync(d, 0x03, sizeof ones, a), cudaSuccess);
    EXPECT_CUDA(cudaStreamDestroy(a), cudaSuccess);
    EXPECT_CUDA(cudaStreamSynchronize(a), cudaErrorInvalidResourceHandle);
    EXPECT_CUDA(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_CUDA(cudaMemcpy(got, d, sizeof got, cudaMemcpyDeviceToHost), cudaSuccess);
    CHECK(got[1] == 0x03030303, "destroyed stream's memset: %#x", got[1]);
    EXPECT_CUDA(cudaEventDestroy(ev), cudaSuccess);
    EXPECT_CUDA(cudaEventQuery(ev), cudaErrorInvalidResourceHandle);

    /* cudaMemcpy from pageable memory to the device, and device to device, may return before the
     * copy is done: it is queued on the legacy stream, which a non-blocking stream does not wait
     * for; a legacy-stream synchronize or a blocking stream does. From pinned memory it is done. */
    int *d2 = dev_alloc(sizeof ones);
    int twos[4] = {2, 2, 2, 2};
    EXPECT_CUDA(cudaMemcpy(d2, twos, sizeof twos, cudaMemcpyHostToDevice), cudaSuccess);
    twos[0] = 20; /* too late: the source was staged */
    EXPECT_CUDA(cudaMemcpyAsync(pinned, d2, sizeof ones, cudaMemcpyDeviceToHost, nb), cudaSuccess);
    EXPECT_CUDA(cudaStreamSynchronize(nb), cudaSuccess);
    CHECK(pinned[0] == (int)0xA5A5A5A5, "pageable cudaMemcpy seen by a non-blocking stream: %#x", pinned[0]);
    EXPECT_CUDA(cudaStreamSynchronize(NULL), cudaSuccess);
    EXPECT_CUDA(cudaMemcpyAsync(pinned, d2, sizeof ones, cudaMemcpyDeviceToHost, nb), cudaSuccess);
    EXPECT_CUDA(cudaStreamSynchronize(nb), cudaSuccess);
    CHECK(pinned[0] == 2, "pageable cudaMemcpy after the legacy stream's synchronize: %d, expected 2", pinned[0]);
    EXPECT_CUDA(cudaMemcpy(d, d2, sizeof ones, cudaMemcpyDeviceToDevice), cudaSuccess);
    EXPECT_CUDA(cudaMemcpyAsync(pinned, d, sizeof ones, cudaMemcpyDeviceToHost, nb), cudaSuccess);
    EXPECT_CUDA(cudaStreamSynchronize(nb), cudaSuccess);
    CHECK(pinned[1] == 0x03030303, "device-to-device cudaMemcpy seen by a non-blocking stream: %#x", pinned[1]);
    cudaStream_t blocking;
    EXPECT_CUDA(cudaStreamCreateWithFlags(&blocking, cudaStreamDefault), cudaSuccess);
    EXPECT_CUDA(cudaMemcpyAsync(pinned, d, sizeof ones, cudaMemcpyDeviceToHost, blocking), cudaSuccess);
    EXPECT_CUDA(cudaStreamSynchronize(blocking), cudaSuccess);
    CHECK(pinned[1] == 2, "a blocking stream after a device-to-device cudaMemcpy: %#x, expected 2", pinned[1]);
    for (int i = 0; i < 4; i++) pinned[i] = 5;
    EXPECT_CUDA(cudaMemcpy(d2, pinned, sizeof ones, cudaMemcpyHostToDevice), cudaSuccess);
    EXPECT_CUDA(cudaMemcpyAsync(late, d2, sizeof late, cudaMemcpyDeviceToHost, nb), cudaSuccess);
    CHECK(late[3] == 5, "cudaMemcpy from pinned memory not done on return: %d, expected 5", late[3]);
    EXPECT_CUDA(cudaStreamDestroy(blocking), cudaSuccess);
    EXPECT_CUDA(cudaFree(d2), cudaSuccess);
    EXPECT_CUDA(cudaStreamDestroy(nb), cudaSuccess);
    EXPECT_CUDA(cudaStreamDestroy(b), cudaSuccess);
}

/* --- collectives: every type and op against references from rank and size --------------- */

static const ncclDataType_t TYPES[] = {ncclInt8, ncclUint8, ncclInt32, ncclUint32, ncclInt64, ncclUint64,
                                       ncclFloat16, ncclFloat32, ncclFloat64, ncclBfloat16, ncclFloat8e4m3,
                                       ncclFloat8e5m2};
static const size_t SIZES[] = {1, 1, 4, 4, 8, 8, 2, 4, 8, 2, 1, 1};

/* Small integers, exact in every type; products stay within e4m3's range. */
static int value(int rank, size_t i, ncclRedOp_t op) {
    return op == ncclProd ? 1 + (int)((rank + i) % 2) : 1 + rank + (int)(i % 3);
}

/* Host encodings of small exact integers into the 16/8-bit float formats (independent of the
 * fake: exponent/mantissa built directly). */
static uint32_t enc_small(int v, int exp_bits, int man_bits) {
    if (v == 0) return 0;
    int e = 0;
    while ((v >> (e + 1)) != 0) e++;
    int bias = (1 << (exp_bits - 1)) - 1;
    uint32_t mant = (uint32_t)(((long)v << man_bits) >> e) & ((1u << man_bits) - 1);
    return (uint32_t)(e + bias) << man_bits | mant;
}

static double dec_small(uint32_t bits, int exp_bits, int man_bits) {
    int bias = (1 << (exp_bits - 1)) - 1;
    int e = (int)(bits >> man_bits & ((1u << exp_bits) - 1));
    double m = (double)(bits & ((1u << man_bits) - 1)) / (double)(1u << man_bits);
    double v = e == 0 ? ldexp(m, 1 - bias) : ldexp(1 + m, e - bias);
    return (bits >> (exp_bits + man_bits)) & 1 ? -v : v;
}

static void put(void *buf, size_t i, ncclDataType_t t, int v) {
    switch (t) {
        case ncclInt8: ((int8_t *)buf)[i] = (int8_t)v; break;
        case ncclUint8: ((uint8_t *)buf)[i] = (uint8_t)v; break;
        case ncclInt32: ((int32_t *)buf)[i] = v; break;
        case ncclUint32: ((uint32_t *)buf)[i] = (uint32_t)v; break;
        case ncclInt64: ((int64_t *)buf)[i] = v; break;
        case ncclUint64: ((uint64_t *)buf)[i] = (uint64_t)v; break;
        case ncclFloat32: ((float *)buf)[i] = (float)v; break;
        case ncclFloat64: ((double *)buf)[i] = v; break;
        case ncclFloat16: ((uint16_t *)buf)[i] = (uint16_t)enc_small(v, 5, 10); break;
        case ncclBfloat16: ((uint16_t *)buf)[i] = (uint16_t)enc_small(v, 8, 7); break;
        case ncclFloat8e4m3: ((uint8_t *)buf)[i] = (uint8_t)enc_small(v, 4, 3); break;
        case ncclFloat8e5m2: ((uint8_t *)buf)[i] = (uint8_t)enc_small(v, 5, 2); break;
        default: break;
    }
}

static double get(const void *buf, size_t i, ncclDataType_t t) {
    switch (t) {
        case ncclInt8: return ((const int8_t *)buf)[i];
        case ncclUint8: return ((const uint8_t *)buf)[i];
        case ncclInt32: return ((const int32_t *)buf)[i];
        case ncclUint32: return ((const uint32_t *)buf)[i];
        case ncclInt64: return (double)((const int64_t *)buf)[i];
        case ncclUint64: return (double)((const uint64_t *)buf)[i];
        case ncclFloat32: return ((const float *)buf)[i];
        case ncclFloat64: return ((const double *)buf)[i];
        case ncclFloat16: return dec_small(((const uint16_t *)buf)[i], 5, 10);
        case ncclBfloat16: return dec_small(((const uint16_t *)buf)[i], 8, 7);
        case ncclFloat8e4m3: return dec_small(((const uint8_t *)buf)[i], 4, 3);
        case ncclFloat8e5m2: return dec_small(((const uint8_t *)buf)[i], 5, 2);
        default: return NAN;
    }
}

static int is_int(ncclDataType_t t) { return t <= ncclUint64; }

static double expected(ncclRedOp_t op, size_t i, ncclDataType_t t) {
    double acc = op == ncclProd ? 1 : op == ncclMax ? -1e30 : op == ncclMin ? 1e30 : 0;
    for (int r = 0; r < g_np; r++) {
        double v = value(r, i, op);
        acc = op == ncclProd ? acc * v : op == ncclMax ? fmax(acc, v) : op == ncclMin ? fmin(acc, v) : acc + v;
    }
    if (op == ncclAvg) acc = is_int(t) ? trunc(acc / g_np) : acc / g_np;
    return acc;
}

/* Relative tolerance: results that are not exact in the type (averages) round once. */
static double tolerance(ncclDataType_t t) {
    switch (t) {
        case ncclFloat16: return 1.0 / 1024;
        case ncclBfloat16: return 1.0 / 128;
        case ncclFloat8e4m3: return 1.0 / 8;
        case ncclFloat8e5m2: return 1.0 / 4;
        case ncclFloat32: return 1e-6;
        default: return 0;
    }
}

/* cudaMemcpy from pageable memory may leave the copy queued on the legacy stream, which the
 * non-blocking streams used for NCCL here do not wait for: synchronize it, as a real program must. */
static void copy_in(void *dev, const void *host, size_t bytes) {
    EXPECT_CUDA(cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice), cudaSuccess);
    EXPECT_CUDA(cudaStreamSynchronize(NULL), cudaSuccess);
}

static void copy_out(void *host, const void *dev, size_t bytes, cudaStream_t s) {
    EXPECT_CUDA(cudaStreamSynchronize(s), cudaSuccess);
    EXPECT_CUDA(cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost), cudaSuccess);
}

static void allreduce_all_types(ncclComm_t comm, cudaStream_t s) {
    const size_t count = 7;
    char host[7 * 8], out[7 * 8];
    void *send = dev_alloc(sizeof host), *recv = dev_alloc(sizeof host);
    for (size_t ti = 0; ti < sizeof TYPES / sizeof TYPES[0]; ti++) {
        for (int op = ncclSum; op <= ncclAvg; op++) {
            ncclDataType_t t = TYPES[ti];
            for (size_t i = 0; i < count; i++) put(host, i, t, value(g_rank, i, (ncclRedOp_t)op));
            copy_in(send, host, count * SIZES[ti]);
            EXPECT_NCCL(ncclAllReduce(send, recv, count, t, (ncclRedOp_t)op, comm, s), ncclSuccess);
            copy_out(out, recv, count * SIZES[ti], s);
            for (size_t i = 0; i < count; i++) {
                double want = expected((ncclRedOp_t)op, i, t), got = get(out, i, t);
                CHECK(fabs(got - want) <= tolerance(t) * fabs(want), "allreduce type %d op %d [%zu]: %g, expected %g",
                      (int)t, op, i, got, want);
            }
        }
    }
    EXPECT_CUDA(cudaFree(send), cudaSuccess);
    EXPECT_CUDA(cudaFree(recv), cudaSuccess);
}

static void other_collectives(ncclComm_t comm, cudaStream_t s) {
    const size_t count = 5;
    int n = g_np;
    int32_t host[64], out[64];
    int32_t *send = dev_alloc(sizeof host), *recv = dev_alloc(sizeof host);
    /* broadcast from the last rank */
    for (size_t i = 0; i < count; i++) host[i] = 100 * g_rank + (int)i;
    copy_in(send, host, count * 4);
    EXPECT_NCCL(ncclBroadcast(send, recv, count, ncclInt32, n - 1, comm, s), ncclSuccess);
    copy_out(out, recv, count * 4, s);
    for (size_t i = 0; i < count; i++) CHECK(out[i] == 100 * (n - 1) + (int)i, "bcast [%zu] = %d", i, out[i]);
    /* reduce (sum) to rank 1 % n; other ranks pass recvbuff NULL */
    int root = 1 % n;
    EXPECT_NCCL(ncclReduce(send, g_rank == root ? recv : NULL, count, ncclInt32, ncclSum, root, comm, s), ncclSuccess);
    copy_out(out, recv, count * 4, s);
    if (g_rank == root) {
        for (size_t i = 0; i < count; i++) {
            CHECK(out[i] == 100 * n * (n - 1) / 2 + n * (int)i, "reduce [%zu] = %d", i, out[i]);
        }
    }
    /* allgather */
    EXPECT_NCCL(ncclAllGather(send, recv, count, ncclInt32, comm, s), ncclSuccess);
    copy_out(out, recv, n * count * 4, s);
    for (int r = 0; r < n; r++) {
        for (size_t i = 0; i < count; i++) CHECK(out[r * count + i] == 100 * r + (int)i, "allgather [%d][%zu]", r, i);
    }
    /* reduce-scatter: element j of rank r's input is r * 1000 + j */
    for (size_t j = 0; j < n * count; j++) host[j] = g_rank * 1000 + (int)j;
    copy_in(send, host, n * count * 4);
    EXPECT_NCCL(ncclReduceScatter(send, recv, count, ncclInt32, ncclMax, comm, s), ncclSuccess);
    copy_out(out, recv, count * 4, s);
    for (size_t i = 0; i < count; i++) {
        CHECK(out[i] == (n - 1) * 1000 + (int)(g_rank * count + i), "reducescatter [%zu] = %d", i, out[i]);
    }
    /* in-place allreduce */
    EXPECT_NCCL(ncclAllReduce(send, send, count, ncclInt32, ncclSum, comm, s), ncclSuccess);
    copy_out(out, send, count * 4, s);
    for (size_t i = 0; i < count; i++) CHECK(out[i] == 1000 * n * (n - 1) / 2 + n * (int)i, "in-place [%zu]", i);
    /* a ring of send/recv in a group */
    for (size_t i = 0; i < count; i++) host[i] = 10 * g_rank + (int)i;
    copy_in(send, host, count * 4);
    EXPECT_NCCL(ncclGroupStart(), ncclSuccess);
    EXPECT_NCCL(ncclSend(send, count, ncclInt32, (g_rank + 1) % n, comm, s), ncclSuccess);
    EXPECT_NCCL(ncclRecv(recv, count, ncclInt32, (g_rank + n - 1) % n, comm, s), ncclSuccess);
    EXPECT_NCCL(ncclGroupEnd(), ncclSuccess);
    copy_out(out, recv, count * 4, s);
    for (size_t i = 0; i < count; i++) CHECK(out[i] == 10 * ((g_rank + n - 1) % n) + (int)i, "ring recv [%zu]", i);
    /* a group over two streams joins them: the send (first stream) waits for the second stream's
     * earlier copy, and the second stream's later copy waits for the group */
    cudaStream_t s2;
    EXPECT_CUDA(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking), cudaSuccess);
    int32_t *pinned = NULL;
    EXPECT_CUDA(cudaMallocHost((void **)&pinned, count * 4), cudaSuccess);
    for (size_t i = 0; i < count; i++) host[i] = 77 * g_rank + (int)i;
    EXPECT_CUDA(cudaMemcpyAsync(send, host, count * 4, cudaMemcpyHostToDevice, s2), cudaSuccess);
    EXPECT_NCCL(ncclGroupStart(), ncclSuccess);
    EXPECT_NCCL(ncclSend(send, count, ncclInt32, (g_rank + 1) % n, comm, s), ncclSuccess);
    EXPECT_NCCL(ncclRecv(recv, count, ncclInt32, (g_rank + n - 1) % n, comm, s2), ncclSuccess);
    EXPECT_NCCL(ncclGroupEnd(), ncclSuccess);
    EXPECT_CUDA(cudaMemcpyAsync(pinned, recv, count * 4, cudaMemcpyDeviceToHost, s2), cudaSuccess);
    EXPECT_CUDA(cudaStreamSynchronize(s2), cudaSuccess);
    for (size_t i = 0; i < count; i++) {
        CHECK(pinned[i] == 77 * ((g_rank + n - 1) % n) + (int)i, "two-stream group recv [%zu] = %d", i, pinned[i]);
    }
    EXPECT_CUDA(cudaFreeHost(pinned), cudaSuccess);
    EXPECT_CUDA(cudaStreamDestroy(s2), cudaSuccess);
    /* count 0 is a no-op */
    EXPECT_NCCL(ncclAllReduce(send, recv, 0, ncclInt32, ncclSum, comm, s), ncclSuccess);
    EXPECT_CUDA(cudaFree(send), cudaSuccess);
    EXPECT_CUDA(cudaFree(recv), cudaSuccess);
}

static void split(ncclComm_t comm, cudaStream_t s) {
    ncclComm_t sub = NULL;
    int color = g_rank % 2, key = -g_rank; /* reversed order inside each color */
    EXPECT_NCCL(ncclCommSplit(comm, color, key, &sub, NULL), ncclSuccess);
    if (sub == NULL) return;
    int size = 0, rank = -1, members = (g_np + 1 - color) / 2;
    EXPECT_NCCL(ncclCommCount(sub, &size), ncclSuccess);
    EXPECT_NCCL(ncclCommUserRank(sub, &rank), ncclSuccess);
    CHECK(size == members, "split size %d, expected %d", size, members);
    CHECK(rank == (g_np - 1 - g_rank) / 2, "split rank %d, expected %d", rank, (g_np - 1 - g_rank) / 2);
    int32_t *d = dev_alloc(4), v = g_rank, out = 0;
    copy_in(d, &v, 4);
    EXPECT_NCCL(ncclAllReduce(d, d, 1, ncclInt32, ncclSum, sub, s), ncclSuccess);
    copy_out(&out, d, 4, s);
    int want = 0;
    for (int r = color; r < g_np; r += 2) want += r;
    CHECK(out == want, "allreduce on the split: %d, expected %d", out, want);
    EXPECT_NCCL(ncclCommDestroy(sub), ncclSuccess);
    EXPECT_CUDA(cudaFree(d), cudaSuccess);
}

/* Splits in a row, a different third of the ranks NCCL_SPLIT_NOCOLOR each time: a NOCOLOR rank
 * returns at once and splits again, which must not disturb ranks still reading the last split. */
static void splits_with_nocolor(ncclComm_t comm) {
    for (int round = 0; round < 12; round++) {
        int out = (g_rank + round) % 3 == 0, color = g_rank % 2;
        ncclComm_t sub = (ncclComm_t)1;
        EXPECT_NCCL(ncclCommSplit(comm, out ? NCCL_SPLIT_NOCOLOR : color, g_rank, &sub, NULL), ncclSuccess);
        if (out) {
            CHECK(sub == NULL, "round %d: a NOCOLOR rank got a communicator", round);
            continue;
        }
        int members = 0, below = 0, size = -1, rank = -1;
        for (int r = 0; r < g_np; r++) {
            if ((r + round) % 3 == 0 || r % 2 != color) continue;
            members++;
            if (r < g_rank) below++;
        }
        EXPECT_NCCL(ncclCommCount(sub, &size), ncclSuccess);
        EXPECT_NCCL(ncclCommUserRank(sub, &rank), ncclSuccess);
        CHECK(size == members && rank == below, "round %d: size %d rank %d, expected %d and %d", round, size, rank,
              members, below);
        EXPECT_NCCL(ncclCommDestroy(sub), ncclSuccess);
    }
}

static void scenario_collectives(void) {
    ncclComm_t comm = world();
    if (comm == NULL) return;
    int n = 0, r = -1, dev = -1;
    EXPECT_NCCL(ncclCommCount(comm, &n), ncclSuccess);
    EXPECT_NCCL(ncclCommUserRank(comm, &r), ncclSuccess);
    EXPECT_NCCL(ncclCommCuDevice(comm, &dev), ncclSuccess);
    CHECK(n == g_np && r == g_rank && dev == g_rank % 4, "count %d rank %d device %d", n, r, dev);
    cudaStream_t s;
    EXPECT_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
    allreduce_all_types(comm, s);
    other_collectives(comm, s);
    split(comm, s);
    splits_with_nocolor(comm);
    ncclResult_t async = ncclInternalError;
    EXPECT_NCCL(ncclCommGetAsyncError(comm, &async), ncclSuccess);
    CHECK(async == ncclSuccess, "async error %d", async);
    EXPECT_NCCL(ncclCommFinalize(comm), ncclSuccess);
    EXPECT_NCCL(ncclCommDestroy(comm), ncclSuccess);
    EXPECT_CUDA(cudaStreamDestroy(s), cudaSuccess);
}

/* --- NCCL's argument checks ------------------------------------------------------------- */

static void expect_last_error(const char *part) {
    const char *e = ncclGetLastError(NULL);
    CHECK(strstr(e, part) != NULL, "ncclGetLastError \"%s\" lacks \"%s\"", e, part);
}

static void scenario_argchecks(void) {
    ncclComm_t comm = world();
    if (comm == NULL) return;
    char host[64];
    char *d = dev_alloc(64);
    cudaStream_t s;
    EXPECT_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
    EXPECT_NCCL(ncclAllReduce(host, d, 4, ncclInt32, ncclSum, comm, s), ncclInvalidArgument);
    expect_last_error("sendbuff");
    EXPECT_NCCL(ncclAllReduce(d, host, 4, ncclInt32, ncclSum, comm, s), ncclInvalidArgument);
    expect_last_error("recvbuff");
    EXPECT_NCCL(ncclAllReduce(d, d, 17, ncclInt32, ncclSum, comm, s), ncclInvalidArgument); /* 68 > 64 bytes */
    EXPECT_NCCL(ncclAllGather(d, d, 64 / g_np / 4 + 1, ncclInt32, comm, s), ncclInvalidArgument);
    EXPECT_NCCL(ncclAllReduce(d, d, 4, (ncclDataType_t)ncclNumTypes, ncclSum, comm, s), ncclInvalidArgument);
    expect_last_error("invalid type");
    EXPECT_NCCL(ncclAllReduce(d, d, 4, ncclInt32, (ncclRedOp_t)ncclNumOps, comm, s), ncclInvalidArgument);
    EXPECT_NCCL(ncclBroadcast(d, d, 4, ncclInt32, g_np, comm, s), ncclInvalidArgument);
    expect_last_error("root");
    EXPECT_NCCL(ncclSend(d, 4, ncclInt32, -1, comm, s), ncclInvalidArgument);
    EXPECT_NCCL(ncclAllReduce(d, d, 4, ncclInt32, ncclSum, NULL, s), ncclInvalidArgument);
    EXPECT_NCCL(ncclAllReduce(d, d, 4, ncclInt32, ncclSum, comm, (cudaStream_t)host), ncclUnhandledCudaError);
    EXPECT_NCCL(ncclCommCount(comm, NULL), ncclInvalidArgument);
    EXPECT_NCCL(ncclGetVersion(NULL), ncclInvalidArgument);
    int v = 0;
    EXPECT_NCCL(ncclGetVersion(&v), ncclSuccess);
    CHECK(v >= 21800, "version %d", v);
    ncclComm_t bad = NULL;
    ncclUniqueId junk;
    memset(&junk, 7, sizeof junk);
    EXPECT_NCCL(ncclCommInitRank(&bad, 2, junk, 0), ncclInvalidArgument);
    EXPECT_NCCL(ncclCommInitRank(&bad, g_np, g_id, g_np), ncclInvalidArgument);
    ncclConfig_t cfg;
    memset(&cfg, 0, sizeof cfg);
    EXPECT_NCCL(ncclCommInitRankConfig(&bad, g_np, g_id, 0, &cfg), ncclInvalidArgument);
    EXPECT_NCCL(ncclGroupEnd(), ncclInvalidUsage);
    /* An error inside a group is returned by the call and again by ncclGroupEnd. */
    EXPECT_NCCL(ncclGroupStart(), ncclSuccess);
    EXPECT_NCCL(ncclAllReduce(host, d, 4, ncclInt32, ncclSum, comm, s), ncclInvalidArgument);
    EXPECT_NCCL(ncclGroupEnd(), ncclInvalidArgument);
    EXPECT_NCCL(ncclCommDestroy(comm), ncclSuccess);
    EXPECT_NCCL(ncclCommCount(comm, &v), ncclInvalidArgument); /* destroyed */
    EXPECT_CUDA(cudaFree(d), cudaSuccess);
}

/* --- faults ----------------------------------------------------------------------------- */

/* Polls like a careful caller: the asynchronous error must come before the deadline. */
static ncclResult_t poll_async(ncclComm_t comm, int seconds) {
    time_t end = time(NULL) + seconds;
    ncclResult_t a = ncclSuccess;
    while (time(NULL) < end) {
        EXPECT_NCCL(ncclCommGetAsyncError(comm, &a), ncclSuccess);
        if (a != ncclSuccess) return a;
        usleep(10000);
    }
    return a;
}

/* FAKE_NCCL_FAULT=absent:<last rank>: the others' allreduce fails with ncclTimeout. */
static void scenario_absent(void) {
    ncclComm_t comm = world();
    if (comm == NULL) return;
    int *d = dev_alloc(16);
    EXPECT_NCCL(ncclAllReduce(d, d, 4, ncclInt32, ncclSum, comm, NULL), ncclSuccess);
    if (g_rank == g_np - 1) {
        sleep(4); /* alive, but never arrives */
        EXPECT_NCCL(ncclCommAbort(comm), ncclSuccess);
        return;
    }
    ncclResult_t a = poll_async(comm, 10);
    CHECK(a == ncclTimeout, "async error %d, expected ncclTimeout", a);
    expect_last_error("did not complete");
    EXPECT_NCCL(ncclAllReduce(d, d, 4, ncclInt32, ncclSum, comm, NULL), ncclTimeout);
    EXPECT_NCCL(ncclCommAbort(comm), ncclSuccess);
}

/* A rank that exits: the others get ncclRemoteError. */
static void scenario_dead(void) {
    ncclComm_t comm = world();
    if (comm == NULL) return;
    if (g_rank == g_np - 1) _exit(0);
    int *d = dev_alloc(16);
    EXPECT_NCCL(ncclAllReduce(d, d, 4, ncclInt32, ncclSum, comm, NULL), ncclSuccess);
    ncclResult_t a = poll_async(comm, 10);
    CHECK(a == ncclRemoteError, "async error %d, expected ncclRemoteError", a);
    EXPECT_NCCL(ncclCommAbort(comm), ncclSuccess);
}

/* FAKE_NCCL_FAULT=async:1:1: rank 1's comm reports ncclSystemError after one operation. */
static void scenario_async(void) {
    ncclComm_t comm = world();
    if (comm == NULL) return;
    int *d = dev_alloc(16);
    EXPECT_NCCL(ncclAllReduce(d, d, 4, ncclInt32, ncclSum, comm, NULL), ncclSuccess);
    EXPECT_CUDA(cudaStreamSynchronize(NULL), cudaSuccess);
    ncclResult_t a = ncclInternalError;
    EXPECT_NCCL(ncclCommGetAsyncError(comm, &a), ncclSuccess);
    CHECK(a == (g_rank == 1 ? ncclSystemError : ncclSuccess), "async error %d", a);
    if (g_rank == 1) expect_last_error("injected");
    EXPECT_NCCL(ncclCommAbort(comm), ncclSuccess);
}

/* FAKE_NCCL_FAULT=stall:1:<ms>, np 2: a peer that did its part of an operation and then left
 * (destroyed its communicator, exited) while rank 1 was descheduled between finding it late and
 * checking whether it is gone has not failed that operation, as with a real NCCL. On comm a,
 * rank 0 starts late, so rank 1 stalls in its first check of rank 0 in the allreduce while rank 0
 * completes it and destroys a. On comm b, rank 0's receive of rank 1's send completes while rank 1
 * stalls in its first check of the send; rank 0 then destroys b and exits. */
static void scenario_leave(void) {
    ncclComm_t a = world(), b = NULL;
    EXPECT_NCCL(ncclCommInitRank(&b, g_np, g_id2, g_rank), ncclSuccess);
    if (a == NULL || b == NULL) return;
    int32_t *d = dev_alloc(8), v[2] = {g_rank + 1, 10 * (g_rank + 1)}, out[2] = {0, 0};
    EXPECT_CUDA(cudaMemcpy(d, v, 8, cudaMemcpyHostToDevice), cudaSuccess);
    if (g_rank == 0) usleep(200000);
    EXPECT_NCCL(ncclAllReduce(d, d, 1, ncclInt32, ncclSum, a, NULL), ncclSuccess);
    EXPECT_CUDA(cudaStreamSynchronize(NULL), cudaSuccess);
    if (g_rank == 0) EXPECT_NCCL(ncclCommDestroy(a), ncclSuccess);
    if (g_rank == 0) EXPECT_NCCL(ncclRecv(d + 1, 1, ncclInt32, 1, b, NULL), ncclSuccess);
    else EXPECT_NCCL(ncclSend(d + 1, 1, ncclInt32, 0, b, NULL), ncclSuccess);
    EXPECT_CUDA(cudaStreamSynchronize(NULL), cudaSuccess);
    for (int k = 0; k < 2 && g_rank == 1; k++) {
        ncclResult_t e = ncclInternalError;
        EXPECT_NCCL(ncclCommGetAsyncError(k ? b : a, &e), ncclSuccess);
        CHECK(e == ncclSuccess, "comm %c: async error %d (%s) after the peer left having done its part", "ab"[k], e,
              ncclGetLastError(NULL));
    }
    copy_out(out, d, 8, NULL);
    CHECK(out[0] == 3, "allreduce: %d, expected 3", out[0]);
    CHECK(out[1] == 20, "after the send/recv: %d, expected 20 (rank 1 sent its own 20)", out[1]);
    if (g_rank == 1) EXPECT_NCCL(ncclCommDestroy(a), ncclSuccess);
    EXPECT_NCCL(ncclCommDestroy(b), ncclSuccess);
}

/* FAKE_GPU_LAG_MS: queued work also runs once it is that old, as a real GPU progresses without
 * the host. Rank 1 never synchronizes until rank 0 (synchronized) tells it through a pipe; without
 * the lag this is a deadlock that real hardware does not have. */
static int g_pipe[2];

static void scenario_lag(void) {
    ncclComm_t comm = world();
    if (comm == NULL) return;
    int32_t *d = dev_alloc(4), v = g_rank + 1, out = 0;
    EXPECT_CUDA(cudaMemcpy(d, &v, 4, cudaMemcpyHostToDevice), cudaSuccess);
    EXPECT_NCCL(ncclAllReduce(d, d, 1, ncclInt32, ncclSum, comm, NULL), ncclSuccess);
    char token = 'x';
    if (g_rank == 0) {
        copy_out(&out, d, 4, NULL);
        CHECK(write(g_pipe[1], &token, 1) == 1, "pipe write");
    } else {
        CHECK(read(g_pipe[0], &token, 1) == 1, "pipe read");
        copy_out(&out, d, 4, NULL);
    }
    CHECK(out == 3, "allreduce with lag: %d, expected 3", out);
    EXPECT_NCCL(ncclCommDestroy(comm), ncclSuccess);
}

/* A non-blocking communicator: init returns ncclInProgress (or ncclSuccess) and completes while
 * ncclCommGetAsyncError is polled; so does a split of it. */
static void scenario_nonblocking(void) {
#ifdef FAKE_HAVE_NCCL_H
    ncclConfig_t cfg = NCCL_CONFIG_INITIALIZER;
#else
    ncclConfig_t cfg = {sizeof(ncclConfig_t), NCCL_API_MAGIC, NCCL_VERSION_CODE, NCCL_CONFIG_UNDEF_INT};
#endif
    cfg.blocking = 0;
    ncclComm_t comm = NULL;
    EXPECT_CUDA(cudaSetDevice(g_rank % 4), cudaSuccess);
    if (g_rank == 1) usleep(200000); /* the others see ncclInProgress meanwhile */
    ncclResult_t r = ncclCommInitRankConfig(&comm, g_np, g_id, g_rank, &cfg);
    CHECK(r == ncclInProgress || r == ncclSuccess, "non-blocking init returned %d", r);
    CHECK(comm != NULL, "non-blocking init gave no communicator");
    if (comm == NULL) return;
    ncclResult_t state = ncclInProgress;
    for (int i = 0; i < 1000 && state == ncclInProgress; i++) {
        EXPECT_NCCL(ncclCommGetAsyncError(comm, &state), ncclSuccess);
        if (state == ncclInProgress) usleep(5000);
    }
    CHECK(state == ncclSuccess, "non-blocking init ended with %d", state);
    int32_t *d = dev_alloc(4), v = 5, out = 0;
    EXPECT_CUDA(cudaMemcpy(d, &v, 4, cudaMemcpyHostToDevice), cudaSuccess);
    /* The operation returns ncclInProgress, as NCCL's launch on a non-blocking communicator may;
     * the next call is refused until a poll of the state has seen ncclSuccess. */
    EXPECT_NCCL(ncclAllReduce(d, d, 1, ncclInt32, ncclSum, comm, NULL), ncclInProgress);
    EXPECT_NCCL(ncclAllReduce(d, d, 1, ncclInt32, ncclSum, comm, NULL), ncclInvalidArgument);
    state = ncclInProgress;
    int polls = 0;
    for (; polls < 1000 && state == ncclInProgress; polls++) EXPECT_NCCL(ncclCommGetAsyncError(comm, &state), ncclSuccess);
    CHECK(state == ncclSuccess && polls == 2, "launch: state %d after %d polls", state, polls);
    copy_out(&out, d, 4, NULL);
    CHECK(out == 5 * g_np, "allreduce on a non-blocking comm: %d", out);
    /* A split of a non-blocking parent returns ncclSuccess at once (NCCL 2.28 drops the group's
     * ncclInProgress) with the handle NULL; NCCL writes the handle from its own thread once the
     * parent's state is ready, and meanwhile every other call on the parent fails. Rank 0 opts
     * out and gets NULL; the others split in one. */
    ncclComm_t part = (ncclComm_t)(intptr_t)0x5a5a;
    if (g_rank == 1) usleep(200000);
    r = ncclCommSplit(comm, g_rank == 0 ? NCCL_SPLIT_NOCOLOR : 1, g_rank, &part, &cfg);
    CHECK(r == ncclSuccess, "non-blocking split returned %d, expected ncclSuccess", r);
    if (g_np > 1) CHECK(part == NULL, "the split gave handle %p before it was done", (void *)part);
    EXPECT_NCCL(ncclAllReduce(d, d, 1, ncclInt32, ncclSum, comm, NULL), ncclInvalidArgument);
    state = ncclInProgress;
    for (int i = 0; i < 1000 && state == ncclInProgress; i++) {
        EXPECT_NCCL(ncclCommGetAsyncError(comm, &state), ncclSuccess);
        if (state == ncclInProgress) usleep(5000);
    }
    CHECK(state == ncclSuccess, "non-blocking split ended with %d", state);
    if (g_rank == 0) {
        CHECK(part == NULL, "a NOCOLOR rank got %p", (void *)part);
    } else if (part != NULL) {
        state = ncclInProgress;
        for (int i = 0; i < 1000 && state == ncclInProgress; i++) {
            EXPECT_NCCL(ncclCommGetAsyncError(part, &state), ncclSuccess);
            if (state == ncclInProgress) usleep(5000);
        }
        int n = -1;
        EXPECT_NCCL(ncclCommCount(part, &n), ncclSuccess);
        CHECK(n == g_np - 1, "split size %d, expected %d", n, g_np - 1);
        EXPECT_NCCL(ncclCommDestroy(part), ncclSuccess);
    } else {
        CHECK(0, "rank %d got no communicator from the split", g_rank);
    }
    EXPECT_NCCL(ncclCommDestroy(comm), ncclSuccess);
}

/* A receive of another size than the send: the receiver's comm gets ncclInvalidUsage (the real
 * NCCL's behaviour is undefined there; the fake names the mistake). */
static void scenario_mismatch(void) {
    ncclComm_t comm = world();
    if (comm == NULL) return;
    int32_t *d = dev_alloc(16);
    if (g_rank == 0) EXPECT_NCCL(ncclSend(d, 4, ncclInt32, 1, comm, NULL), ncclSuccess);
    else EXPECT_NCCL(ncclRecv(d, 3, ncclInt32, 0, comm, NULL), ncclSuccess);
    EXPECT_CUDA(cudaStreamSynchronize(NULL), cudaSuccess);
    ncclResult_t a = ncclInternalError;
    EXPECT_NCCL(ncclCommGetAsyncError(comm, &a), ncclSuccess);
    CHECK(a == (g_rank == 1 ? ncclInvalidUsage : ncclSuccess), "async error %d", a);
    if (g_rank == 1) expect_last_error("count or type differ");
    EXPECT_NCCL(ncclCommAbort(comm), ncclSuccess);
}

/* A rank that never calls ncclCommInitRank: the others' init fails after the deadline. */
static void scenario_noinit(void) {
    if (g_rank == g_np - 1) {
        sleep(3);
        return;
    }
    EXPECT_CUDA(cudaSetDevice(g_rank), cudaSuccess);
    ncclComm_t comm = NULL;
    EXPECT_NCCL(ncclCommInitRank(&comm, g_np, g_id, g_rank), ncclSystemError);
    expect_last_error("did not join");
    CHECK(comm == NULL, "a failed init left a communicator");
}

/* Two ranks on one node may not share a GPU; on different (simulated) hosts they may. */
static void scenario_duplicate(void) {
    EXPECT_CUDA(cudaSetDevice(0), cudaSuccess);
    char node[32];
    snprintf(node, sizeof node, "host%d", g_rank);
    setenv("MPI4J_NODE", node, 1); /* as mpi4jrun --hosts sets it */
    ncclComm_t comm = NULL;
    EXPECT_NCCL(ncclCommInitRank(&comm, g_np, g_id, g_rank), ncclSuccess);
    if (comm) EXPECT_NCCL(ncclCommDestroy(comm), ncclSuccess);
    setenv("MPI4J_NODE", "one-host", 1);
    comm = NULL;
    EXPECT_NCCL(ncclCommInitRank(&comm, g_np, g_id2, g_rank), ncclInvalidUsage);
    expect_last_error("Duplicate GPU");
    CHECK(comm == NULL, "a failed init left a communicator");
}

/* FAKE_NCCL_NOOP=1: calls return at once (the JNI-overhead benchmark's C reference). */
static void scenario_noop(void) {
    ncclComm_t comm = world();
    if (comm == NULL) return;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int i = 0; i < 100000; i++) EXPECT_NCCL(ncclAllReduce(NULL, NULL, 1, ncclFloat32, ncclSum, comm, NULL), ncclSuccess);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double ns = ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / 100000;
    printf("noop ncclAllReduce: %.1f ns per call\n", ns);
    EXPECT_NCCL(ncclCommDestroy(comm), ncclSuccess);
}

/* --- error texts against the real libraries --------------------------------------------- */

static int strings(const char *cudart, const char *nccl) {
    int bad = 0;
    if (strcmp(cudart, "-") != 0) {
        void *h = dlopen(cudart, RTLD_NOW | RTLD_LOCAL);
        if (h == NULL) {
            printf("SKIP cudart: %s\n", dlerror());
        } else {
            const char *(*str)(cudaError_t) = (const char *(*)(cudaError_t))dlsym(h, "cudaGetErrorString");
            const char *(*name)(cudaError_t) = (const char *(*)(cudaError_t))dlsym(h, "cudaGetErrorName");
            const int codes[] = {0, 1, 2, 3, 17, 21, 35, 100, 101, 400, 600, 700, 702, 719, 801, 999, 12345};
            for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
                cudaError_t c = (cudaError_t)codes[i];
                if (strcmp(str(c), cudaGetErrorString(c)) || strcmp(name(c), cudaGetErrorName(c))) {
                    printf("MISMATCH cuda %d: real %s \"%s\", fake %s \"%s\"\n", codes[i], name(c), str(c),
                           cudaGetErrorName(c), cudaGetErrorString(c));
                    bad++;
                }
            }
        }
    }
    if (strcmp(nccl, "-") != 0) {
        void *h = dlopen(nccl, RTLD_NOW | RTLD_LOCAL);
        if (h == NULL) {
            printf("SKIP nccl: %s\n", dlerror());
        } else {
            const char *(*str)(ncclResult_t) = (const char *(*)(ncclResult_t))dlsym(h, "ncclGetErrorString");
            for (int c = 0; c <= ncclNumResults + 1; c++) {
                if (strcmp(str((ncclResult_t)c), ncclGetErrorString((ncclResult_t)c))) {
                    printf("MISMATCH nccl %d: real \"%s\", fake \"%s\"\n", c, str((ncclResult_t)c),
                           ncclGetErrorString((ncclResult_t)c));
                    bad++;
                }
            }
        }
    }
    printf(bad ? "FAIL strings\n" : "PASS strings\n");
    return bad ? 1 : 0;
}

/* --- driver ----------------------------------------------------------------------------- */

static const struct {
    const char *name;
    void (*run)(void);
} SCENARIOS[] = {{"memory", scenario_memory},   {"streams", scenario_streams}, {"collectives", scenario_collectives},
                 {"argchecks", scenario_argchecks}, {"absent", scenario_absent}, {"dead", scenario_dead},
                 {"async", scenario_async},     {"noop", scenario_noop}, {"lag", scenario_lag},
                 {"nonblocking", scenario_nonblocking}, {"duplicate", scenario_duplicate},
                 {"noinit", scenario_noinit}, {"mismatch", scenario_mismatch},
                 {"nodevice", scenario_nodevice}, {"leave", scenario_leave}};

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc == 4 && strcmp(argv[1], "strings") == 0) return strings(argv[2], argv[3]);
    if (argc < 2) {
        fprintf(stderr, "usage: fake_gpu_test <scenario> [np] | strings <libcudart> <libnccl>\n");
        return 2;
    }
    void (*run)(void) = NULL;
    for (size_t i = 0; i < sizeof SCENARIOS / sizeof SCENARIOS[0]; i++) {
        if (strcmp(argv[1], SCENARIOS[i].name) == 0) run = SCENARIOS[i].run;
    }
    if (run == NULL) {
        fprintf(stderr, "unknown scenario %s\n", argv[1]);
        return 2;
    }
    g_np = argc > 2 ? atoi(argv[2]) : 1;
    if (g_np < 1 || g_np > 16) {
        fprintf(stderr, "np %d out of 1..16\n", g_np);
        return 2;
    }
    if (ncclGetUniqueId(&g_id) != ncclSuccess || ncclGetUniqueId(&g_id2) != ncclSuccess) {
        fprintf(stderr, "ncclGetUniqueId failed\n");
        return 1;
    }
    if (pipe(g_pipe) != 0) return 1;
    pid_t pids[16];
    for (int r = 0; r < g_np; r++) {
        pids[r] = fork();
        if (pids[r] == 0) {
            g_rank = r;
            alarm(60); /* a hung rank dies rather than hang the test */
            run();
            _exit(g_failures ? 1 : 0);
        }
    }
    int bad = 0;
    for (int k = 0; k < g_np; k++) { /* reap in exit order: a dead rank must not linger as a zombie */
        int st = 0, r = 0;
        pid_t p = wait(&st);
        while (r < g_np && pids[r] != p) r++;
        if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
            fprintf(stderr, "rank %d: %s %d\n", r, WIFSIGNALED(st) ? "killed by signal" : "exit status",
                    WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
            bad = 1;
        }
    }
    printf("%s %s np=%d\n", bad ? "FAIL" : "PASS", argv[1], g_np);
    return bad;
}
