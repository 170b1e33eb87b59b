/* The C reference of io.github.mpi4j.bench.NcclOverhead: the same NCCL calls, made straight
 * from C on the same library, so that bench/run.sh gpu-overhead can report what mpi4j's JNI
 * layer adds per call.
 *
 *   nccl_overhead_c [calls per batch] [batches]
 *
 * The CUDA runtime and NCCL are opened with dlopen from MPI4J_CUDA_LIBRARY and
 * MPI4J_NCCL_LIBRARY (default: libcudart.so.13 and libnccl.so.2 on the loader's path), as
 * mpi4j opens them; against the fake in its no-op mode (FAKE_NCCL_NOOP=1) an NCCL call costs
 * a few nanoseconds, so the difference is the caller's cost. One rank, one device (0), one
 * non-blocking stream. Each case runs `batches` batches of `calls` calls (the first batches
 * warm up caches), the stream is synchronized after each batch, and the median batch gives
 * nanoseconds per call:
 *
 *   RESULT gpu-overhead c <case> <ns per call>
 *   RESULT gpu-overhead c-nonblocking <case> <ns per call>
 *
 * The second set makes the same calls on a non-blocking communicator (ncclConfig_t.blocking = 0),
 * the kind mpi4j makes so that every wait has a deadline. After a call that answers
 * ncclInProgress it polls ncclCommGetAsyncError until the communicator is ready again, as NCCL
 * requires before its next call and as mpi4j does: what NCCL's non-blocking mode costs, apart
 * from what Java adds.
 *
 * The ABI is declared here (nccl.h and cuda_runtime_api.h are not needed to build it): NCCL's
 * enums are int, ncclUniqueId is 128 bytes passed by value, handles are pointers; ncclFloat32 is
 * 7 and ncclSum 0 in every NCCL 2.x. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mpi4j_gpu_decls.h" /* ncclConfig_t (our prefix of it) and NCCL's result codes */

typedef int nccl_result;
typedef void *nccl_comm;
typedef void *cuda_stream;
typedef struct {
    char internal[128];
} nccl_unique_id;

#define NCCL_FLOAT32 7
#define NCCL_SUM 0
#define CUDA_STREAM_NON_BLOCKING 1u

static int (*cuda_set_device)(int);
static int (*cuda_malloc)(void **, size_t);
static int (*cuda_free)(void *);
static int (*cuda_stream_create)(cuda_stream *, unsigned);
static int (*cuda_stream_sync)(cuda_stream);
static int (*cuda_stream_destroy)(cuda_stream);
static nccl_result (*nccl_get_unique_id)(nccl_unique_id *);
static nccl_result (*nccl_comm_init_rank)(nccl_comm *, int, nccl_unique_id, int);
static nccl_result (*nccl_comm_init_rank_config)(nccl_comm *, int, nccl_unique_id, int, m4j_nccl_config *);
static nccl_result (*nccl_comm_get_async_error)(nccl_comm, nccl_result *);
static nccl_result (*nccl_comm_destroy)(nccl_comm);
static nccl_result (*nccl_all_reduce)(const void *, void *, size_t, int, int, nccl_comm, cuda_stream);
static nccl_result (*nccl_broadcast)(const void *, void *, size_t, int, int, nccl_comm, cuda_stream);
static nccl_result (*nccl_send)(const void *, size_t, int, int, nccl_comm, cuda_stream);
static nccl_result (*nccl_recv)(void *, size_t, int, int, nccl_comm, cuda_stream);
static nccl_result (*nccl_group_start)(void);
static nccl_result (*nccl_group_end)(void);
static const char *(*nccl_error_string)(nccl_result);

static void *open_library(const char *env, const char *fallback, int flags) {
    const char *path = getenv(env);
    if (path == NULL || *path == '\0') path = fallback;
    void *h = dlopen(path, flags);
    if (h == NULL) {
        fprintf(stderr, "nccl_overhead_c: cannot open %s (%s): %s\n", path, env, dlerror());
        exit(2);
    }
    return h;
}

static void *need(void *lib, const char *name) {
    void *f = dlsym(lib, name);
    if (f == NULL) {
        fprintf(stderr, "nccl_overhead_c: the library lacks %s\n", name);
        exit(2);
    }
    return f;
}

