/* Fake NCCL: collectives, send/recv and groups. A call checks its arguments as NCCL does (with
 * NCCL_CHECK_POINTERS=1, plus the buffer extents that only the fake can know) and queues the
 * operation on the stream; it runs when the stream is synchronized. Running it publishes this
 * rank's contribution in shared memory and completes once the peers' contributions are there;
 * operations of one communicator run in the order they were issued, as in NCCL. */
#define _GNU_SOURCE
#include "fake_nccl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum op_kind { OP_ALLREDUCE, OP_BROADCAST, OP_REDUCE, OP_ALLGATHER, OP_REDUCESCATTER, OP_SEND, OP_RECV };
static const char *const OP_NAMES[] = {"AllReduce", "Broadcast", "Reduce", "AllGather", "ReduceScatter", "Send", "Recv"};

struct op {
    enum op_kind kind;
    struct ncclComm *comm;
    const void *send;
    void *recv;
    size_t count;
    ncclDataType_t type;
    ncclRedOp_t red;
    int root, peer;
    cudaStream_t stream;
    uint64_t seq; /* collective number, or the send/recv number with this peer */
    int published, done;
};

/* A position in a stream's queue: "has run up to here". */
struct mark {
    void *queue;
    uint64_t pos;
};

struct work {
    struct ncclComm *comm;
    uint64_t item;
    int nops;
    struct op *ops;
    int64_t started;
    int njoins;
    struct mark *joins; /* other streams of the group: their earlier work runs first */
};

/* The group being collected by this thread (ncclGroupStart nesting depth and its operations). */
static __thread int t_group_depth;
static __thread struct op *t_group_ops;
static __thread int t_group_n, t_group_cap;
static __thread ncclResult_t t_group_error;

/* --- argument checks -------------------------------------------------------------------- */

static ncclResult_t check_buffer(struct ncclComm *c, const char *opname, const char *what, const void *p, size_t bytes) {
    uintptr_t base = 0;
    size_t size = 0;
    int dev = -1;
    enum cudaMemoryType t = fakegpu_lookup(p, &base, &size, &dev);
    if (p == NULL || t != cudaMemoryTypeDevice) {
        return fake_nccl_warn(ncclInvalidArgument, "%s : %s %p is not a valid pointer", opname, what, p);
    }
    if (dev != c->device) {
        return fake_nccl_warn(ncclInvalidArgument, "%s : %s allocated on device %d mismatchs with NCCL device %d",
                              opname, what, dev, c->device);
    }
    if (bytes > size - ((uintptr_t)p - base)) {
        return fake_nccl_warn(ncclInvalidArgument, "fake NCCL: %s : %s %p: %zu bytes needed, the allocation has %zu "
                              "from there", opname, what, p, bytes, size - ((uintptr_t)p - base));
    }
    return ncclSuccess;
}

