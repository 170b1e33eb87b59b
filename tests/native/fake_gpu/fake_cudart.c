/* Fake CUDA runtime: versions, devices, errors, memory. "Device" memory is host memory in a
 * registry of allocations, so every pointer argument can be checked the way the real runtime
 * does it: device vs host vs unknown pointer, and accesses past an allocation's end. */
#define _GNU_SOURCE
#include "fake_cudart_internal.h"

#include <stdlib.h>
#include <string.h>

int fake_device_count = -1;
static __thread int t_device = 0;
static __thread cudaError_t t_last_error = cudaSuccess;

struct alloc {
    uintptr_t base;
    size_t size;
    int device;
    enum cudaMemoryType type;
    struct alloc *next;
};
static struct alloc *g_allocs;

/* Fresh "device" memory is not zero on a real GPU either: a pattern exposes reads of it. */
#define FRESH_MEMORY_BYTE 0xA5

cudaError_t fake_fail(cudaError_t e) {
    t_last_error = e;
    return e;
}

static void devices_init(void) {
    if (fake_device_count < 0) {
        long n = fakegpu_env_long("FAKE_GPU_DEVICES", 4);
        fake_device_count = n < 0 ? 0 : n > 64 ? 64 : (int)n;
    }
}

cudaError_t fake_need_device(int *device) {
    devices_init();
    if (fake_device_count == 0) return cudaErrorNoDevice;
    *device = t_device;
    return cudaSuccess;
}

FAKE_API cudaError_t fakegpu_current_device(int *device) { return fake_need_device(device); }

FAKE_API cudaError_t cudaRuntimeGetVersion(int *runtimeVersion) {
    if (runtimeVersion == NULL) return fake_fail(cudaErrorInvalidValue);
    *runtimeVersion = CUDART_VERSION;
    return cudaSuccess;
}

FAKE_API cudaError_t cudaDriverGetVersion(int *driverVersion) {
    if (driverVersion == NULL) return fake_fail(cudaErrorInvalidValue);
    *driverVersion = (int)fakegpu_env_long("FAKE_GPU_DRIVER_VERSION", CUDART_VERSION);
    return cudaSuccess;
}

FAKE_API cudaError_t cudaGetDeviceCount(int *count) {
    if (count == NULL) return fake_fail(cudaErrorInvalidValue);
    devices_init();
    *count = fake_device_count;
    return fake_device_count == 0 ? fake_fail(cudaErrorNoDevice) : cudaSuccess;
}

/* The current device belongs to the calling host thread. */
FAKE_API cudaError_t cudaSetDevice(int device) {
    devices_init();
    if (fake_device_count == 0) return fake_fail(cudaErrorNoDevice);
    if (device < 0 || device >= fake_device_count) return fake_fail(cudaErrorInvalidDevice);
    t_device = device;
    return cudaSuccess;
}

FAKE_API cudaError_t cudaGetDevice(int *device) {
    if (device == NULL) return fake_fail(cudaErrorInvalidValue);
    cudaError_t e = fake_need_device(device);
    return e == cudaSuccess ? e : fake_fail(e);
}

FAKE_API cudaError_t cudaGetLastError(void) {
    cudaError_t e = t_last_error;
    t_last_error = cudaSuccess;
    return e;
}

/* The texts of the real runtime (CUDA 13) for the codes this fake can return and a few more;
 * FakeGpuLibraryTest compares them with libcudart's own where it is installed. */