static void check_cuda(int rc, const char *what) {
    if (rc != 0) {
        fprintf(stderr, "nccl_overhead_c: %s failed: CUDA error %d\n", what, rc);
        exit(1);
    }
}

static nccl_comm comm;
static int nonblocking; /* comm is non-blocking: NCCL may answer ncclInProgress */

/* Returns rc when it is success, or in progress on a non-blocking communicator; exits otherwise. */
static nccl_result check_nccl(nccl_result rc, const char *what) {
    if (rc == M4J_NCCL_IN_PROGRESS && nonblocking) return rc;
    if (rc != 0) {
        fprintf(stderr, "nccl_overhead_c: %s failed: %s\n", what, nccl_error_string(rc));
        exit(1);
    }
    return rc;
}

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

enum which { ALLREDUCE, BROADCAST, GROUP, SENDRECV };

static cuda_stream stream;
static void *sendbuf, *recvbuf;

/* After a call that answered ncclInProgress (as mpi4j does): polls the communicator's state until
 * the call is done (NCCL refuses the next call before that), for at most 60 s. */
static void settle(nccl_result rc, const char *what) {
    if (rc != M4J_NCCL_IN_PROGRESS) return;
    double deadline = now_ns() + 60e9;
    nccl_result state;
    do {
        check_nccl(nccl_comm_get_async_error(comm, &state), "ncclCommGetAsyncError");
        if (state != M4J_NCCL_SUCCESS && state != M4J_NCCL_IN_PROGRESS) check_nccl(state, what);
        if (now_ns() > deadline) {
            fprintf(stderr, "nccl_overhead_c: %s still in progress after 60 s\n", what);
            exit(1);
        }
    } while (state == M4J_NCCL_IN_PROGRESS);
}

/* One call of the case; aborts on an error so that a failing library never looks fast. */
static void one(enum which w) {
    switch (w) {
        case ALLREDUCE:
            settle(check_nccl(nccl_all_reduce(sendbuf, recvbuf, 1, NCCL_FLOAT32, NCCL_SUM, comm, stream),
                              "ncclAllReduce"), "ncclAllReduce");
            break;
        case BROADCAST:
            settle(check_nccl(nccl_broadcast(recvbuf, recvbuf, 1, NCCL_FLOAT32, 0, comm, stream), "ncclBroadcast"),
                   "ncclBroadcast");
            break;
        case GROUP:
            check_nccl(nccl_group_start(), "ncclGroupStart");
            check_nccl(nccl_group_end(), "ncclGroupEnd");
            break;
        case SENDRECV: /* to and from itself, inside a group (as NCCL requires for one rank) */
            check_nccl(nccl_group_start(), "ncclGroupStart");
            check_nccl(nccl_send(sendbuf, 1, NCCL_FLOAT32, 0, comm, stream), "ncclSend");
            check_nccl(nccl_recv(recvbuf, 1, NCCL_FLOAT32, 0, comm, stream), "ncclRecv");
            settle(check_nccl(nccl_group_end(), "ncclGroupEnd"), "ncclGroupEnd");
            break;
    }
}

static double measure(enum which w, long calls, int batches) {
    double *per = malloc(sizeof *per * (size_t)batches);
    if (per == NULL) exit(1);
    /* One untimed batch first, as the Java twin does: the GPU's clocks are up before timing. */
    for (long i = 0; i < calls; i++) one(w);
    check_cuda(cuda_stream_sync(stream), "cudaStreamSynchronize");
    for (int b = 0; b < batches; b++) {
        double t0 = now_ns();
        for (long i = 0; i < calls; i++) one(w);
        double t1 = now_ns();
        check_cuda(cuda_stream_sync(stream), "cudaStreamSynchronize");
        per[b] = (t1 - t0) / (double)calls;
    }
    qsort(per, (size_t)batches, sizeof *per, by_value);
    double m = per[batches / 2];
    free(per);
    return m;
}

