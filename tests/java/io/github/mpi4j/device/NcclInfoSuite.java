package io.github.mpi4j.device;

import io.github.mpi4j.cuda.DeviceBuffer;
import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.RankTest;
import mpi.Info;
import mpi.Intracomm;
import mpi.MPI;

/**
 * NCCL mode set by the info key {@code mpi4j_device_collectives} on one communicator only, in a
 * job without {@code MPI4J_DEVICE_COLLECTIVES}: the communicator the test gets stays on the host
 * path, its duplicate with the key goes through NCCL, a bad value is an exception naming key and
 * value on every rank. Against the fake CUDA runtime and NCCL.
 */
public class NcclInfoSuite {
    private static Info info(String value) {
        Info i = new Info();
        i.set("mpi4j_device_collectives", value);
        return i;
    }

    /** allReduce SUM in place of {@code rank + i} on device memory, checked; returns the NCCL-mode calls it made. */
    private static long allReduceOnDevice(Intracomm c, String what) {
        int r = c.getRank(), n = c.getSize(), len = 50;
        long before = NcclPath.calls();
        try (DeviceBuffer d = DeviceBuffer.allocate(4L * len)) {
            int[] v = new int[len];
            for (int i = 0; i < len; i++) v[i] = r + i;
            d.copyFrom(v);
            c.allReduce(d, len, MPI.INT, MPI.SUM);
            d.copyTo(v);
            for (int i = 0; i < len; i++) Check.equal((long) n * (n - 1) / 2 + (long) n * i, v[i], what + " item " + i);
        }
        return NcclPath.calls() - before;
    }

    @RankTest
    public void theKeyOnOneDuplicateOnly(Intracomm c) {
        Check.equal(0, allReduceOnDevice(c, "host path before"), "NCCL-mode calls on the communicator without the key");
        Intracomm d = c.dupWithInfo(info("nccl"));
        try {
            Check.equal("nccl", d.getInfo().get("mpi4j_device_collectives"), "getInfo shows the key");
            Check.equal(1, allReduceOnDevice(d, "NCCL path"), "NCCL-mode calls on the duplicate with the key");
            int[] x = {c.getRank()};
            long before = NcclPath.calls();
            d.allReduce(x, 1, MPI.INT, MPI.SUM); // host memory too, in NCCL mode
            Check.equal(1, NcclPath.calls() - before, "a host allReduce on the NCCL-mode duplicate");
            Check.equal((long) c.getSize() * (c.getSize() - 1) / 2, x[0], "host allReduce through NCCL");
            Check.equal(0, allReduceOnDevice(c, "host path after"), "the communicator without the key stays on the host path");
            Intracomm plain = d.dup();
            try {
                Check.equal(0, allReduceOnDevice(plain, "a plain dup"), "a plain dup does not inherit the hint (getInfo is empty)");
            } finally {
                plain.free();
            }
            d.setInfo(info("HOST"));
            Check.equal(0, allReduceOnDevice(d, "back to host"), "setInfo host turns NCCL mode off");
            d.setInfo(info("nccl"));
            Check.equal(1, allReduceOnDevice(d, "NCCL again"), "setInfo nccl turns it on again (same NCCL communicator)");
        } finally {
            d.free();
        }
    }

    @RankTest
    public void aBadValueIsAnExceptionNamingKeyAndValue(Intracomm c) {
        Check.throwsMpi(MPI.ERR_INFO_VALUE, () -> c.dupWithInfo(info("gpu")), "mpi4j_device_collectives", "'gpu'",
                "nccl", "host");
        Intracomm d = c.dup();
        try {
            Check.throwsMpi(MPI.ERR_INFO_VALUE, () -> d.setInfo(info("")), "mpi4j_device_collectives", "''");
            Check.isTrue(d.getInfo().get("mpi4j_device_collectives") == null, "the refused hints were not stored");
            Check.equal(0, allReduceOnDevice(d, "after the refusal"), "the refused value changed nothing");
        } finally {
            d.free();
        }
    }
}
