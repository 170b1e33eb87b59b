package io.github.mpi4j.nativeload;

/**
 * The natives of {@code libmpi4j_gpu} that open the CUDA runtime and NCCL ({@code dlopen}, then
 * {@code dlsym} of every function mpi4j calls) and ask them their versions. Used only by
 * {@link GpuLibraries}, under its lock.
 */
final class GpuLinker {
    private GpuLinker() {
    }

    static final String LIBRARY = "mpi4j_gpu";

    /** Which library {@link #open0} opens. */
    static final int CUDA = 0;
    static final int NCCL = 1;

    /** Opens {@code path} as library {@code which} and resolves its functions; null, or dlopen's reason. */
    static native String open0(int which, String path);

    /** The file the opened library was loaded from, or null. */
    static native String fileOf0(int which);

    /** The functions mpi4j calls that the opened library lacks, separated by spaces ("" if none). */
    static native String missing0(int which);

    /**
     * {runtime status, runtime version, driver status, driver version, device-count status,
     * device count}; a status is a cudaError_t, or -1 where the library lacks the function.
     */
    static native int[] cudaStatus0();

    /** "cudaErrorName: text" of a CUDA error code, from the loaded runtime, or null. */
    static native String cudaErrorText0(int code);

    /** {status, version code} of ncclGetVersion; status -1: no such function. */
    static native int[] ncclStatus0();

    /** ncclGetErrorString of a result code, or null. */
    static native String ncclErrorText0(int code);

    /**
     * Whether the libmpi in this process is CUDA-aware: {family, answer}; family 0 none of the
     * query functions, 1 Open MPI (MPIX_Query_cuda_support), 2 the MPICH family
     * (MPIX_GPU_query_support); answer 1 yes, 0 no, -2 not asked: the MPICH family aborts when
     * asked before MPI_Init.
     */
    static native int[] mpiCudaSupport0();
}
