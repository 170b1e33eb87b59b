package io.github.mpi4j.cuda;

import io.github.mpi4j.nativeload.GpuLibraries;
import java.nio.Buffer;

/**
 * The CUDA natives of {@code libmpi4j_gpu} (native/mpi4j_cuda.c). Each takes the device it runs
 * on and sets it on the calling thread when it differs (CUDA's current device is per thread;
 * any Java thread may call). Nothing here checks arguments: {@link DeviceBuffer},
 * {@link CudaStream} and {@link CudaEvent} validate first. Failures are thrown as
 * {@link CudaException} with CUDA's own text.
 */
final class CudaNative {
    private CudaNative() {
    }

    // enum cudaMemcpyKind (pinned in native/mpi4j_cuda.c)
    static final int HOST_TO_DEVICE = 1;
    static final int DEVICE_TO_HOST = 2;
    static final int DEVICE_TO_DEVICE = 3;
    static final int DEFAULT = 4;
    // enum cudaMemoryType
    static final int MEMORY_DEVICE = 2;
    static final int MEMORY_MANAGED = 3;
    // element kinds of copyArray0
    static final int ELEM_BYTE = 0;
    static final int ELEM_SHORT = 1;
    static final int ELEM_CHAR = 2;
    static final int ELEM_INT = 3;
    static final int ELEM_LONG = 4;
    static final int ELEM_FLOAT = 5;
    static final int ELEM_DOUBLE = 6;
    static final int ELEM_BOOLEAN = 7;

    /** Opens the CUDA runtime (once), or throws why it is unavailable. */
    static void ensure(String what) {
        if (ready) return;
        GpuLibraries.CudaStatus cuda = GpuLibraries.cuda();
        if (!cuda.available) throw CudaException.unavailable(what, cuda.detail);
        ready = true;
    }

    private static volatile boolean ready;

    static native int deviceCount0();

    static native void setDevice0(int device);

    static native int getDevice0();

    static native void synchronize0(int device);

    static native long malloc0(long bytes, int device);

    static native void free0(long ptr, int device);

    static native long mallocHost0(long bytes);

    static native void freeHost0(long ptr);

    /** cudaMemcpy, or cudaMemcpyAsync on {@code stream} when {@code async}. */
    static native void copy0(long dst, long src, long bytes, int kind, long stream, boolean async, int device);

    /** Between a direct buffer (from byte {@code offset}) and device memory. */
    static native void copyBuffer0(long dev, Buffer buffer, long offset, long bytes, boolean toDevice, long stream,
                                   boolean async, int device);

    /** {@code count} elements of a Java array from element {@code first}, through pinned staging. */
    static native void copyArray0(long dev, Object array, int kind, int first, int count, boolean toDevice, int device);

    static native void memset0(long dev, int value, long bytes, long stream, boolean async, int device);

    /** {memory type, device} of an address. */
    /** The memory type (high 32 bits) and device (low 32 bits) of an address. */
    static native long pointerKind0(long ptr);

    static native long streamCreate0(int device);

    static native void streamDestroy0(long stream, int device);

    static native void streamSynchronize0(long stream, int device);

    static native boolean streamQuery0(long stream, int device);

    static native void streamWaitEvent0(long stream, long event, int device);

    static native long eventCreate0(int device);

    static native void eventDestroy0(long event, int device);

    static native void eventRecord0(long event, long stream, int device);

    static native void eventSynchronize0(long event, int device);

    static native boolean eventQuery0(long event, int device);
}
