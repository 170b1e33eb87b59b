/* Internals shared by the files of libfakenccl. */
#ifndef FAKE_NCCL_H
#define FAKE_NCCL_H

#include "fake_gpu.h"
#include "fake_nccl_abi.h"

#include <stdint.h>

#define FAKE_API FAKEGPU_API
#define ID_MAGIC "FAKENCCL"

/* Control segment of one communicator, shared by its ranks (POSIX shm named from the id). */
struct rank_slot {
    int pid;    /* 0 until joined */
    int device;
    int gone;   /* destroyed or aborted: peers waiting for it fail */
    int seen;   /* has mapped the segment after everyone joined */
    char node[64];
    uint64_t coll_posted; /* last collective sequence number whose data this rank published */
    uint64_t mgmt_posted; /* last host-side operation (split) it posted */
    /* Its colour and key for split number mgmt_posted, in entry [number % 2]: a rank that has
     * finished split k may post split k+1 while a slower one still reads split k's entries, but
     * cannot post k+2 before that one has posted k+1, i.e. has finished reading. */
    int mgmt_color[2], mgmt_key[2];
};

struct shm_ctl {
    uint32_t magic;
    int nranks;
    int joined;
    int seen;
    /* then: struct rank_slot ranks[nranks]; uint64_t sent[nranks*nranks], recvd[nranks*nranks] */
};

/* COMM_SPLITTING: a non-blocking ncclCommSplit of this (parent) comm has not completed yet. */
enum comm_state { COMM_INITIALIZING, COMM_READY, COMM_SPLITTING, COMM_FINALIZED, COMM_DEAD };

struct ncclComm {
    uint32_t magic;
    enum comm_state state;
    int rank, nranks, device, blocking;
    char id_hex[33];          /* names the shm segments */
    struct shm_ctl *ctl;
    size_t ctl_bytes;
    int64_t init_deadline;
    ncclResult_t async;       /* sticky asynchronous error */
    uint64_t coll_seq;        /* collectives issued */
    uint64_t coll_completed;  /* the last collective that completed here */
    uint64_t mgmt_seq;        /* splits issued */
    int launching;            /* non-blocking: the last operation or group returned ncclInProgress
                                 and no ncclCommGetAsyncError has seen it launched yet */
    struct {                  /* the non-blocking split in progress (state COMM_SPLITTING) */
        int color, key, blocking;
        ncclComm_t *out;      /* where the new handle goes once the split is done */
        int64_t deadline;
    } split;
    uint64_t *sent_seq;       /* sends issued per peer */
    uint64_t *recv_seq;       /* receives issued per peer */
    uint64_t items_issued, items_done; /* queued operations, run strictly in issue order */
    struct pending *pending;  /* queued, not yet run */
    uint64_t ops_done;        /* for the injected asynchronous error */
    int absent;               /* fault: never takes part in collectives */
    long fault_async_after;   /* fault: asynchronous error after this many operations (-1: none) */
    long fault_stall_ms;      /* fault: pause before checking whether a peer that is late is gone */
    struct ncclComm *next;
};

struct pending { /* where a queued operation of this comm sits, to run earlier ones first */
    uint64_t item;
    void *queue;
    uint64_t pos;
    struct pending *next;
};

static inline struct rank_slot *slot_of(struct ncclComm *c, int r) {
    return (struct rank_slot *)(c->ctl + 1) + r;
}
static inline uint64_t *sent_of(struct ncclComm *c, int src, int dst) {
    return (uint64_t *)(slot_of(c, c->nranks)) + (size_t)src * c->nranks + dst;
}
static inline uint64_t *recvd_of(struct ncclComm *c, int src, int dst) {
    return sent_of(c, 0, 0) + (size_t)c->nranks * c->nranks + (size_t)src * c->nranks + dst;
}

/* fake_nccl.c */
ncclResult_t fake_nccl_warn(ncclResult_t r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int fake_comm_valid(struct ncclComm *c);
int fake_nccl_noop(void);
/* Why a peer will never bring *progress (a counter it advances in the control segment) to
 * needed: it is gone or its process died first; ncclSuccess while it may still, or once it has. */
/* ncclSuccess, or NCCL's error for a call on a communicator whose non-blocking split or launch
 * has not yet been seen done by ncclCommGetAsyncError. */
ncclResult_t fake_comm_busy(struct ncclComm *c, const char *fn);
ncclResult_t fake_peer_failed(struct ncclComm *c, int peer, const uint64_t *progress, uint64_t needed);
void fake_comm_async(struct ncclComm *c, ncclResult_t r, const char *what);
int64_t fake_nccl_timeout_ms(void);

/* fake_nccl_types.c */
size_t fake_type_size(ncclDataType_t t);
/* acc[i] = acc[i] op x[i] for count elements; avg sums (fake_finish_avg divides). */
void fake_reduce(void *acc, const void *x, size_t count, ncclDataType_t t, ncclRedOp_t op);
void fake_finish_avg(void *acc, size_t count, ncclDataType_t t, int n);

/* fake_nccl_shm.c: per-operation data segments */
void *fake_seg_create(struct ncclComm *c, const char *tag, const void *data, size_t bytes, int readers);
/* Maps a peer's segment for reading (the last of its readers unlinks the name); NULL if absent. */
const void *fake_seg_open(struct ncclComm *c, const char *tag, size_t bytes, void **map, size_t *map_bytes);
void fake_seg_close(void *map, size_t map_bytes);

#endif
