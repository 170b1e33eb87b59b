/* Fake NCCL: versions, error strings, unique ids, communicators (init across processes through a
 * POSIX shared-memory control segment named from the unique id, split, finalize, destroy, abort,
 * asynchronous errors) and the injected faults. docs/testing-gpu.md lists the environment
 * variables. */
#define _GNU_SOURCE
#include "fake_nccl.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define COMM_MAGIC 0x434f4d4du
#define CTL_MAGIC 0x46434e4cu

static char g_last_error[1024];
static struct ncclComm *g_comms;

ncclResult_t fake_nccl_warn(ncclResult_t r, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fakegpu_lock();
    vsnprintf(g_last_error, sizeof g_last_error, fmt, ap);
    fakegpu_unlock();
    va_end(ap);
    return r;
}

/* Read once: the no-op mode exists to measure the cost of a call, getenv would dominate it. */
int fake_nccl_noop(void) {
    static int noop = -1;
    if (noop < 0) noop = fakegpu_env_long("FAKE_NCCL_NOOP", 0) != 0;
    return noop;
}

int64_t fake_nccl_timeout_ms(void) { return fakegpu_env_long("FAKE_NCCL_TIMEOUT_MS", 120000); }

int fake_comm_valid(struct ncclComm *c) {
    for (struct ncclComm *x = g_comms; x; x = x->next) {
        if (x == c) return c->magic == COMM_MAGIC && c->state != COMM_DEAD;
    }
    return 0;
}

FAKE_API ncclResult_t ncclGetVersion(int *version) {
    if (version == NULL) return fake_nccl_warn(ncclInvalidArgument, "ncclGetVersion : version argument is NULL");
    *version = (int)fakegpu_env_long("FAKE_NCCL_VERSION", NCCL_VERSION_CODE);
    return ncclSuccess;
}

/* The real library's texts (NCCL 2.30); FakeGpuLibraryTest compares them with libnccl's own. */
FAKE_API const char *ncclGetErrorString(ncclResult_t result) {
    switch (result) {
        case ncclSuccess: return "no error";
        case ncclUnhandledCudaError: return "unhandled cuda error (run with NCCL_DEBUG=INFO for details)";
        case ncclSystemError: return "unhandled system error (run with NCCL_DEBUG=INFO for details)";
        case ncclInternalError: return "internal error - please report this issue to the NCCL developers";
        case ncclInvalidArgument: return "invalid argument (run with NCCL_DEBUG=WARN for details)";
        case ncclInvalidUsage: return "invalid usage (run with NCCL_DEBUG=WARN for details)";
        case ncclRemoteError: return "remote process exited or there was a network error";
        case ncclInProgress: return "NCCL operation in progress";
        case ncclTimeout: return "timeout";
        default: return "unknown result code";
    }
}

/* The text of the last warning of the process, as the real one (comm is not used). */
FAKE_API const char *ncclGetLastError(ncclComm_t comm) {
    (void)comm;
    return g_last_error;
}

/* --- unique ids ------------------------------------------------------------------------- */

FAKE_API ncclResult_t ncclGetUniqueId(ncclUniqueId *uniqueId) {
    if (uniqueId == NULL) return fake_nccl_warn(ncclInvalidArgument, "ncclGetUniqueId : uniqueId argument is NULL");
    unsigned char r[16];
    if (getrandom(r, sizeof r, 0) != (ssize_t)sizeof r) {
        return fake_nccl_warn(ncclSystemError, "fake NCCL: getrandom failed: %s", strerror(errno));
    }
    memset(uniqueId, 0, sizeof *uniqueId);
    memcpy(uniqueId->internal, ID_MAGIC, 8);
    for (int i = 0; i < 16; i++) snprintf(uniqueId->internal + 8 + 2 * i, 3, "%02x", r[i]);
    return ncclSuccess;
}

