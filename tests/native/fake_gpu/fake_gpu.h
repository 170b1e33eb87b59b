/* Test-only fake CUDA runtime: what libfakenccl needs from libfakecudart (never shipped).
 *
 * "Device" memory is host memory known to a registry; streams hold queued work that runs when
 * someone synchronizes, or once it is FAKE_GPU_LAG_MS old (a slow GPU).
 * Everything here runs under one recursive process-wide lock; queued work never blocks: it
 * returns FAKEGPU_PENDING and is tried again at the next synchronization point.
 * docs/testing-gpu.md describes the behaviour and the environment variables. */
#ifndef FAKE_GPU_H
#define FAKE_GPU_H

#include <cuda_runtime_api.h>
#include <stddef.h>
#include <stdint.h>

#define FAKEGPU_API __attribute__((visibility("default")))

enum { FAKEGPU_DONE = 0, FAKEGPU_PENDING = 1 };

/* One piece of host-executed queued work (an NCCL operation): called under the lock, must not
 * block; FAKEGPU_PENDING means "try again later". drop releases arg once it returned DONE. */
typedef int (*fakegpu_work_fn)(void *arg);
typedef void (*fakegpu_drop_fn)(void *arg);

FAKEGPU_API void fakegpu_lock(void);
FAKEGPU_API void fakegpu_unlock(void);

/* The memory a pointer lies in: cudaMemoryTypeDevice (cudaMalloc), cudaMemoryTypeHost
 * (cudaMallocHost) or cudaMemoryTypeUnregistered; base/size/device of the allocation. */
FAKEGPU_API enum cudaMemoryType fakegpu_lookup(const void *ptr, uintptr_t *base, size_t *size, int *device);

/* The current device of the calling thread (a cudaError_t if there is none). */
FAKEGPU_API cudaError_t fakegpu_current_device(int *device);

/* Queues work on a stream (a user handle: 0, cudaStreamLegacy, cudaStreamPerThread or one of
 * cudaStreamCreateWithFlags). *queue and *pos identify it for fakegpu_advance. */
FAKEGPU_API cudaError_t fakegpu_enqueue(cudaStream_t stream, fakegpu_work_fn fn, void *arg,
                                        fakegpu_drop_fn drop, void **queue, uint64_t *pos);

/* Runs queued work of *queue up to position pos without blocking; 1 when it has all run. */
FAKEGPU_API int fakegpu_advance(void *queue, uint64_t pos);

/* Milliseconds from a monotonic clock. */
FAKEGPU_API int64_t fakegpu_now_ms(void);

/* An integer environment variable, or dflt when unset or not a number. */
FAKEGPU_API long fakegpu_env_long(const char *name, long dflt);

#endif
