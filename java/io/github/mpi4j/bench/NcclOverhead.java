package io.github.mpi4j.bench;

import io.github.mpi4j.cuda.DeviceBuffer;
import io.github.mpi4j.nccl.NcclComm;
import java.util.Arrays;
import java.util.Locale;
import mpi.MPI;

/**
 * What mpi4j adds to one NCCL call: the same calls as its C twin {@code bench/nccl_overhead_c.c},
 * on the same library, timed the same way (batches of {@code calls} calls, the stream
 * synchronized after each batch, the median batch). Run as a world of one process (no launcher)
 * against the fake NCCL in its no-op mode, where NCCL itself costs a few nanoseconds, the
 * difference Java − C is the cost of the Java checks and the JNI crossing (bench/run.sh
 * gpu-overhead):
 * <pre>
 *   NcclOverhead [calls per batch] [batches]
 * </pre>
 * Cases: {@code allreduce} and {@code broadcast} on {@link DeviceBuffer}s and on raw device
 * addresses ({@code -raw}: the address checks ask CUDA where each pointer lives), {@code group}
 * (an empty {@code groupStart}/{@code groupEnd}), {@code sendrecv} (a send and a receive to this
 * rank inside a group). One element of {@code MPI.FLOAT} per call. Output:
 * {@code RESULT gpu-overhead java <case> <ns per call>}.
 */
public final class NcclOverhead {
    private NcclOverhead() {
    }

    private interface Call {
        void run();
    }

    public static void main(String[] args) {
        long calls = args.length > 0 ? Long.parseLong(args[0]) : 200_000;
        int batches = args.length > 1 ? Integer.parseInt(args[1]) : 15;
        if (calls < 1 || batches < 1) {
            throw new IllegalArgumentException("NcclOverhead: calls and batches must be >= 1, got " + calls + " and "
                    + batches);
        }
        MPI.Init(args);
        try (NcclComm c = NcclComm.create(MPI.COMM_WORLD);
             DeviceBuffer send = DeviceBuffer.allocate(256, c.getDevice());
             DeviceBuffer recv = DeviceBuffer.allocate(256, c.getDevice())) {
            long s = send.address(), r = recv.address();
            report("allreduce-raw", c, calls, batches, () -> c.allReduce(s, r, 1, MPI.FLOAT, MPI.SUM));
            report("allreduce", c, calls, batches, () -> c.allReduce(send, recv, 1, MPI.FLOAT, MPI.SUM));
            report("broadcast-raw", c, calls, batches, () -> c.broadcast(r, r, 1, MPI.FLOAT, 0));
            report("broadcast", c, calls, batches, () -> c.broadcast(recv, 1, MPI.FLOAT, 0));
            report("group", c, calls, batches, () -> {
                NcclComm.groupStart();
                NcclComm.groupEnd();
            });
            report("sendrecv", c, calls, batches, () -> {
                NcclComm.groupStart();
                c.send(send, 1, MPI.FLOAT, 0);
                c.recv(recv, 1, MPI.FLOAT, 0);
                NcclComm.groupEnd();
            });
        }
        MPI.Finalize();
    }

    private static void report(String name, NcclComm c, long calls, int batches, Call call) {
        double[] per = new double[batches];
        // One untimed batch first: the first case would otherwise also time the GPU's clocks
        // coming up (the C twin does the same).
        for (long i = 0; i < calls; i++) call.run();
        c.sync();
        for (int b = 0; b < batches; b++) {
            long t0 = System.nanoTime();
            for (long i = 0; i < calls; i++) call.run();
            long t1 = System.nanoTime();
            c.sync(); // as the C twin synchronizes its stream; also lets NcclComm drop the buffers it keeps
            per[b] = (double) (t1 - t0) / calls;
        }
        Arrays.sort(per);
        System.out.println(String.format(Locale.ROOT, "RESULT gpu-overhead java %s %.2f", name, per[batches / 2]));
        System.out.flush();
    }
}