static int id_valid(const ncclUniqueId *id) {
    if (memcmp(id->internal, ID_MAGIC, 8) != 0) return 0;
    for (int i = 8; i < 40; i++) {
        char ch = id->internal[i];
        if (!((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f'))) return 0;
    }
    return id->internal[40] == '\0';
}

/* --- faults ----------------------------------------------------------------------------- */

/* FAKE_NCCL_FAULT: comma-separated "absent:R" (rank R of every communicator never takes part in
 * operations), "async:R:N" (rank R's communicators report an asynchronous ncclSystemError
 * after N completed operations) and "stall:R:MS" (rank R pauses MS ms whenever it has found a
 * peer late and before it checks whether that peer is gone, as a descheduled thread would). */
static void apply_faults(struct ncclComm *c) {
    c->fault_async_after = -1;
    const char *f = getenv("FAKE_NCCL_FAULT");
    while (f && *f) {
        int r = -1;
        long n = -1;
        if (sscanf(f, "absent:%d", &r) == 1 && r == c->rank) c->absent = 1;
        if (sscanf(f, "async:%d:%ld", &r, &n) == 2 && r == c->rank) c->fault_async_after = n;
        if (sscanf(f, "stall:%d:%ld", &r, &n) == 2 && r == c->rank && n > 0) c->fault_stall_ms = n;
        f = strchr(f, ',');
        if (f) f++;
    }
}

void fake_comm_async(struct ncclComm *c, ncclResult_t r, const char *what) {
    if (c->async == ncclSuccess) {
        c->async = r;
        fake_nccl_warn(r, "fake NCCL: rank %d of %d: %s", c->rank, c->nranks, what);
    }
}

/* The caller found *progress < needed, then asks whether the peer is gone: in between the peer
 * may have got there, completed the operation and destroyed its communicator or exited (as a
 * real NCCL peer may). Progress is published before gone (and before exit), so reading it again
 * after finding the peer gone tells a peer that left after its part from one that failed. */
ncclResult_t fake_peer_failed(struct ncclComm *c, int peer, const uint64_t *progress, uint64_t needed) {
    if (c->fault_stall_ms > 0) { /* injected: the caller is descheduled right here */
        struct timespec t = {c->fault_stall_ms / 1000, (c->fault_stall_ms % 1000) * 1000000L};
        nanosleep(&t, NULL);
    }
    struct rank_slot *s = slot_of(c, peer);
    int failed = __atomic_load_n(&s->gone, __ATOMIC_ACQUIRE) != 0;
    int pid = __atomic_load_n(&s->pid, __ATOMIC_ACQUIRE);
    if (!failed && pid > 0 && pid != getpid() && kill(pid, 0) != 0 && errno == ESRCH) failed = 1;
    if (!failed || (progress && __atomic_load_n(progress, __ATOMIC_ACQUIRE) >= needed)) return ncclSuccess;
    return ncclRemoteError;
}

/* --- communicator creation -------------------------------------------------------------- */

/* The node whose GPUs a rank uses: FAKE_GPU_NODE, else the host mpi4jrun placed the rank on
 * (MPI4J_NODE: simulated hosts of one machine each have their own GPUs), else the host name. */
static void node_name(char *out, size_t n) {
    const char *v = getenv("FAKE_GPU_NODE");
    if (v == NULL || *v == '\0') v = getenv("MPI4J_NODE");
    if (v && *v) snprintf(out, n, "%s", v);
    else if (gethostname(out, n) != 0) snprintf(out, n, "localhost");
    out[n - 1] = '\0';
}

static void ctl_name(char *out, size_t n, const char *hex) { snprintf(out, n, "/fkn-%s-ctl", hex); }

/* Joins the control segment of the id; the comm is COMM_INITIALIZING until every rank joined. */
static ncclResult_t join(struct ncclComm *c, const char *hex, int nranks, int rank) {
    char name[96];
    memcpy(c->id_hex, hex, 32);
    c->id_hex[32] = '\0';
    ctl_name(name, sizeof name, c->id_hex);
    c->ctl_bytes = sizeof(struct shm_ctl) + (size_t)nranks * sizeof(struct rank_slot) + 2 * (size_t)nranks * nranks * 8;
    int fd = shm_open(name, O_CREAT | O_RDWR, 0600);
    if (fd < 0) return fake_nccl_warn(ncclSystemError, "fake NCCL: shm_open %s: %s", name, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || (st.st_size < (off_t)c->ctl_bytes && ftruncate(fd, (off_t)c->ctl_bytes) != 0)) {
        close(fd);
        return fake_nccl_warn(ncclSystemError, "fake NCCL: sizing %s: %s", name, strerror(errno));
    }
    c->ctl = mmap(NULL, c->ctl_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (c->ctl == MAP_FAILED) {
        c->ctl = NULL;
        return fake_nccl_warn(ncclSystemError, "fake NCCL: mmap %s: %s", name, strerror(errno));
    }
    int expected = 0;
    if (!__atomic_compare_exchange_n(&c->ctl->nranks, &expected, nranks, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE) &&
        expected != nranks) {
        return fake_nccl_warn(ncclInvalidUsage, "fake NCCL: rank %d called ncclCommInitRank with nranks %d, "
                              "another rank with nranks %d", rank, nranks, expected);
    }
    struct rank_slot *s = slot_of(c, rank);
    s->device = c->device;
    node_name(s->node, sizeof s->node);
    int zero = 0;
    if (!__atomic_compare_exchange_n(&s->pid, &zero, (int)getpid(), 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        return fake_nccl_warn(ncclInvalidUsage, "fake NCCL: rank %d joined the communicator twice", rank);
    }
    __atomic_add_fetch(&c->ctl->joined, 1, __ATOMIC_ACQ_REL);
    c->init_deadline = fakegpu_now_ms() + fake_nccl_timeout_ms();
    return ncclSuccess;
}

/* One non-blocking step of the initialization: ncclInProgress until all ranks joined. */
static ncclResult_t init_step(struct ncclComm *c) {
    if (c->state != COMM_INITIALIZING) return c->async;
    if (__atomic_load_n(&c->ctl->joined, __ATOMIC_ACQUIRE) < c->nranks) {
        if (fakegpu_now_ms() > c->init_deadline) {
            int missing = -1;
            for (int r = 0; r < c->nranks && missing < 0; r++) {
                if (__atomic_load_n(&slot_of(c, r)->pid, __ATOMIC_ACQUIRE) == 0) missing = r;
            }
            c->async = fake_nccl_warn(ncclSystemError, "fake NCCL: ncclCommInitRank: rank %d of %d did not join "
                                      "within %lld ms", missing, c->nranks, (long long)fake_nccl_timeout_ms());
            char name[96];
            ctl_name(name, sizeof name, c->id_hex);
            shm_unlink(name); /* nobody else will come for it */
            c->state = COMM_READY;
        }
        return c->async == ncclSuccess ? ncclInProgress : c->async;
    }
    /* As the real one: two ranks on one node may not share a GPU. */
    if (!fakegpu_env_long("FAKE_NCCL_ALLOW_SHARED_GPU", 0)) {
        for (int r = 0; r < c->nranks; r++) {
            struct rank_slot *o = slot_of(c, r);
            if (r != c->rank && o->device == c->device && strcmp(o->node, slot_of(c, c->rank)->node) == 0) {
                c->async = fake_nccl_warn(ncclInvalidUsage, "Duplicate GPU detected : rank %d and rank %d both on "
                                          "CUDA device %d (node %s)", c->rank < r ? c->rank : r,
                                          c->rank < r ? r : c->rank, c->device, o->node);
                break;
            }
        }
    }
    if (__atomic_add_fetch(&c->ctl->seen, 1, __ATOMIC_ACQ_REL) == c->nranks) { /* all have it mapped */
        char name[96];
        ctl_name(name, sizeof name, c->id_hex);
        shm_unlink(name);
    }
    c->state = COMM_READY;
    return c->async;
}

static ncclResult_t wait_init(struct ncclComm *c) {
    struct timespec nap = {0, 500000};
    for (;;) {
        fakegpu_lock();
        ncclResult_t r = init_step(c);
        fakegpu_unlock();
        if (r != ncclInProgress) return r;
        nanosleep(&nap, NULL);
    }
}

static struct ncclComm *new_comm(int nranks, int rank, int device, int blocking) {
    struct ncclComm *c = calloc(1, sizeof *c);
    if (c == NULL) return NULL;
    c->sent_seq = calloc((size_t)nranks, sizeof(uint64_t));
    c->recv_seq = calloc((size_t)nranks, sizeof(uint64_t));
    if (!c->sent_seq || !c->recv_seq) {
        free(c->sent_seq);
        free(c->recv_seq);
        free(c);
        return NULL;
    }
    c->magic = COMM_MAGIC;
    c->state = COMM_INITIALIZING;
    c->rank = rank;
    c->nranks = nranks;
    c->device = device;
    c->blocking = blocking;
    apply_faults(c);
    return c;
}

static void retire(struct ncclComm *c, int discard);

static ncclResult_t init_rank(ncclComm_t *comm, int nranks, const char *hex, int rank, int blocking) {
    if (comm == NULL) return fake_nccl_warn(ncclInvalidArgument, "ncclCommInitRank : comm argument is NULL");
    *comm = NULL;
    if (nranks < 1) return fake_nccl_warn(ncclInvalidArgument, "Invalid rank number %d", nranks);
    if (rank < 0 || rank >= nranks) return fake_nccl_warn(ncclInvalidArgument, "Invalid rank %d, nranks %d", rank, nranks);
    int dev;
    cudaError_t ce = fakegpu_current_device(&dev);
    if (ce != cudaSuccess) {
        return fake_nccl_warn(ncclUnhandledCudaError, "Cuda failure %d '%s'", (int)ce, cudaGetErrorString(ce));
    }
    struct ncclComm *c = new_comm(nranks, rank, dev, blocking);
    if (c == NULL) return fake_nccl_warn(ncclSystemError, "fake NCCL: out of host memory");
    if (!fake_nccl_noop()) {
        ncclResult_t r = join(c, hex, nranks, rank);
        if (r != ncclSuccess) {
            if (c->ctl) munmap(c->ctl, c->ctl_bytes);
            free(c);
            return r;
        }
    }
    fakegpu_lock();
    c->next = g_comms;
    g_comms = c;
    if (fake_nccl_noop()) c->state = COMM_READY;
    fakegpu_unlock();
    *comm = c;
    if (!blocking) {
        fakegpu_lock();
        ncclResult_t r = init_step(c);
        fakegpu_unlock();
        return r;
    }
    ncclResult_t r = wait_init(c);
    if (r != ncclSuccess) { /* a failed blocking init leaves no communicator behind */
        retire(c, 1);
        *comm = NULL;
    }
    return r;
}

FAKE_API ncclResult_t ncclCommInitRank(ncclComm_t *comm, int nranks, ncclUniqueId commId, int rank) {
    if (!id_valid(&commId)) return fake_nccl_warn(ncclInvalidArgument, "fake NCCL: ncclCommInitRank: not a unique id of ncclGetUniqueId");
    return init_rank(comm, nranks, commId.internal + 8, rank, 1);
}

/* Reads only the fields every config version has; the rest keep their defaults. */
static ncclResult_t check_config(const ncclConfig_t *config, int *blocking) {
    *blocking = 1;
    if (config == NULL) return ncclSuccess;
    if (config->magic != NCCL_API_MAGIC || config->size < offsetof(ncclConfig_t, blocking) + sizeof(int)) {
        return fake_nccl_warn(ncclInvalidArgument, "ncclConfig_t argument not initialized via NCCL_CONFIG_INITIALIZER");
    }
    if (config->blocking != NCCL_CONFIG_UNDEF_INT && config->blocking != 0 && config->blocking != 1) {
        return fake_nccl_warn(ncclInvalidArgument, "Invalid config blocking attribute value %d", config->blocking);
    }
    if (config->blocking == 0) *blocking = 0;
    return ncclSuccess;
}

FAKE_API ncclResult_t ncclCommInitRankConfig(ncclComm_t *comm, int nranks, ncclUniqueId commId, int rank,
                                             ncclConfig_t *config) {
    int blocking;
    ncclResult_t r = check_config(config, &blocking);
    if (r != ncclSuccess) return r;
    if (!id_valid(&commId)) return fake_nccl_warn(ncclInvalidArgument, "fake NCCL: ncclCommInitRankConfig: not a unique id of ncclGetUniqueId");
    return init_rank(comm, nranks, commId.internal + 8, rank, blocking);
}

/* --- queries ---------------------------------------------------------------------------- */

#define CHECK_COMM(c, fn)                                                                          \
    do {                                                                                           \
        fakegpu_lock();                                                                            \
        int ok_ = fake_comm_valid(c);                                                              \
        fakegpu_unlock();                                                                          \
        if (!ok_) return fake_nccl_warn(ncclInvalidArgument, fn " : invalid communicator %p", (void *)(c)); \
    } while (0)

FAKE_API ncclResult_t ncclCommCount(const ncclComm_t comm, int *count) {
    CHECK_COMM(comm, "ncclCommCount");
    if (count == NULL) return fake_nccl_warn(ncclInvalidArgument, "ncclCommCount : count argument is NULL");
    *count = comm->nranks;
    return ncclSuccess;
}

FAKE_API ncclResult_t ncclCommCuDevice(const ncclComm_t comm, int *device) {
    CHECK_COMM(comm, "ncclCommCuDevice");
    if (device == NULL) return fake_nccl_warn(ncclInvalidArgument, "ncclCommCuDevice : device argument is NULL");
    *device = comm->device;
    return ncclSuccess;
}

FAKE_API ncclResult_t ncclCommUserRank(const ncclComm_t comm, int *rank) {
    CHECK_COMM(comm, "ncclCommUserRank");
    if (rank == NULL) return fake_nccl_warn(ncclInvalidArgument, "ncclCommUserRank : rank argument is NULL");
    *rank = comm->rank;
    return ncclSuccess;
}

/* Runs what can run of the comm's queued operations (a real GPU progresses on its own; a poll
 * here must not wait for a synchronize that may never come). */
static void pump(struct ncclComm *c) {
    while (c->pending) {
        struct pending *p = c->pending;
        if (!fakegpu_advance(p->queue, p->pos)) break;
        if (c->pending == p) break; /* ran, but not through the work function */
    }
}

static ncclResult_t split_step(struct ncclComm *comm);

FAKE_API ncclResult_t ncclCommGetAsyncError(ncclComm_t comm, ncclResult_t *asyncError) {
    CHECK_COMM(comm, "ncclCommGetAsyncError");
    if (asyncError == NULL) return fake_nccl_warn(ncclInvalidArgument, "ncclCommGetAsyncError : asyncError argument is NULL");
    if (comm->state == COMM_SPLITTING) {
        *asyncError = split_step(comm);
        return ncclSuccess;
    }
    fakegpu_lock();
    if (comm->launching) {
        comm->launching = 0; /* this poll sees the launch done; the caller must poll again */
        *asyncError = comm->async == ncclSuccess ? ncclInProgress : comm->async;
    } else if (comm->state == COMM_INITIALIZING) {
        *asyncError = init_step(comm);
    } else {
        pump(comm);
        *asyncError = comm->async;
    }
    fakegpu_unlock();
    return ncclSuccess;
}

/* --- split ------------------------------------------------------------------------------ */

ncclResult_t fake_comm_busy(struct ncclComm *c, const char *fn) {
    if (c->state != COMM_SPLITTING && !c->launching) return ncclSuccess;
    return fake_nccl_warn(ncclInvalidArgument, "%s : Attempt to use communicator before the previous operation "
                          "returned ncclSuccess", fn);
}

/* Whether every rank has posted split number seq: 1 when all have, 0 when some has not yet (and
 * the deadline has not passed), -1 with *r the error when a rank is gone or late. */
static int split_ready(struct ncclComm *comm, uint64_t seq, int64_t deadline, ncclResult_t *r) {
    for (int q = 0; q < comm->nranks; q++) {
        const uint64_t *posted = &slot_of(comm, q)->mgmt_posted;
        if (__atomic_load_n(posted, __ATOMIC_ACQUIRE) >= seq) continue;
        ncclResult_t f = fake_peer_failed(comm, q, posted, seq);
        if (f != ncclSuccess) {
            *r = fake_nccl_warn(f, "ncclCommSplit : rank %d is gone", q);
            return -1;
        }
        if (fakegpu_now_ms() > deadline) {
            *r = fake_nccl_warn(ncclTimeout, "fake NCCL: ncclCommSplit : rank %d did not arrive within %lld ms", q,
                                (long long)fake_nccl_timeout_ms());
            return -1;
        }
        return 0;
    }
    return 1;
}

/* Once every rank has posted split number seq: the new communicator of this rank's colour. */
static ncclResult_t split_finish(struct ncclComm *comm, uint64_t seq, int color, int key, ncclComm_t *newcomm,
                                 int blocking) {
    if (color == NCCL_SPLIT_NOCOLOR) return ncclSuccess;
    /* New rank: position by (key, parent rank) among the parent's ranks of this color. */
    int size = 0, rank = 0;
    for (int r = 0; r < comm->nranks; r++) {
        struct rank_slot *o = slot_of(comm, r);
        int oc = o->mgmt_color[seq % 2], ok = o->mgmt_key[seq % 2];
        if (oc != color) continue;
        size++;
        if (ok < key || (ok == key && r < comm->rank)) rank++;
    }
    /* The child id: a hash of the parent id, the split number and the color, as 32 hex digits. */
    uint64_t h1 = 1469598103934665603ull, h2 = 1099511628211ull ^ seq;
    for (int i = 0; i < 32; i++) {
        h1 = (h1 ^ (unsigned char)comm->id_hex[i]) * 1099511628211ull;
        h2 = (h2 ^ (unsigned char)comm->id_hex[31 - i]) * 1469598103934665603ull;
    }
    h1 ^= seq * 0x9e3779b97f4a7c15ull;
    h2 ^= (uint64_t)(uint32_t)color * 0xc2b2ae3d27d4eb4full;
    char hex[33];
    snprintf(hex, sizeof hex, "%016llx%016llx", (unsigned long long)h1, (unsigned long long)h2);
    int saved;
    fakegpu_current_device(&saved);
    /* The child lives on the parent's device, whatever the thread's current device is. */
    cudaSetDevice(comm->device);
    ncclResult_t r = init_rank(newcomm, size, hex, rank, blocking);
    cudaSetDevice(saved);
    return r;
}

/* One poll of a non-blocking split (ncclCommGetAsyncError on the parent): ncclInProgress until
 * every rank has posted; then the new handle is written where the caller asked, as NCCL does from
 * its own thread, and the parent is ready again. A failure is the parent's sticky error. */
static ncclResult_t split_step(struct ncclComm *comm) {
    ncclResult_t r = ncclSuccess;
    int ready = split_ready(comm, comm->mgmt_seq, comm->split.deadline, &r);
    if (ready == 0) return ncclInProgress;
    if (ready > 0) {
        ncclComm_t child = NULL;
        r = split_finish(comm, comm->mgmt_seq, comm->split.color, comm->split.key, &child, comm->split.blocking);
        if (r == ncclInProgress) r = ncclSuccess; /* the child initializes on its own; poll it */
        *comm->split.out = child;
    }
    fakegpu_lock();
    if (r != ncclSuccess) comm->async = r;
    comm->state = COMM_READY;
    fakegpu_unlock();
    return r;
}

/* Host-side collective over the parent, as in NCCL: every rank (NCCL_SPLIT_NOCOLOR ones
 * included) posts its colour and key in its slot and waits until all have posted the same split;
 * then derive the new communicator's id from the parent's, the split's number and the color.
 * A NOCOLOR rank gets NULL. The entries are double-buffered by split number (rank_slot), so a
 * rank that returns early and splits again never overwrites what a slower one still reads.
 * On a non-blocking parent, or with a non-blocking configuration, the call returns ncclInProgress
 * at once, as NCCL does, and the handle is written only when a later ncclCommGetAsyncError on
 * the parent finds the split done (NCCL writes it from its own thread); until then every other
 * call on the parent fails. */
FAKE_API ncclResult_t ncclCommSplit(ncclComm_t comm, int color, int key, ncclComm_t *newcomm, ncclConfig_t *config) {
    CHECK_COMM(comm, "ncclCommSplit");
    if (newcomm == NULL) return fake_nccl_warn(ncclInvalidArgument, "ncclCommSplit : newcomm argument is NULL");
    if (color < NCCL_SPLIT_NOCOLOR) return fake_nccl_warn(ncclInvalidArgument, "ncclCommSplit : invalid color %d", color);
    ncclResult_t busy = fake_comm_busy(comm, "ncclCommSplit");
    if (busy != ncclSuccess) return busy;
    int blocking = comm->blocking;
    if (config) {
        ncclResult_t r = check_config(config, &blocking);
        if (r != ncclSuccess) return r;
    }
    if (comm->state != COMM_READY) return fake_nccl_warn(ncclInvalidUsage, "ncclCommSplit : communicator is not ready");
    if (comm->async != ncclSuccess) return comm->async;
    if (fake_nccl_noop()) {
        *newcomm = NULL;
        if (color == NCCL_SPLIT_NOCOLOR) return ncclSuccess;
        struct ncclComm *c = new_comm(1, 0, comm->device, blocking);
        if (c == NULL) return ncclSystemError;
        c->state = COMM_READY;
        fakegpu_lock();
        c->next = g_comms;
        g_comms = c;
        fakegpu_unlock();
        *newcomm = c;
        return ncclSuccess;
    }
    uint64_t seq = ++comm->mgmt_seq;
    struct rank_slot *me = slot_of(comm, comm->rank);
    me->mgmt_color[seq % 2] = color;
    me->mgmt_key[seq % 2] = key;
    __atomic_store_n(&me->mgmt_posted, seq, __ATOMIC_RELEASE);
    int64_t deadline = fakegpu_now_ms() + fake_nccl_timeout_ms();
    if (!blocking || !comm->blocking) {
        /* As NCCL 2.28 does: the handle is NULL until the split is done, and the call returns
         * ncclSuccess, not ncclInProgress (the group's in-progress result is dropped); only the
         * parent's state says when the split is over. */
        *newcomm = NULL;
        fakegpu_lock();
        comm->split.color = color;
        comm->split.key = key;
        comm->split.blocking = blocking;
        comm->split.out = newcomm;
        comm->split.deadline = deadline;
        comm->state = COMM_SPLITTING;
        fakegpu_unlock();
        return ncclSuccess;
    }
    *newcomm = NULL;
    struct timespec nap = {0, 500000};
    ncclResult_t r = ncclSuccess;
    int ready;
    while ((ready = split_ready(comm, seq, deadline, &r)) == 0) nanosleep(&nap, NULL);
    if (ready < 0) return r;
    return split_finish(comm, seq, color, key, newcomm, blocking);
}

/* --- finalize, destroy, abort ----------------------------------------------------------- */

/* Waits (with the deadline) until the comm's queued operations have run. */
static ncclResult_t flush(struct ncclComm *c) {
    int64_t deadline = fakegpu_now_ms() + fake_nccl_timeout_ms();
    struct timespec nap = {0, 500000};
    for (;;) {
        fakegpu_lock();
        pump(c);
        int idle = c->pending == NULL;
        fakegpu_unlock();
        if (idle) return ncclSuccess;
        if (fakegpu_now_ms() > deadline) {
            return fake_nccl_warn(ncclTimeout, "fake NCCL: queued operations did not complete within %lld ms",
                                  (long long)fake_nccl_timeout_ms());
        }
        nanosleep(&nap, NULL);
    }
}

FAKE_API ncclResult_t ncclCommFinalize(ncclComm_t comm) {
    CHECK_COMM(comm, "ncclCommFinalize");
    if (comm->state == COMM_FINALIZED) return fake_nccl_warn(ncclInvalidUsage, "ncclCommFinalize : already finalized");
    ncclResult_t busy = fake_comm_busy(comm, "ncclCommFinalize");
    if (busy != ncclSuccess) return busy;
    ncclResult_t r = comm->state == COMM_INITIALIZING ? wait_init(comm) : ncclSuccess;
    if (r == ncclSuccess && comm->async == ncclSuccess) r = flush(comm);
    fakegpu_lock();
    comm->state = COMM_FINALIZED;
    fakegpu_unlock();
    return r;
}

/* On abort, own contributions to operations that had not completed here (a peer died or never
 * arrived) are unlinked. Those of completed operations are left to slower readers, as data a
 * real NCCL has already transferred. */
static void unlink_unread(struct ncclComm *c) {
    char name[160];
    for (uint64_t k = c->coll_completed + 1; k <= c->coll_seq; k++) {
        snprintf(name, sizeof name, "/fkn-%s-c%llu-r%d", c->id_hex, (unsigned long long)k, c->rank);
        shm_unlink(name);
    }
    for (int p = 0; p < c->nranks; p++) {
        for (uint64_t k = c->sent_seq[p] > 8 ? c->sent_seq[p] - 8 : 1; k <= c->sent_seq[p]; k++) {
            snprintf(name, sizeof name, "/fkn-%s-p%d-%d-%llu", c->id_hex, c->rank, p, (unsigned long long)k);
            shm_unlink(name);
        }
    }
}

/* The comm struct stays allocated (queued work may still name it); its state says it is gone. */
static void retire(struct ncclComm *c, int discard) {
    fakegpu_lock();
    if (c->ctl && c->state != COMM_DEAD && discard) unlink_unread(c);
    c->state = COMM_DEAD;
    if (c->ctl) __atomic_store_n(&slot_of(c, c->rank)->gone, 1, __ATOMIC_RELEASE);
    if (discard) {
        while (c->pending) {
            struct pending *p = c->pending;
            c->pending = p->next;
            free(p);
        }
    }
    fakegpu_unlock();
}

FAKE_API ncclResult_t ncclCommDestroy(ncclComm_t comm) {
    if (comm == NULL) return ncclSuccess;
    CHECK_COMM(comm, "ncclCommDestroy");
    ncclResult_t r = ncclSuccess;
    if (comm->state != COMM_FINALIZED && comm->async == ncclSuccess) r = flush(comm);
    retire(comm, 0);
    return r;
}

/* Queued operations of the comm finish at once without effect; peers waiting for this rank
 * get ncclRemoteError. */
FAKE_API ncclResult_t ncclCommAbort(ncclComm_t comm) {
    if (comm == NULL) return ncclSuccess;
    CHECK_COMM(comm, "ncclCommAbort");
    retire(comm, 1);
    return ncclSuccess;
}