static const struct {
    cudaError_t code;
    const char *name, *text;
} ERRORS[] = {
    {cudaSuccess, "cudaSuccess", "no error"},
    {cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument"},
    {cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory"},
    {cudaErrorInitializationError, "cudaErrorInitializationError", "initialization error"},
    {cudaErrorInvalidDevicePointer, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
    {cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy"},
    {cudaErrorInsufficientDriver, "cudaErrorInsufficientDriver",
     "CUDA driver version is insufficient for CUDA runtime version"},
    {cudaErrorNoDevice, "cudaErrorNoDevice", "no CUDA-capable device is detected"},
    {cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {cudaErrorNotReady, "cudaErrorNotReady", "device not ready"},
    {cudaErrorIllegalAddress, "cudaErrorIllegalAddress", "an illegal memory access was encountered"},
    {cudaErrorLaunchTimeout, "cudaErrorLaunchTimeout", "the launch timed out and was terminated"},
    {cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure"},
    {cudaErrorNotSupported, "cudaErrorNotSupported", "operation not supported"},
    {cudaErrorUnknown, "cudaErrorUnknown", "unknown error"},
};

FAKE_API const char *cudaGetErrorString(cudaError_t error) {
    for (size_t i = 0; i < sizeof ERRORS / sizeof ERRORS[0]; i++) {
        if (ERRORS[i].code == error) return ERRORS[i].text;
    }
    return "unrecognized error code";
}

FAKE_API const char *cudaGetErrorName(cudaError_t error) {
    for (size_t i = 0; i < sizeof ERRORS / sizeof ERRORS[0]; i++) {
        if (ERRORS[i].code == error) return ERRORS[i].name;
    }
    return "unrecognized error code";
}

/* --- the allocation registry ------------------------------------------------------------ */

static struct alloc *find_alloc(const void *ptr) {
    uintptr_t p = (uintptr_t)ptr;
    for (struct alloc *a = g_allocs; a; a = a->next) {
        if (p >= a->base && p - a->base < a->size) return a;
    }
    return NULL;
}

FAKE_API enum cudaMemoryType fakegpu_lookup(const void *ptr, uintptr_t *base, size_t *size, int *device) {
    fakegpu_lock();
    struct alloc *a = find_alloc(ptr);
    enum cudaMemoryType t = a ? a->type : cudaMemoryTypeUnregistered;
    if (a) {
        if (base) *base = a->base;
        if (size) *size = a->size;
        if (device) *device = a->device;
    }
    fakegpu_unlock();
    return t;
}

static cudaError_t allocate(void **ptr, size_t size, enum cudaMemoryType type) {
    if (ptr == NULL) return fake_fail(cudaErrorInvalidValue);
    int dev;
    cudaError_t e = fake_need_device(&dev);
    if (e != cudaSuccess) return fake_fail(e);
    if (size == 0) { /* as the real runtime: success and a null pointer */
        *ptr = NULL;
        return cudaSuccess;
    }
    long limit_mib = fakegpu_env_long("FAKE_GPU_MEMORY_MIB", 16384);
    if (type == cudaMemoryTypeDevice && size > (size_t)limit_mib << 20) return fake_fail(cudaErrorMemoryAllocation);
    struct alloc *a = malloc(sizeof *a);
    void *mem = a ? aligned_alloc(256, (size + 255) & ~(size_t)255) : NULL;
    if (mem == NULL) {
        free(a);
        return fake_fail(cudaErrorMemoryAllocation);
    }
    memset(mem, FRESH_MEMORY_BYTE, size);
    a->base = (uintptr_t)mem;
    a->size = size;
    a->device = dev;
    a->type = type;
    fakegpu_lock();
    a->next = g_allocs;
    g_allocs = a;
    fakegpu_unlock();
    *ptr = mem;
    return cudaSuccess;
}

static cudaError_t release(void *ptr, enum cudaMemoryType type) {
    if (ptr == NULL) return cudaSuccess;
    fakegpu_lock();
    struct alloc **p = &g_allocs;
    while (*p && !((*p)->base == (uintptr_t)ptr && (*p)->type == type)) p = &(*p)->next;
    struct alloc *a = *p;
    fakegpu_unlock();
    if (a == NULL) return fake_fail(cudaErrorInvalidValue);
    /* Freeing waits for the device's queued work first, as the real cudaFree does. */
    cudaError_t e = fake_drain_device(a->device, 1);
    if (e != cudaSuccess) return fake_fail(e);
    fakegpu_lock();
    for (p = &g_allocs; *p && *p != a; p = &(*p)->next) {}
    if (*p) *p = a->next;
    fakegpu_unlock();
    free((void *)a->base);
    free(a);
    return cudaSuccess;
}

FAKE_API cudaError_t cudaMalloc(void **devPtr, size_t size) { return allocate(devPtr, size, cudaMemoryTypeDevice); }
FAKE_API cudaError_t cudaMallocHost(void **ptr, size_t size) { return allocate(ptr, size, cudaMemoryTypeHost); }
FAKE_API cudaError_t cudaFree(void *devPtr) { return release(devPtr, cudaMemoryTypeDevice); }
FAKE_API cudaError_t cudaFreeHost(void *ptr) { return release(ptr, cudaMemoryTypeHost); }

FAKE_API cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr) {
    if (attributes == NULL) return fake_fail(cudaErrorInvalidValue);
    int dev;
    cudaError_t e = fake_need_device(&dev);
    if (e != cudaSuccess) return fake_fail(e);
    memset(attributes, 0, sizeof *attributes);
    int adev = 0;
    enum cudaMemoryType t = fakegpu_lookup(ptr, NULL, NULL, &adev);
    attributes->type = t;
    attributes->device = t == cudaMemoryTypeUnregistered ? -2 : adev;
    /* Pinned host memory is mapped into the device's address space at the same address (UVA). */
    attributes->devicePointer = t == cudaMemoryTypeUnregistered ? NULL : (void *)ptr;
    /* As documented: unregistered memory is not checked, its host pointer is the pointer itself. */
    attributes->hostPointer = t == cudaMemoryTypeDevice ? NULL : (void *)ptr;
    return cudaSuccess;
}

/* --- copies and memsets ----------------------------------------------------------------- */

/* Checks that [ptr, ptr+bytes) is usable as one side of a copy: device memory must be inside
 * one allocation; a host side may be any memory not allocated as device memory. */
static cudaError_t check_side(const void *ptr, size_t bytes, int want_device) {
    if (ptr == NULL) return cudaErrorInvalidValue;
    uintptr_t base = 0;
    size_t size = 0;
    enum cudaMemoryType t = fakegpu_lookup(ptr, &base, &size, NULL);
    if (want_device) {
        if (t != cudaMemoryTypeDevice && t != cudaMemoryTypeHost) return cudaErrorInvalidValue;
    } else if (t == cudaMemoryTypeDevice) {
        return cudaErrorInvalidValue;
    }
    if (t != cudaMemoryTypeUnregistered && bytes > size - ((uintptr_t)ptr - base)) return cudaErrorInvalidValue;
    return cudaSuccess;
}

static cudaError_t check_copy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind) {
    if ((unsigned)kind > cudaMemcpyDefault) return cudaErrorInvalidMemcpyDirection;
    if (count == 0) return cudaSuccess;
    if (kind == cudaMemcpyDefault) { /* inferred from the pointers, as with UVA */
        cudaError_t e = check_side(dst, count, fakegpu_lookup(dst, NULL, NULL, NULL) == cudaMemoryTypeDevice);
        return e != cudaSuccess ? e : check_side(src, count, fakegpu_lookup(src, NULL, NULL, NULL) == cudaMemoryTypeDevice);
    }
    int dst_dev = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
    int src_dev = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
    cudaError_t e = check_side(dst, count, dst_dev);
    return e != cudaSuccess ? e : check_side(src, count, src_dev);
}

static cudaError_t enqueue_memory(struct queue *q, enum item_kind kind, void *dst, const void *src, size_t n, int v) {
    struct item *it = calloc(1, sizeof *it);
    if (it == NULL) return cudaErrorMemoryAllocation;
    it->kind = kind;
    it->dst = dst;
    it->src = src;
    it->bytes = n;
    it->value = v;
    return fake_push(q, it);
}

/* On the legacy stream, and as late as the CUDA documentation ("API synchronization behavior")
 * allows: device to device it returns at once, the copy queued; from pageable host memory to
 * the device it waits for the legacy stream's earlier work, stages the source and returns, the
 * copy queued. So only a later synchronization (or blocking-stream work) is sure to see those
 * bytes. Every other copy (from pinned memory, into host memory) is complete on return. */
FAKE_API cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind) {
    int dev;
    cudaError_t e = fake_need_device(&dev);
    if (e == cudaSuccess) e = check_copy(dst, src, count, kind);
    if (e != cudaSuccess) return fake_fail(e);
    enum cudaMemoryType to = fakegpu_lookup(dst, NULL, NULL, NULL), from = fakegpu_lookup(src, NULL, NULL, NULL);
    int device_to_device = count && to == cudaMemoryTypeDevice && from == cudaMemoryTypeDevice;
    int from_pageable = count && to == cudaMemoryTypeDevice && from == cudaMemoryTypeUnregistered;
    if (!device_to_device) e = fake_drain_device(dev, 0);
    if (e != cudaSuccess) return fake_fail(e);
    /* cudaMemcpyAsync stages a pageable source and queues the copy without waiting for it. */
    if (device_to_device || from_pageable) return cudaMemcpyAsync(dst, src, count, kind, cudaStreamLegacy);
    if (count) memmove(dst, src, count);
    return cudaSuccess;
}

/* As the real runtime with pageable (not cudaMallocHost) host memory: the source of a
 * host-to-device copy is staged at the call, so the caller may reuse it at once; a copy into
 * pageable memory returns only once it has been done. Pinned memory is fully asynchronous. */
FAKE_API cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                                     cudaStream_t stream) {
    cudaError_t e = check_copy(dst, src, count, kind);
    if (e != cudaSuccess) return fake_fail(e);
    int src_pageable = count && fakegpu_lookup(src, NULL, NULL, NULL) == cudaMemoryTypeUnregistered;
    int dst_pageable = count && fakegpu_lookup(dst, NULL, NULL, NULL) == cudaMemoryTypeUnregistered;
    void *staged = NULL;
    if (src_pageable && !dst_pageable) {
        if ((staged = malloc(count)) == NULL) return fake_fail(cudaErrorMemoryAllocation);
        memcpy(staged, src, count);
    }
    fakegpu_lock();
    struct queue *q = fake_resolve_stream(stream, &e);
    uint64_t pos = 0;
    if (q && count) {
        e = enqueue_memory(q, ITEM_COPY, dst, staged ? staged : src, count, 0);
        if (e == cudaSuccess) {
            q->tail->owned = staged;
            staged = NULL;
        }
        pos = q->enqueued;
    }
    fakegpu_unlock();
    free(staged);
    if (e == cudaSuccess && q && count && dst_pageable && !src_pageable) e = fake_drain(q, pos);
    return e == cudaSuccess ? e : fake_fail(e);
}

static cudaError_t check_set(void *ptr, size_t count) {
    if (count == 0) return cudaSuccess;
    uintptr_t base = 0;
    size_t size = 0;
    enum cudaMemoryType t = fakegpu_lookup(ptr, &base, &size, NULL);
    if (t == cudaMemoryTypeUnregistered) return cudaErrorInvalidValue;
    return count > size - ((uintptr_t)ptr - base) ? cudaErrorInvalidValue : cudaSuccess;
}

/* Asynchronous to the host (on the legacy stream), like the real cudaMemset on device memory. */
FAKE_API cudaError_t cudaMemset(void *devPtr, int value, size_t count) {
    return cudaMemsetAsync(devPtr, value, count, cudaStreamLegacy);
}

FAKE_API cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream) {
    cudaError_t e = check_set(devPtr, count);
    if (e != cudaSuccess) return fake_fail(e);
    fakegpu_lock();
    struct queue *q = fake_resolve_stream(stream, &e);
    if (q && count) e = enqueue_memory(q, ITEM_SET, devPtr, NULL, count, value);
    fakegpu_unlock();
    return e == cudaSuccess ? e : fake_fail(e);
}
