/* Internals shared by the files of libfakecudart (not used by libfakenccl). */
#ifndef FAKE_CUDART_INTERNAL_H
#define FAKE_CUDART_INTERNAL_H

#include "fake_gpu.h"

#define FAKE_API FAKEGPU_API

enum item_kind { ITEM_COPY, ITEM_SET, ITEM_WAIT, ITEM_HOST };

struct queue;

struct item {
    enum item_kind kind;
    uint64_t seq; /* process-wide issue order: the legacy stream's implicit ordering */
    int64_t queued_ms;
    void *dst;
    const void *src;
    void *owned; /* a staging copy of pageable host memory, freed after the copy */
    size_t bytes;
    int value;
    struct queue *wait_on; /* ITEM_WAIT: run only once wait_on has executed wait_pos items */
    uint64_t wait_pos;
    fakegpu_work_fn fn;
    void *arg;
    fakegpu_drop_fn drop;
    struct item *next;
};

/* A stream's queue. Never freed (events and NCCL work may still name it); a destroyed stream
 * only leaves the handle table once its work has run. */
struct queue {
    uint32_t magic;
    int device;
    unsigned flags;
    int legacy;     /* the device's legacy default stream */
    int destroyed;
    int busy;       /* being advanced: no re-entry */
    uint64_t enqueued, executed;
    struct item *head, *tail;
    struct queue *next; /* all queues of the device */
};

struct fake_event {
    uint32_t magic;
    unsigned flags;
    struct queue *queue; /* null until recorded */
    uint64_t pos;
    struct fake_event *next;
};

/* Set by fake_cudart.c from the environment. */
extern int fake_device_count;

cudaError_t fake_fail(cudaError_t e);             /* records the thread's last error */
cudaError_t fake_need_device(int *device);        /* the current device, or an error */
struct queue *fake_resolve_stream(cudaStream_t s, cudaError_t *err);
cudaError_t fake_push(struct queue *q, struct item *it); /* takes it (malloc'ed) */
/* Waits (polling, with the FAKE_GPU_TIMEOUT_MS deadline) until q has executed pos items. */
cudaError_t fake_drain(struct queue *q, uint64_t pos);
/* Waits until every queue of the device that the legacy stream synchronizes with is empty
 * (all = 1: every queue of the device). */
cudaError_t fake_drain_device(int device, int all);
int fake_queue_valid(struct queue *q);

#endif
