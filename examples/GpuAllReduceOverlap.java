import io.github.mpi4j.cuda.CudaEvent;
import io.github.mpi4j.cuda.CudaStream;
import io.github.mpi4j.cuda.DeviceBuffer;
import io.github.mpi4j.nccl.NcclComm;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import mpi.*;

/**
 * Every rank sums a buffer of "gradients" in GPU memory across all ranks with NCCL while other
 * work goes on, on the device and on the host; CUDA events order the two streams without
 * blocking the host:
 *
 * <pre>
 *   compute stream:  upload grads ─▶ [uploaded]        memset scratch, copy scratch ─▶ wait [reduced] ─▶ copy grads to result
 *   NCCL stream:          wait [uploaded] ─▶ allReduce(grads) ─▶ [reduced]
 *   host:                                   computes the expected sums meanwhile
 * </pre>
 *
 * Usage: GpuAllReduceOverlap [floats, default 1048576]. One rank per GPU: the device is the
 * rank's rank on its node. Without a GPU, try it on the test-only fake CUDA/NCCL pair
 * (docs/testing-gpu.md):
 * <pre>
 *   MPI4J_CUDA_LIBRARY=target/test-native/fake_gpu/libfakecudart.so \
 *   MPI4J_NCCL_LIBRARY=target/test-native/fake_gpu/libfakenccl.so \
 *   launch/mpi4jrun -np 2 examples/GpuAllReduceOverlap.java
 * </pre>
 */
class GpuAllReduceOverlap {
    /** Rank r's gradient i: small integers, so the float sums are exact. */
    static float gradient(int rank, int i) {
        return rank + 1 + i % 7;
    }

    /**
     * Waits until {@code event} has completed, at most MPI4J_TIMEOUT seconds (600 by default): a
     * peer that never joins the all-reduce must not hang this rank. At the deadline NCCL is
     * aborted (its queued work ends) and the wait fails.
     */
    static void await(CudaEvent event, NcclComm nccl) {
        double seconds = Double.parseDouble(System.getenv().getOrDefault("MPI4J_TIMEOUT", "600"));
        long deadline = System.nanoTime() + (long) (seconds * 1e9);
        while (!event.query()) {
            if (System.nanoTime() - deadline > 0) {
                nccl.abort();
                throw new IllegalStateException("GpuAllReduceOverlap: not done after " + seconds + " s; NCCL aborted");
            }
            java.util.concurrent.locks.LockSupport.parkNanos(20_000);
        }
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank(), size = world.getSize();
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1 << 20;
        if (n < 1) throw new IllegalArgumentException("GpuAllReduceOverlap: floats must be >= 1, got " + n);
        long bytes = 4L * n;
        int wrong = 0;

        try (NcclComm nccl = NcclComm.create(world);   // collective; device = rank on its node
             CudaStream compute = CudaStream.create(nccl.getDevice());
             DeviceBuffer grads = DeviceBuffer.allocate(bytes, nccl.getDevice());
             DeviceBuffer scratch = DeviceBuffer.allocate(bytes, nccl.getDevice());
             DeviceBuffer copy = DeviceBuffer.allocate(bytes, nccl.getDevice());
             DeviceBuffer result = DeviceBuffer.allocate(bytes, nccl.getDevice())) {
            // This rank's gradients, uploaded on the compute stream (asynchronous copies take
            // direct buffers: the GC does not move them).
            FloatBuffer host = ByteBuffer.allocateDirect((int) bytes).order(ByteOrder.nativeOrder()).asFloatBuffer();
            for (int i = 0; i < n; i++) host.put(i, gradient(rank, i));
            grads.copyFromAsync(host, compute);

            try (CudaEvent uploaded = compute.record()) {
                nccl.waitEvent(uploaded);                               // the all-reduce starts after the upload,
                nccl.allReduce(grads, grads, n, MPI.FLOAT, MPI.SUM);    // on NCCL's stream; the host goes on at once
            }
            try (CudaEvent reduced = nccl.recordEvent()) {
                // Independent device work on the compute stream, overlapping the all-reduce.
                scratch.memsetAsync(0x3f, 0, bytes, compute);
                copy.copyFromAsync(scratch, compute);
                // Work that needs the sums waits for them on the device, not on the host.
                compute.waitEvent(reduced);
                result.copyFromAsync(grads, compute);
            }

            // Host work overlapping both streams: the expected sums.
            float[] expected = new float[n];
            for (int i = 0; i < n; i++) {
                for (int q = 0; q < size; q++) expected[i] += gradient(q, i);
            }

            // The host waits for the last consumer only (which waited for the all-reduce), with a
            // deadline; then sync() returns at once, or reports NCCL's asynchronous error.
            try (CudaEvent finished = compute.record()) {
                await(finished, nccl);
            }
            nccl.sync();
            float[] got = new float[n];
            result.copyTo(got);
            float[] filled = new float[n];
            copy.copyTo(filled);
            float pattern = Float.intBitsToFloat(0x3f3f3f3f);
            for (int i = 0; i < n; i++) {
                if (got[i] != expected[i] || filled[i] != pattern) {
                    if (wrong++ == 0) {
                        System.out.printf("rank %d: WRONG at %d: sum %s (expected %s), copy %s (expected %s)%n", rank, i,
                                got[i], expected[i], filled[i], pattern);
                    }
                }
            }
            System.out.printf("rank %d of %d (device %d): sums[0..2] = %s %s %s, expected %s %s %s: %s%n", rank, size,
                    nccl.getDevice(), got[0], got[Math.min(1, n - 1)], got[Math.min(2, n - 1)], expected[0],
                    expected[Math.min(1, n - 1)], expected[Math.min(2, n - 1)], wrong == 0 ? "OK" : wrong + " wrong");
        }

        int[] failures = {wrong == 0 ? 0 : 1};
        world.allReduce(failures, 1, MPI.INT, MPI.SUM);
        if (rank == 0) {
            System.out.println(failures[0] == 0
                    ? "GpuAllReduceOverlap OK: " + n + " floats summed over " + size + " ranks"
                    : "GpuAllReduceOverlap FAILED on " + failures[0] + " ranks");
        }
        MPI.Finalize();
        if (failures[0] != 0) System.exit(1);
    }
}
