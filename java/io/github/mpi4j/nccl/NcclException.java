package io.github.mpi4j.nccl;

import mpi.MPIException;

/**
 * An NCCL call failed. Carries NCCL's result code ({@code ncclResult_t}), NCCL's text for it
 * ({@code ncclGetErrorString}) and NCCL's last error message ({@code ncclGetLastError}, which
 * says what exactly went wrong). An {@link MPIException} (class {@code MPI.ERR_OTHER}).
 */
public class NcclException extends MPIException {
    private static final long serialVersionUID = 1L;

    /** {@link #ncclResult()} when the loaded NCCL lacks the function that was called. */
    public static final int NO_SUCH_FUNCTION = -1;
    /** {@link #ncclResult()} when no usable NCCL was found (the message says why). */
    public static final int UNAVAILABLE = -2;
    /** {@link #ncclResult()} when mpi4j's deadline ({@code MPI4J_TIMEOUT}) passed during a wait. */
    public static final int DEADLINE = -3;
    /** {@link #ncclResult()} when another rank failed, so this one could not go on. */
    public static final int OTHER_RANK = -4;

    private static final String[] NAMES = {"ncclSuccess", "ncclUnhandledCudaError", "ncclSystemError",
        "ncclInternalError", "ncclInvalidArgument", "ncclInvalidUsage", "ncclRemoteError", "ncclInProgress",
        "ncclTimeout"};

    private final int ncclResult;
    private final String lastError;
    private final String call;

    /** Made by libmpi4j_gpu (the JNI signature is fixed: call, code, text, last error). */
    NcclException(String call, int ncclResult, String text, String lastError) {
        super(message(call, ncclResult, text, lastError));
        this.ncclResult = ncclResult;
        this.lastError = lastError == null || lastError.isEmpty() ? null : lastError;
        this.call = call;
    }

    private static String message(String call, int code, String text, String last) {
        if (code < 0) return call + ": " + (text != null ? text : last);
        StringBuilder m = new StringBuilder(call).append(" failed: ").append(resultName(code)).append(" (")
                .append(code).append("): ").append(text == null ? "(no text from NCCL)" : text);
        if (last != null && !last.isEmpty()) m.append("; NCCL's last error: ").append(last);
        return m.toString();
    }

    /** NCCL is unavailable in this JVM: {@code reason} says why. */
    public static NcclException unavailable(String what, String reason) {
        return new NcclException(what, UNAVAILABLE, "NCCL is unavailable: " + reason, null);
    }

    /** A wait that did not finish within {@code seconds}: the communicator was aborted. */
    static NcclException deadline(String what, double seconds) {
        return new NcclException(what, DEADLINE, "not done within MPI4J_TIMEOUT = " + seconds
                + " s (a peer is dead, absent or hung); the communicator was aborted", null);
    }

    /** This rank could not go on because another one failed ({@code reason} says which). */
    static NcclException failed(String what, String reason) {
        return new NcclException(what, OTHER_RANK, reason, null);
    }

    /** "ncclInvalidArgument" for 4; "ncclResult 42" for codes this version does not know. */
    public static String resultName(int code) {
        return code >= 0 && code < NAMES.length ? NAMES[code] : "ncclResult " + code;
    }

    /** The {@code ncclResult_t}, or {@link #NO_SUCH_FUNCTION} / {@link #UNAVAILABLE}. */
    public int ncclResult() {
        return ncclResult;
    }

    /** NCCL's last error message (ncclGetLastError), or null. */
    public String lastError() {
        return lastError;
    }

    /** The call that failed. */
    public String call() {
        return call;
    }
}