static ncclResult_t check_op(struct op *o) {
    const char *name = OP_NAMES[o->kind];
    struct ncclComm *c = o->comm;
    fakegpu_lock();
    int valid = fake_comm_valid(c);
    fakegpu_unlock();
    if (!valid) return fake_nccl_warn(ncclInvalidArgument, "%s : invalid communicator %p", name, (void *)c);
    if (c->state == COMM_INITIALIZING) return fake_nccl_warn(ncclInvalidUsage, "%s : communicator is still initializing", name);
    if (c->state == COMM_FINALIZED) return fake_nccl_warn(ncclInvalidUsage, "%s : communicator was finalized", name);
    ncclResult_t busy = fake_comm_busy(c, name);
    if (busy != ncclSuccess) return busy;
    if (c->async != ncclSuccess) return c->async;
    if ((int)o->type < 0 || o->type >= ncclNumTypes) {
        return fake_nccl_warn(ncclInvalidArgument, "%s : invalid type %d", name, (int)o->type);
    }
    int reduces = o->kind == OP_ALLREDUCE || o->kind == OP_REDUCE || o->kind == OP_REDUCESCATTER;
    if (reduces && ((int)o->red < 0 || o->red >= ncclNumOps)) {
        return fake_nccl_warn(ncclInvalidArgument, "%s : invalid reduction operation %d", name, (int)o->red);
    }
    if ((o->kind == OP_BROADCAST || o->kind == OP_REDUCE) && (o->root < 0 || o->root >= c->nranks)) {
        return fake_nccl_warn(ncclInvalidArgument, "%s : invalid root %d (root should be in the 0..%d range)", name,
                              o->root, c->nranks - 1);
    }
    if ((o->kind == OP_SEND || o->kind == OP_RECV) && (o->peer < 0 || o->peer >= c->nranks)) {
        return fake_nccl_warn(ncclInvalidArgument, "%s : invalid peer %d (peer should be in the 0..%d range)", name,
                              o->peer, c->nranks - 1);
    }
    cudaError_t ce;
    int dev;
    if ((ce = fakegpu_current_device(&dev)) != cudaSuccess) {
        return fake_nccl_warn(ncclUnhandledCudaError, "Cuda failure %d '%s'", (int)ce, cudaGetErrorString(ce));
    }
    if (o->count == 0) return ncclSuccess;
    size_t sz = fake_type_size(o->type), n = (size_t)c->nranks;
    if (o->count > SIZE_MAX / sz / n) return fake_nccl_warn(ncclInvalidArgument, "%s : count %zu too large", name, o->count);
    size_t bytes = o->count * sz;
    ncclResult_t r = ncclSuccess;
    switch (o->kind) {
        case OP_ALLREDUCE:
            if ((r = check_buffer(c, name, "sendbuff", o->send, bytes)) == ncclSuccess) r = check_buffer(c, name, "recvbuff", o->recv, bytes);
            break;
        case OP_BROADCAST: /* the send buffer matters at the root only */
            if (c->rank == o->root) r = check_buffer(c, name, "sendbuff", o->send, bytes);
            if (r == ncclSuccess) r = check_buffer(c, name, "recvbuff", o->recv, bytes);
            break;
        case OP_REDUCE: /* recvbuff may be NULL except at the root */
            r = check_buffer(c, name, "sendbuff", o->send, bytes);
            if (r == ncclSuccess && c->rank == o->root) r = check_buffer(c, name, "recvbuff", o->recv, bytes);
            break;
        case OP_ALLGATHER:
            if ((r = check_buffer(c, name, "sendbuff", o->send, bytes)) == ncclSuccess) r = check_buffer(c, name, "recvbuff", o->recv, bytes * n);
            break;
        case OP_REDUCESCATTER:
            if ((r = check_buffer(c, name, "sendbuff", o->send, bytes * n)) == ncclSuccess) r = check_buffer(c, name, "recvbuff", o->recv, bytes);
            break;
        case OP_SEND: r = check_buffer(c, name, "sendbuff", o->send, bytes); break;
        case OP_RECV: r = check_buffer(c, name, "recvbuff", o->recv, bytes); break;
    }
    return r;
}

/* --- running an operation (under the lock, never blocking) ------------------------------- */

static void tag_coll(char *out, size_t n, uint64_t seq, int rank) { snprintf(out, n, "c%llu-r%d", (unsigned long long)seq, rank); }
static void tag_p2p(char *out, size_t n, int src, int dst, uint64_t seq) {
    snprintf(out, n, "p%d-%d-%llu", src, dst, (unsigned long long)seq);
}

static size_t op_bytes(struct op *o) { return o->count * fake_type_size(o->type); }

/* Publishes this rank's contribution; 0 when shared memory failed. */
static int publish(struct op *o) {
    struct ncclComm *c = o->comm;
    char tag[64];
    size_t bytes = op_bytes(o), n = (size_t)c->nranks;
    if (o->kind == OP_SEND) {
        tag_p2p(tag, sizeof tag, c->rank, o->peer, o->seq);
        if (!fake_seg_create(c, tag, o->send, bytes, 1)) return 0;
        __atomic_store_n(sent_of(c, c->rank, o->peer), o->seq, __ATOMIC_RELEASE);
        return 1;
    }
    if (o->kind == OP_RECV) return 1;
    int readers = c->nranks - 1;
    const void *data = o->send;
    if (o->kind == OP_REDUCESCATTER) bytes *= n;
    if (o->kind == OP_BROADCAST && c->rank != o->root) readers = 0;
    if (o->kind == OP_REDUCE) readers = c->rank == o->root ? 0 : 1;
    if (readers > 0 && bytes > 0) {
        tag_coll(tag, sizeof tag, o->seq, c->rank);
        if (!fake_seg_create(c, tag, data, bytes, readers)) return 0;
    }
    __atomic_store_n(&slot_of(c, c->rank)->coll_posted, o->seq, __ATOMIC_RELEASE);
    return 1;
}

