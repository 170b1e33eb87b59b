/* Fake CUDA runtime, streams and events: queued work runs at synchronization points
 * (stream/event/device synchronize, queries, blocking copies) or, once it has waited
 * FAKE_GPU_LAG_MS (default 200; negative: never), by a progress thread: a slow GPU that still
 * progresses without the host, so that a rank waiting for a peer's host never deadlocks where a
 * real GPU would not. A program that reads results without synchronizing sees the old contents. Implicit ordering of the legacy
 * default stream against blocking streams, and cudaStreamWaitEvent between streams, hold as on
 * a real device. */
#define _GNU_SOURCE
#include "fake_cudart_internal.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define QUEUE_MAGIC 0x51554555u
#define EVENT_MAGIC 0x45564e54u
#define MAX_DEVICES 64

static pthread_mutex_t g_lock;
static pthread_once_t g_lock_once = PTHREAD_ONCE_INIT;
static struct queue *g_queues[MAX_DEVICES]; /* per device: the legacy stream first */
static struct fake_event *g_events;
static uint64_t g_seq;
static __thread struct queue *t_per_thread[MAX_DEVICES];

static void lock_init(void) {
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&g_lock, &a);
}

FAKE_API void fakegpu_lock(void) {
    pthread_once(&g_lock_once, lock_init);
    pthread_mutex_lock(&g_lock);
}

FAKE_API void fakegpu_unlock(void) { pthread_mutex_unlock(&g_lock); }

FAKE_API int64_t fakegpu_now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

FAKE_API long fakegpu_env_long(const char *name, long dflt) {
    const char *v = getenv(name);
    if (v == NULL || *v == '\0') return dflt;
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    return (errno || *end) ? dflt : x;
}

static struct queue *new_queue(int device, unsigned flags, int legacy) {
    struct queue *q = calloc(1, sizeof *q);
    if (q == NULL) return NULL;
    q->magic = QUEUE_MAGIC;
    q->device = device;
    q->flags = flags;
    q->legacy = legacy;
    if (legacy || g_queues[device] == NULL) {
        q->next = g_queues[device];
        g_queues[device] = q;
    } else { /* keep the legacy stream first */
        q->next = g_queues[device]->next;
        g_queues[device]->next = q;
    }
    return q;
}

static struct queue *legacy_of(int device) {
    if (g_queues[device] == NULL || !g_queues[device]->legacy) new_queue(device, 0, 1);
    return g_queues[device];
}

int fake_queue_valid(struct queue *q) {
    if (q == NULL) return 0;
    for (int d = 0; d < fake_device_count && d < MAX_DEVICES; d++) {
        for (struct queue *x = g_queues[d]; x; x = x->next) {
            if (x == q) return q->magic == QUEUE_MAGIC && !q->destroyed;
        }
    }
    return 0;
}

/* Handles: 0 and cudaStreamLegacy are the current device's legacy stream, cudaStreamPerThread
 * the calling thread's own blocking stream; others must come from cudaStreamCreateWithFlags. */
struct queue *fake_resolve_stream(cudaStream_t s, cudaError_t *err) {
    int dev;
    *err = fake_need_device(&dev);
    if (*err != cudaSuccess) return NULL;
    if (s == NULL || s == cudaStreamLegacy) return legacy_of(dev);
    if (s == cudaStreamPerThread) {
        legacy_of(dev);
        if (t_per_thread[dev] == NULL) t_per_thread[dev] = new_queue(dev, cudaStreamDefault, 0);
        if (t_per_thread[dev] == NULL) *err = cudaErrorMemoryAllocation;
        return t_per_thread[dev];
    }
    struct queue *q = (struct queue *)s;
    if (!fake_queue_valid(q)) {
        *err = cudaErrorInvalidResourceHandle;
        return NULL;
    }
    return q;
}

static int advance(struct queue *q, uint64_t pos, int depth);

