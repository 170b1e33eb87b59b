package io.github.mpi4j.cuda;

import mpi.MPIException;

/**
 * A CUDA runtime call failed. Carries the CUDA error code ({@code cudaError_t}), its name and
 * CUDA's own text for it ({@code cudaGetErrorName}, {@code cudaGetErrorString}), and the call:
 * <pre>cudaMalloc(1024 bytes) on device 0 failed: cudaErrorInsufficientDriver (35): CUDA driver version is insufficient for CUDA runtime version</pre>
 * An {@link MPIException} (class {@code MPI.ERR_OTHER}), so that programs catching mpi4j's
 * errors catch these too.
 */
public class CudaException extends MPIException {
    private static final long serialVersionUID = 1L;

    /** {@link #cudaError()} when the loaded CUDA runtime lacks the function that was called. */
    public static final int NO_SUCH_FUNCTION = -1;
    /** {@link #cudaError()} when no usable CUDA runtime was found (the message says why). */
    public static final int UNAVAILABLE = -2;

    private final int cudaError;
    private final String errorName;
    private final String call;

    /** Made by libmpi4j_gpu (the JNI signature is fixed: call, code, name, text). */
    CudaException(String call, int cudaError, String errorName, String text) {
        super(message(call, cudaError, errorName, text));
        this.cudaError = cudaError;
        this.errorName = errorName;
        this.call = call;
    }

    private static String message(String call, int code, String name, String text) {
        if (code < 0) return call + ": " + text;
        return call + " failed: " + (name == null ? "CUDA error" : name) + " (" + code + "): "
                + (text == null ? "(no text from the CUDA runtime)" : text);
    }

    /** CUDA is unavailable in this JVM: {@code reason} says why. */
    static CudaException unavailable(String what, String reason) {
        return new CudaException(what, UNAVAILABLE, null, "CUDA is unavailable: " + reason);
    }

    /** The {@code cudaError_t}, or {@link #NO_SUCH_FUNCTION} / {@link #UNAVAILABLE}. */
    public int cudaError() {
        return cudaError;
    }

    /** CUDA's name of the error ("cudaErrorNoDevice"), or null. */
    public String errorName() {
        return errorName;
    }

    /** The call that failed, with its main arguments. */
    public String call() {
        return call;
    }
}