/* Whether rank r has published collective seq; *failed gets why it never will. */
static int posted(struct ncclComm *c, int r, uint64_t seq, ncclResult_t *failed) {
    const uint64_t *progress = &slot_of(c, r)->coll_posted;
    if (__atomic_load_n(progress, __ATOMIC_ACQUIRE) >= seq) return 1;
    *failed = fake_peer_failed(c, r, progress, seq);
    return 0;
}

/* Reads rank r's contribution to collective o into dst (bytes from offset); 0 with *from = r if
 * it is not there. */
static int read_peer(struct op *o, int r, size_t whole, size_t offset, size_t bytes, void *dst, int *from) {
    char tag[64];
    void *map = NULL;
    size_t map_bytes = 0;
    tag_coll(tag, sizeof tag, o->seq, r);
    const char *data = fake_seg_open(o->comm, tag, whole, &map, &map_bytes);
    if (data == NULL || data == (const void *)-1) {
        fake_seg_close(map, map_bytes);
        *from = r;
        return 0;
    }
    memcpy(dst, data + offset, bytes);
    fake_seg_close(map, map_bytes);
    return 1;
}

/* FAKEGPU_DONE, FAKEGPU_PENDING, or (negative) a failure already recorded on the comm. */
static int complete(struct op *o) {
    struct ncclComm *c = o->comm;
    size_t bytes = op_bytes(o), n = (size_t)c->nranks, sz = fake_type_size(o->type);
    ncclResult_t failed = ncclSuccess;
    char why[160];
    int need_all = o->kind == OP_ALLREDUCE || o->kind == OP_ALLGATHER || o->kind == OP_REDUCESCATTER ||
                   (o->kind == OP_REDUCE && c->rank == o->root);
    if (o->kind == OP_SEND) {
        const uint64_t *recvd = recvd_of(c, c->rank, o->peer);
        if (__atomic_load_n(recvd, __ATOMIC_ACQUIRE) >= o->seq) return FAKEGPU_DONE;
        failed = fake_peer_failed(c, o->peer, recvd, o->seq);
        if (failed == ncclSuccess) return FAKEGPU_PENDING; /* received by now, or not yet: the next poll says */
        snprintf(why, sizeof why, "Send to rank %d: the peer is gone", o->peer);
        fake_comm_async(c, failed, why);
        return -1;
    }
    if (o->kind == OP_RECV) {
        const uint64_t *sent = sent_of(c, o->peer, c->rank);
        if (__atomic_load_n(sent, __ATOMIC_ACQUIRE) < o->seq) {
            failed = fake_peer_failed(c, o->peer, sent, o->seq);
            if (failed == ncclSuccess) return FAKEGPU_PENDING;
            snprintf(why, sizeof why, "Recv from rank %d: the peer is gone", o->peer);
            fake_comm_async(c, failed, why);
            return -1;
        }
        char tag[64];
        void *map = NULL;
        size_t map_bytes = 0;
        tag_p2p(tag, sizeof tag, o->peer, c->rank, o->seq);
        const void *data = fake_seg_open(c, tag, bytes, &map, &map_bytes);
        int ok = data != NULL && data != (const void *)-1;
        if (ok && bytes) memcpy(o->recv, data, bytes);
        fake_seg_close(map, map_bytes);
        __atomic_store_n(recvd_of(c, o->peer, c->rank), o->seq, __ATOMIC_RELEASE);
        if (!ok) {
            snprintf(why, sizeof why, "Recv from rank %d: the message does not have the %zu bytes this receive "
                     "expects (count or type differ)", o->peer, bytes);
            fake_comm_async(c, ncclInvalidUsage, why);
            return -1;
        }
        return FAKEGPU_DONE;
    }
    if (o->kind == OP_BROADCAST || (o->kind == OP_REDUCE && c->rank != o->root) || need_all) {
        for (int r = 0; r < c->nranks; r++) {
            int needed = need_all || (o->kind == OP_BROADCAST && r == o->root);
            if (!needed || r == c->rank || posted(c, r, o->seq, &failed)) continue;
            if (failed == ncclSuccess) return FAKEGPU_PENDING;
            snprintf(why, sizeof why, "%s: rank %d is gone", OP_NAMES[o->kind], r);
            fake_comm_async(c, failed, why);
            return -1;
        }
    }
    if (bytes == 0) return FAKEGPU_DONE;
    int ok = 1, from = -1;
    switch (o->kind) {
        case OP_BROADCAST:
            if (c->rank == o->root) memmove(o->recv, o->send, bytes);
            else ok = read_peer(o, o->root, bytes, 0, bytes, o->recv, &from);
            break;
        case OP_ALLGATHER:
            memmove((char *)o->recv + c->rank * bytes, o->send, bytes);
            for (int r = 0; r < c->nranks && ok; r++) {
                if (r != c->rank) ok = read_peer(o, r, bytes, 0, bytes, (char *)o->recv + r * bytes, &from);
            }
            break;
        case OP_REDUCE:
            if (c->rank != o->root) break;
            __attribute__((fallthrough)); /* the root reduces like allreduce */
        case OP_ALLREDUCE:
        case OP_REDUCESCATTER: {
            /* Rank order, so that every rank computes bit-identical floating-point results. */
            size_t whole = o->kind == OP_REDUCESCATTER ? bytes * n : bytes;
            size_t offset = o->kind == OP_REDUCESCATTER ? (size_t)c->rank * bytes : 0;
            char *acc = malloc(bytes), *tmp = malloc(bytes);
            ok = acc && tmp;
            for (int r = 0; r < c->nranks && ok; r++) {
                char *dst = r == 0 ? acc : tmp;
                if (r == c->rank) memcpy(dst, (const char *)o->send + offset, bytes);
                else ok = read_peer(o, r, whole, offset, bytes, dst, &from);
                if (ok && r > 0) fake_reduce(acc, tmp, o->count, o->type, o->red);
            }
            if (ok && o->red == ncclAvg) fake_finish_avg(acc, o->count, o->type, c->nranks);
            if (ok) memcpy(o->recv, acc, bytes);
            free(acc);
            free(tmp);
            break;
        }
        default: break;
    }
    (void)sz;
    if (!ok && from >= 0 && (failed = fake_peer_failed(c, from, NULL, 0)) != ncclSuccess) {
        /* It aborted after posting, which removes what it had posted for operations it did not
         * complete: its own operation failed, so this one does as a real NCCL's would. */
        snprintf(why, sizeof why, "%s: rank %d is gone (aborted before this rank read its contribution)",
                 OP_NAMES[o->kind], from);
        fake_comm_async(c, failed, why);
        return -1;
    }
    if (!ok) {
        snprintf(why, sizeof why, "%s: a peer's contribution could not be read from shared memory", OP_NAMES[o->kind]);
        fake_comm_async(c, ncclSystemError, why);
        return -1;
    }
    return FAKEGPU_DONE;
}