/* Work queued earlier on streams that this item implicitly waits for (legacy <-> blocking). */
static int prior_implicit_done(struct queue *q, uint64_t seq, int depth) {
    if (!q->legacy && (q->flags & cudaStreamNonBlocking)) return 1;
    for (struct queue *o = g_queues[q->device]; o; o = o->next) {
        if (o == q || (!q->legacy && !o->legacy) || (o->flags & cudaStreamNonBlocking)) continue;
        while (o->head && o->head->seq < seq) {
            if (o->busy || !advance(o, o->executed + 1, depth + 1)) return 0;
        }
    }
    return 1;
}

static void run_memory_item(struct item *it) {
    if (it->kind == ITEM_COPY) memmove(it->dst, it->src, it->bytes);
    else memset(it->dst, it->value, it->bytes);
}

/* Runs q's items until it has executed pos of them; never blocks. 1 when done. */
static int advance(struct queue *q, uint64_t pos, int depth) {
    if (q->executed >= pos) return 1;
    if (q->busy || depth > 64) return 0;
    q->busy = 1;
    while (q->head && q->executed < pos) {
        struct item *it = q->head;
        if (!prior_implicit_done(q, it->seq, depth)) break;
        if (it->kind == ITEM_WAIT && !advance(it->wait_on, it->wait_pos, depth + 1)) break;
        if (it->kind == ITEM_HOST) {
            if (it->fn(it->arg) != FAKEGPU_DONE) break;
            if (it->drop) it->drop(it->arg);
        } else if (it->kind != ITEM_WAIT) {
            run_memory_item(it);
            free(it->owned);
        }
        q->head = it->next;
        if (q->head == NULL) q->tail = NULL;
        q->executed++;
        free(it);
    }
    q->busy = 0;
    return q->executed >= pos;
}

FAKE_API int fakegpu_advance(void *queue, uint64_t pos) {
    fakegpu_lock();
    int done = advance((struct queue *)queue, pos, 0);
    fakegpu_unlock();
    return done;
}

/* --- the progress thread (FAKE_GPU_LAG_MS) ------------------------------------ */

static pid_t g_progress_pid;

static void *progress_main(void *unused) {
    (void)unused;
    long lag = fakegpu_env_long("FAKE_GPU_LAG_MS", 200);
    struct timespec nap = {0, (lag > 8 ? lag / 4 : 2) * 1000000L};
    for (;;) {
        nanosleep(&nap, NULL);
        fakegpu_lock();
        int64_t now = fakegpu_now_ms();
        for (int d = 0; d < fake_device_count && d < MAX_DEVICES; d++) {
            for (struct queue *q = g_queues[d]; q; q = q->next) {
                while (q->head && now - q->head->queued_ms >= lag) {
                    if (!advance(q, q->executed + 1, 0)) break;
                }
            }
        }
        fakegpu_unlock();
    }
    return NULL;
}

/* Started at the first queued work of each process (a forked child starts its own). */
static void maybe_start_progress(void) {
    if (fakegpu_env_long("FAKE_GPU_LAG_MS", 200) < 0 || g_progress_pid == getpid()) return;
    g_progress_pid = getpid();
    pthread_t t;
    pthread_attr_t a;
    pthread_attr_init(&a);
    pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&t, &a, progress_main, NULL) != 0) g_progress_pid = 0;
    pthread_attr_destroy(&a);
}

cudaError_t fake_push(struct queue *q, struct item *it) {
    it->seq = ++g_seq;
    it->queued_ms = fakegpu_now_ms();
    it->next = NULL;
    if (q->tail) q->tail->next = it;
    else q->head = it;
    q->tail = it;
    q->enqueued++;
    maybe_start_progress();
    return cudaSuccess;
}

FAKE_API cudaError_t fakegpu_enqueue(cudaStream_t stream, fakegpu_work_fn fn, void *arg, fakegpu_drop_fn drop,
                                     void **queue, uint64_t *pos) {
    fakegpu_lock();
    cudaError_t err;
    struct queue *q = fake_resolve_stream(stream, &err);
    struct item *it = q ? calloc(1, sizeof *it) : NULL;
    if (q && it == NULL) err = cudaErrorMemoryAllocation;
    if (it) {
        it->kind = ITEM_HOST;
        it->fn = fn;
        it->arg = arg;
        it->drop = drop;
        fake_push(q, it);
        if (queue) *queue = q;
        if (pos) *pos = q->enqueued;
    }
    fakegpu_unlock();
    return err;
}