int main(int argc, char **argv) {
    long calls = argc > 1 ? atol(argv[1]) : 200000;
    int batches = argc > 2 ? atoi(argv[2]) : 15;
    if (calls < 1 || batches < 1) {
        fprintf(stderr, "usage: nccl_overhead_c [calls per batch >= 1] [batches >= 1]\n");
        return 2;
    }
    /* The runtime first and global, as mpi4j does: a test double of NCCL takes it from the process. */
    void *cudart = open_library("MPI4J_CUDA_LIBRARY", "libcudart.so.13", RTLD_NOW | RTLD_GLOBAL);
    void *nccl = open_library("MPI4J_NCCL_LIBRARY", "libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
    *(void **)&cuda_set_device = need(cudart, "cudaSetDevice");
    *(void **)&cuda_malloc = need(cudart, "cudaMalloc");
    *(void **)&cuda_free = need(cudart, "cudaFree");
    *(void **)&cuda_stream_create = need(cudart, "cudaStreamCreateWithFlags");
    *(void **)&cuda_stream_sync = need(cudart, "cudaStreamSynchronize");
    *(void **)&cuda_stream_destroy = need(cudart, "cudaStreamDestroy");
    *(void **)&nccl_get_unique_id = need(nccl, "ncclGetUniqueId");
    *(void **)&nccl_comm_init_rank = need(nccl, "ncclCommInitRank");
    *(void **)&nccl_comm_init_rank_config = need(nccl, "ncclCommInitRankConfig");
    *(void **)&nccl_comm_get_async_error = need(nccl, "ncclCommGetAsyncError");
    *(void **)&nccl_comm_destroy = need(nccl, "ncclCommDestroy");
    *(void **)&nccl_all_reduce = need(nccl, "ncclAllReduce");
    *(void **)&nccl_broadcast = need(nccl, "ncclBroadcast");
    *(void **)&nccl_send = need(nccl, "ncclSend");
    *(void **)&nccl_recv = need(nccl, "ncclRecv");
    *(void **)&nccl_group_start = need(nccl, "ncclGroupStart");
    *(void **)&nccl_group_end = need(nccl, "ncclGroupEnd");
    *(void **)&nccl_error_string = need(nccl, "ncclGetErrorString");

    check_cuda(cuda_set_device(0), "cudaSetDevice(0)");
    check_cuda(cuda_malloc(&sendbuf, 256), "cudaMalloc");
    check_cuda(cuda_malloc(&recvbuf, 256), "cudaMalloc");
    check_cuda(cuda_stream_create(&stream, CUDA_STREAM_NON_BLOCKING), "cudaStreamCreateWithFlags");
    nccl_unique_id id;
    check_nccl(nccl_get_unique_id(&id), "ncclGetUniqueId");
    check_nccl(nccl_comm_init_rank(&comm, 1, id, 0), "ncclCommInitRank");

    static const struct {
        enum which w;
        const char *name;
    } cases[] = {{ALLREDUCE, "allreduce"}, {BROADCAST, "broadcast"}, {GROUP, "group"}, {SENDRECV, "sendrecv"}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        printf("RESULT gpu-overhead c %s %.2f\n", cases[c].name, measure(cases[c].w, calls, batches));
        fflush(stdout);
    }
    check_nccl(nccl_comm_destroy(comm), "ncclCommDestroy");

    /* The same on a non-blocking communicator (the group case has no communicator: not repeated). */
    m4j_nccl_config config = m4j_nccl_config_make(0);
    check_nccl(nccl_get_unique_id(&id), "ncclGetUniqueId");
    nonblocking = 1;
    check_nccl(nccl_comm_init_rank_config(&comm, 1, id, 0, &config), "ncclCommInitRankConfig");
    settle(M4J_NCCL_IN_PROGRESS, "ncclCommInitRankConfig"); /* ready before the first call, as mpi4j waits */
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        if (cases[c].w == GROUP) continue;
        printf("RESULT gpu-overhead c-nonblocking %s %.2f\n", cases[c].name, measure(cases[c].w, calls, batches));
        fflush(stdout);
    }
    check_nccl(nccl_comm_destroy(comm), "ncclCommDestroy");
    check_cuda(cuda_stream_destroy(stream), "cudaStreamDestroy");
    check_cuda(cuda_free(sendbuf), "cudaFree");
    check_cuda(cuda_free(recvbuf), "cudaFree");
    return 0;
}