static void finish_item(struct work *w) {
    struct ncclComm *c = w->comm;
    c->items_done = w->item;
    for (int i = 0; i < w->nops && c->async == ncclSuccess; i++) { /* failed ones did not complete */
        if (w->ops[i].kind != OP_SEND && w->ops[i].kind != OP_RECV) c->coll_completed = w->ops[i].seq;
    }
    if (c->pending && c->pending->item == w->item) {
        struct pending *p = c->pending;
        c->pending = p->next;
        free(p);
    }
    c->ops_done += (uint64_t)w->nops;
    if (c->fault_async_after >= 0 && c->ops_done >= (uint64_t)c->fault_async_after) {
        fake_comm_async(c, ncclSystemError, "injected asynchronous error (FAKE_NCCL_FAULT)");
    }
}

/* Queued on the group's other streams: later work there waits for the group. */
static int run_barrier(void *arg) {
    struct mark *m = arg;
    if (m->queue == NULL) return FAKEGPU_DONE; /* the group itself failed to queue */
    return fakegpu_advance(m->queue, m->pos) ? FAKEGPU_DONE : FAKEGPU_PENDING;
}

static int run_work(void *arg) {
    struct work *w = arg;
    struct ncclComm *c = w->comm;
    if (c->state == COMM_DEAD) return FAKEGPU_DONE; /* aborted or destroyed: no effect */
    for (int j = 0; j < w->njoins; j++) {
        if (!fakegpu_advance(w->joins[j].queue, w->joins[j].pos)) return FAKEGPU_PENDING;
    }
    /* Earlier operations of this comm (maybe on other streams) run first. */
    while (c->items_done + 1 < w->item) {
        struct pending *p = c->pending;
        if (p == NULL || p->item >= w->item || !fakegpu_advance(p->queue, p->pos)) return FAKEGPU_PENDING;
        if (c->pending == p) return FAKEGPU_PENDING;
    }
    if (c->async != ncclSuccess) { /* a failed comm's kernels do nothing */
        finish_item(w);
        return FAKEGPU_DONE;
    }
    if (c->absent) return FAKEGPU_PENDING; /* injected: this rank never arrives */
    if (w->started == 0) w->started = fakegpu_now_ms();
    for (int i = 0; i < w->nops; i++) {
        if (!w->ops[i].published && !(w->ops[i].published = publish(&w->ops[i]))) {
            fake_comm_async(c, ncclSystemError, "could not create a shared-memory segment");
            finish_item(w);
            return FAKEGPU_DONE;
        }
    }
    int all = 1;
    for (int i = 0; i < w->nops; i++) {
        if (w->ops[i].done) continue;
        int r = complete(&w->ops[i]);
        if (r < 0) {
            finish_item(w);
            return FAKEGPU_DONE;
        }
        w->ops[i].done = r == FAKEGPU_DONE;
        all &= w->ops[i].done;
    }
    if (!all && fakegpu_now_ms() - w->started > fake_nccl_timeout_ms()) {
        char why[128];
        snprintf(why, sizeof why, "%s did not complete within %lld ms (a peer never arrived)",
                 OP_NAMES[w->ops[0].kind], (long long)fake_nccl_timeout_ms());
        fake_comm_async(c, ncclTimeout, why);
        all = 1;
    }
    if (all) finish_item(w);
    return all ? FAKEGPU_DONE : FAKEGPU_PENDING;
}