/* Polls until q has executed pos items. Called without the lock held by this thread more than
 * once (the lock is recursive, so it is released completely between polls). */
cudaError_t fake_drain(struct queue *q, uint64_t pos) {
    int64_t deadline = fakegpu_now_ms() + fakegpu_env_long("FAKE_GPU_TIMEOUT_MS", 300000);
    struct timespec nap = {0, 200000};
    for (;;) {
        fakegpu_lock();
        int done = advance(q, pos, 0);
        fakegpu_unlock();
        if (done) return cudaSuccess;
        if (fakegpu_now_ms() > deadline) return cudaErrorLaunchTimeout;
        nanosleep(&nap, NULL);
    }
}

cudaError_t fake_drain_device(int device, int all) {
    fakegpu_lock();
    legacy_of(device);
    fakegpu_unlock();
    for (;;) {
        fakegpu_lock();
        struct queue *pending = NULL;
        uint64_t pos = 0;
        for (struct queue *q = g_queues[device]; q && !pending; q = q->next) {
            if (q->head && (all || q->legacy || !(q->flags & cudaStreamNonBlocking))) {
                pending = q;
                pos = q->enqueued;
            }
        }
        fakegpu_unlock();
        if (pending == NULL) return cudaSuccess;
        cudaError_t e = fake_drain(pending, pos);
        if (e != cudaSuccess) return e;
    }
}

/* --- the public stream and event API ---------------------------------------------------- */

FAKE_API cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags) {
    if (pStream == NULL || (flags & ~(unsigned)cudaStreamNonBlocking)) return fake_fail(cudaErrorInvalidValue);
    int dev;
    cudaError_t e = fake_need_device(&dev);
    if (e != cudaSuccess) return fake_fail(e);
    fakegpu_lock();
    legacy_of(dev);
    struct queue *q = new_queue(dev, flags, 0);
    fakegpu_unlock();
    if (q == NULL) return fake_fail(cudaErrorMemoryAllocation);
    *pStream = (cudaStream_t)q;
    return cudaSuccess;
}

/* Like the real one: returns at once; queued work still runs, the handle is gone. */
FAKE_API cudaError_t cudaStreamDestroy(cudaStream_t stream) {
    if (stream == NULL || stream == cudaStreamLegacy || stream == cudaStreamPerThread) {
        return fake_fail(cudaErrorInvalidResourceHandle);
    }
    fakegpu_lock();
    struct queue *q = (struct queue *)stream;
    cudaError_t e = fake_queue_valid(q) ? cudaSuccess : cudaErrorInvalidResourceHandle;
    if (e == cudaSuccess) q->destroyed = 1;
    fakegpu_unlock();
    return e == cudaSuccess ? e : fake_fail(e);
}

FAKE_API cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
    fakegpu_lock();
    cudaError_t e;
    struct queue *q = fake_resolve_stream(stream, &e);
    uint64_t pos = q ? q->enqueued : 0;
    fakegpu_unlock();
    if (q == NULL) return fake_fail(e);
    /* Only this stream's work (on the legacy stream, that waits for earlier blocking work). */
    e = fake_drain(q, pos);
    return e == cudaSuccess ? e : fake_fail(e);
}

FAKE_API cudaError_t cudaStreamQuery(cudaStream_t stream) {
    fakegpu_lock();
    cudaError_t e;
    struct queue *q = fake_resolve_stream(stream, &e);
    if (q) e = advance(q, q->enqueued, 0) ? cudaSuccess : cudaErrorNotReady;
    fakegpu_unlock();
    /* cudaErrorNotReady is not an error: it does not become the last error. */
    return (e == cudaSuccess || e == cudaErrorNotReady) ? e : fake_fail(e);
}