static void drop_work(void *arg) {
    struct work *w = arg;
    free(w->joins);
    free(w->ops);
    free(w);
}

/* Queues the operations of one comm (all on ops[0]'s stream) as one item. */
static ncclResult_t enqueue(struct op *ops, int n) {
    struct ncclComm *c = ops[0].comm;
    struct work *w = calloc(1, sizeof *w);
    struct pending *p = calloc(1, sizeof *p);
    struct op *copy = malloc(sizeof *copy * (size_t)n);
    if (!w || !p || !copy) {
        free(w);
        free(p);
        free(copy);
        return fake_nccl_warn(ncclSystemError, "fake NCCL: out of host memory");
    }
    memcpy(copy, ops, sizeof *copy * (size_t)n);
    fakegpu_lock();
    for (int i = 0; i < n; i++) {
        struct op *o = &copy[i];
        if (o->kind == OP_SEND) o->seq = ++c->sent_seq[o->peer];
        else if (o->kind == OP_RECV) o->seq = ++c->recv_seq[o->peer];
        else o->seq = ++c->coll_seq;
    }
    w->comm = c;
    w->item = ++c->items_issued;
    w->nops = n;
    w->ops = copy;
    void *queue = NULL;
    uint64_t pos = 0;
    cudaError_t ce = cudaSuccess;
    /* A group over several streams joins them, as NCCL does: a barrier on each other stream
     * (queued first, so the group waits for that stream's earlier work), then the group itself on
     * the first stream; the barriers learn the group's position before anything can run them. */
    struct mark *barriers[64];
    int nb = 0;
    w->joins = calloc((size_t)n, sizeof *w->joins);
    if (w->joins == NULL) ce = cudaErrorMemoryAllocation;
    for (int i = 1; i < n && ce == cudaSuccess && nb < 64; i++) {
        int seen = copy[i].stream == copy[0].stream;
        for (int j = 1; j < i; j++) seen |= copy[j].stream == copy[i].stream;
        if (seen) continue;
        struct mark *b = calloc(1, sizeof *b);
        if (b == NULL) {
            ce = cudaErrorMemoryAllocation;
            break;
        }
        ce = fakegpu_enqueue(copy[i].stream, run_barrier, b, free, &w->joins[w->njoins].queue, &w->joins[w->njoins].pos);
        if (ce != cudaSuccess) {
            free(b);
            break;
        }
        w->joins[w->njoins].pos--; /* up to, not including, the barrier */
        w->njoins++;
        barriers[nb++] = b;
    }
    if (ce == cudaSuccess) ce = fakegpu_enqueue(ops[0].stream, run_work, w, drop_work, &queue, &pos);
    for (int i = 0; i < nb; i++) {
        barriers[i]->queue = queue;
        barriers[i]->pos = pos;
    }
    ncclResult_t r = ncclSuccess;
    if (ce != cudaSuccess) {
        /* Undo the numbering: nothing was queued. */
        for (int i = 0; i < n; i++) {
            struct op *o = &copy[i];
            if (o->kind == OP_SEND) c->sent_seq[o->peer]--;
            else if (o->kind == OP_RECV) c->recv_seq[o->peer]--;
            else c->coll_seq--;
        }
        c->items_issued--;
        drop_work(w);
        free(p);
        r = fake_nccl_warn(ncclUnhandledCudaError, "Cuda failure %d '%s'", (int)ce, cudaGetErrorString(ce));
    } else {
        p->item = w->item;
        p->queue = queue;
        p->pos = pos;
        struct pending **tail = &c->pending;
        while (*tail) tail = &(*tail)->next;
        *tail = p;
        /* As NCCL on a non-blocking communicator (seen on a GPU for a group of sends and
         * receives): the launch finishes in the background; the caller polls
         * ncclCommGetAsyncError until ncclSuccess before the next call on the communicator. */
        if (!c->blocking) {
            c->launching = 1;
            r = ncclInProgress;
        }
    }
    fakegpu_unlock();
    return r;
}

/* Checks one call; queues it now, or adds it to the thread's group. */
static ncclResult_t submit(struct op o) {
    if (fake_nccl_noop()) return ncclSuccess;
    ncclResult_t r = check_op(&o);
    if (r != ncclSuccess) {
        if (t_group_depth > 0 && t_group_error == ncclSuccess) t_group_error = r;
        return r;
    }
    if (o.count == 0 && o.kind != OP_SEND && o.kind != OP_RECV) return ncclSuccess;
    if (t_group_depth == 0) return enqueue(&o, 1);
    if (t_group_n == t_group_cap) {
        int cap = t_group_cap ? 2 * t_group_cap : 16;
        struct op *g = realloc(t_group_ops, sizeof *g * (size_t)cap);
        if (g == NULL) return t_group_error = fake_nccl_warn(ncclSystemError, "fake NCCL: out of host memory");
        t_group_ops = g;
        t_group_cap = cap;
    }
    t_group_ops[t_group_n++] = o;
    return ncclSuccess;
}

FAKE_API ncclResult_t ncclGroupStart(void) {
    if (fake_nccl_noop()) return ncclSuccess;
    if (t_group_depth++ == 0) {
        t_group_n = 0;
        t_group_error = ncclSuccess;
    }
    return ncclSuccess;
}

/* The group's operations are queued per communicator; an error inside the group is returned
 * here and nothing of the group is queued. */