FAKE_API cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags) {
    if (flags != cudaEventWaitDefault) return fake_fail(cudaErrorInvalidValue);
    fakegpu_lock();
    cudaError_t e;
    struct queue *q = fake_resolve_stream(stream, &e);
    struct fake_event *ev = (struct fake_event *)event;
    int found = 0;
    for (struct fake_event *x = g_events; x; x = x->next) found |= x == ev;
    if (q && !found) e = cudaErrorInvalidResourceHandle;
    if (q && found && ev->queue && ev->queue->executed < ev->pos) { /* an unrecorded event: no wait */
        struct item *it = calloc(1, sizeof *it);
        if (it == NULL) {
            e = cudaErrorMemoryAllocation;
        } else {
            it->kind = ITEM_WAIT;
            it->wait_on = ev->queue;
            it->wait_pos = ev->pos;
            fake_push(q, it);
        }
    }
    fakegpu_unlock();
    return e == cudaSuccess ? e : fake_fail(e);
}

static struct fake_event *find_event(cudaEvent_t event) {
    for (struct fake_event *x = g_events; x; x = x->next) {
        if (x == (struct fake_event *)event) return x;
    }
    return NULL;
}

FAKE_API cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags) {
    unsigned known = cudaEventBlockingSync | cudaEventDisableTiming | cudaEventInterprocess;
    if (event == NULL || (flags & ~known)) return fake_fail(cudaErrorInvalidValue);
    /* An interprocess event must also disable timing. */
    if ((flags & cudaEventInterprocess) && !(flags & cudaEventDisableTiming)) return fake_fail(cudaErrorInvalidValue);
    int dev;
    cudaError_t e = fake_need_device(&dev);
    if (e != cudaSuccess) return fake_fail(e);
    struct fake_event *ev = calloc(1, sizeof *ev);
    if (ev == NULL) return fake_fail(cudaErrorMemoryAllocation);
    ev->magic = EVENT_MAGIC;
    ev->flags = flags;
    fakegpu_lock();
    ev->next = g_events;
    g_events = ev;
    fakegpu_unlock();
    *event = (cudaEvent_t)ev;
    return cudaSuccess;
}

FAKE_API cudaError_t cudaEventDestroy(cudaEvent_t event) {
    fakegpu_lock();
    struct fake_event **p = &g_events;
    while (*p && *p != (struct fake_event *)event) p = &(*p)->next;
    struct fake_event *ev = *p;
    if (ev) *p = ev->next;
    fakegpu_unlock();
    if (ev == NULL) return fake_fail(cudaErrorInvalidResourceHandle);
    ev->magic = 0;
    free(ev);
    return cudaSuccess;
}

/* An event marks a position in a stream: complete once the stream has executed that far. */
FAKE_API cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
    fakegpu_lock();
    cudaError_t e;
    struct queue *q = fake_resolve_stream(stream, &e);
    struct fake_event *ev = find_event(event);
    if (q && ev == NULL) e = cudaErrorInvalidResourceHandle;
    if (q && ev) {
        ev->queue = q;
        ev->pos = q->enqueued;
    }
    fakegpu_unlock();
    return e == cudaSuccess ? e : fake_fail(e);
}

FAKE_API cudaError_t cudaEventQuery(cudaEvent_t event) {
    fakegpu_lock();
    struct fake_event *ev = find_event(event);
    cudaError_t e = cudaErrorInvalidResourceHandle;
    if (ev) e = (ev->queue == NULL || advance(ev->queue, ev->pos, 0)) ? cudaSuccess : cudaErrorNotReady;
    fakegpu_unlock();
    return (e == cudaSuccess || e == cudaErrorNotReady) ? e : fake_fail(e);
}

FAKE_API cudaError_t cudaEventSynchronize(cudaEvent_t event) {
    fakegpu_lock();
    struct fake_event *ev = find_event(event);
    struct queue *q = ev ? ev->queue : NULL;
    uint64_t pos = ev ? ev->pos : 0;
    fakegpu_unlock();
    if (ev == NULL) return fake_fail(cudaErrorInvalidResourceHandle);
    if (q == NULL) return cudaSuccess;
    cudaError_t e = fake_drain(q, pos);
    return e == cudaSuccess ? e : fake_fail(e);
}

FAKE_API cudaError_t cudaDeviceSynchronize(void) {
    int dev;
    cudaError_t e = fake_need_device(&dev);
    if (e == cudaSuccess) e = fake_drain_device(dev, 1);
    return e == cudaSuccess ? e : fake_fail(e);
}