FAKE_API ncclResult_t ncclGroupEnd(void) {
    if (fake_nccl_noop()) return ncclSuccess;
    if (t_group_depth == 0) return fake_nccl_warn(ncclInvalidUsage, "ncclGroupEnd: not in a group call.");
    if (--t_group_depth > 0) return ncclSuccess;
    ncclResult_t r = t_group_error;
    int n = t_group_n;
    t_group_n = 0;
    if (r != ncclSuccess) return r;
    int launched = 0; /* some communicator is non-blocking: the group returns ncclInProgress */
    /* Stable partition by comm: each comm's operations go as one item, in call order. */
    for (int i = 0; i < n && r == ncclSuccess; i++) {
        if (t_group_ops[i].comm == NULL) continue;
        struct ncclComm *c = t_group_ops[i].comm;
        struct op *mine = malloc(sizeof *mine * (size_t)n);
        if (mine == NULL) return fake_nccl_warn(ncclSystemError, "fake NCCL: out of host memory");
        int k = 0;
        for (int j = i; j < n; j++) {
            if (t_group_ops[j].comm == c) {
                mine[k++] = t_group_ops[j];
                t_group_ops[j].comm = NULL;
            }
        }
        r = enqueue(mine, k);
        free(mine);
        if (r == ncclInProgress) {
            launched = 1;
            r = ncclSuccess;
        }
    }
    return r == ncclSuccess && launched ? ncclInProgress : r;
}

/* --- the public calls ------------------------------------------------------------------- */

FAKE_API ncclResult_t ncclAllReduce(const void *sendbuff, void *recvbuff, size_t count, ncclDataType_t datatype,
                                    ncclRedOp_t op, ncclComm_t comm, cudaStream_t stream) {
    struct op o = {.kind = OP_ALLREDUCE, .comm = comm, .send = sendbuff, .recv = recvbuff, .count = count,
                   .type = datatype, .red = op, .stream = stream};
    return submit(o);
}

FAKE_API ncclResult_t ncclBroadcast(const void *sendbuff, void *recvbuff, size_t count, ncclDataType_t datatype,
                                    int root, ncclComm_t comm, cudaStream_t stream) {
    struct op o = {.kind = OP_BROADCAST, .comm = comm, .send = sendbuff, .recv = recvbuff, .count = count,
                   .type = datatype, .root = root, .stream = stream};
    return submit(o);
}

FAKE_API ncclResult_t ncclReduce(const void *sendbuff, void *recvbuff, size_t count, ncclDataType_t datatype,
                                 ncclRedOp_t op, int root, ncclComm_t comm, cudaStream_t stream) {
    struct op o = {.kind = OP_REDUCE, .comm = comm, .send = sendbuff, .recv = recvbuff, .count = count,
                   .type = datatype, .red = op, .root = root, .stream = stream};
    return submit(o);
}

FAKE_API ncclResult_t ncclAllGather(const void *sendbuff, void *recvbuff, size_t sendcount, ncclDataType_t datatype,
                                    ncclComm_t comm, cudaStream_t stream) {
    struct op o = {.kind = OP_ALLGATHER, .comm = comm, .send = sendbuff, .recv = recvbuff, .count = sendcount,
                   .type = datatype, .stream = stream};
    return submit(o);
}

FAKE_API ncclResult_t ncclReduceScatter(const void *sendbuff, void *recvbuff, size_t recvcount,
                                        ncclDataType_t datatype, ncclRedOp_t op, ncclComm_t comm, cudaStream_t stream) {
    struct op o = {.kind = OP_REDUCESCATTER, .comm = comm, .send = sendbuff, .recv = recvbuff, .count = recvcount,
                   .type = datatype, .red = op, .stream = stream};
    return submit(o);
}

FAKE_API ncclResult_t ncclSend(const void *sendbuff, size_t count, ncclDataType_t datatype, int peer, ncclComm_t comm,
                               cudaStream_t stream) {
    struct op o = {.kind = OP_SEND, .comm = comm, .send = sendbuff, .count = count, .type = datatype, .peer = peer,
                   .stream = stream};
    return submit(o);
}

FAKE_API ncclResult_t ncclRecv(void *recvbuff, size_t count, ncclDataType_t datatype, int peer, ncclComm_t comm,
                               cudaStream_t stream) {
    struct op o = {.kind = OP_RECV, .comm = comm, .recv = recvbuff, .count = count, .type = datatype, .peer = peer,
                   .stream = stream};
    return submit(o);
}
