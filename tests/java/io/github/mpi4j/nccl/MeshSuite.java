package io.github.mpi4j.nccl;

import static io.github.mpi4j.nccl.Expect.assertArrayEquals;
import static io.github.mpi4j.nccl.Expect.assertEquals;
import static io.github.mpi4j.nccl.Expect.assertThrows;
import static io.github.mpi4j.nccl.Expect.assertTrue;

import io.github.mpi4j.cuda.Cuda;
import io.github.mpi4j.cuda.DeviceBuffer;
import io.github.mpi4j.testing.RankTest;
import mpi.Intracomm;
import mpi.MPI;

/**
 * DeviceMesh on 4 ranks placed on two simulated nodes of two ({@code mpi4jrun --hosts
 * localhost:2,127.0.0.1:2}), against the fake CUDA+NCCL pair. References: rank r of the
 * communicator sits at (r / 2, r % 2) of a 2 × 2 mesh (row-major, as torch's DeviceMesh); the
 * "dp" group of r is {tp, 2 + tp}, the "tp" group is {2 dp, 2 dp + 1}.
 */
public class MeshSuite {
    private static final String[] NAMES = {"dp", "tp"};

    /** Each rank's distinct contribution at index i. */
    private static int value(int rank, int i) {
        return (rank + 1) * 1000 + i * 3;
    }

    @RankTest(minSize = 4)
    public void twoByTwoMeshHasTorchsLayoutAndReducesOverEachDimension(Intracomm comm) {
        if (comm.getSize() != 4) return;
        int r = comm.getRank(), dp = r / 2, tp = r % 2, len = 257;
        try (DeviceMesh mesh = DeviceMesh.create(comm, new int[] {2, 2}, NAMES)) {
            assertArrayEquals(new int[] {dp, tp}, mesh.coordinate(), "coordinate");
            assertEquals(dp, mesh.coordinate("dp"), "coordinate dp");
            assertEquals(2, mesh.size("dp"), "size dp");
            assertEquals(2, mesh.size("tp"), "size tp");
            assertEquals(dp, mesh.comm("dp").getRank(), "rank in dp");
            assertEquals(tp, mesh.comm("tp").getRank(), "rank in tp");
            assertEquals(2, mesh.comm("dp").getSize(), "dp size");
            assertEquals(2, mesh.comm("tp").getSize(), "tp size");
            // The group members, from the sub-communicators themselves.
            int[] dpMembers = new int[2];
            mesh.comm("dp").allGather(new int[] {r}, 1, MPI.INT, dpMembers, 1, MPI.INT);
            assertArrayEquals(new int[] {tp, 2 + tp}, dpMembers, "dp group");
            int[] tpMembers = new int[2];
            mesh.comm("tp").allGather(new int[] {r}, 1, MPI.INT, tpMembers, 1, MPI.INT);
            assertArrayEquals(new int[] {2 * dp, 2 * dp + 1}, tpMembers, "tp group");
            // The device of every dimension is the rank on the node (the launcher's local rank),
            // modulo the GPUs where ranks share them.
            String local = System.getenv("MPI4J_LOCAL_RANK");
            if (local != null) assertEquals(Integer.parseInt(local) % Cuda.deviceCount(), mesh.device(), "device");
            assertEquals(mesh.device(), mesh.nccl("dp").getDevice(), "dp device");
            assertEquals(mesh.device(), mesh.nccl("tp").getDevice(), "tp device");
            assertEquals(dp, mesh.nccl("dp").getRank(), "NCCL rank in dp");
            assertEquals(tp, mesh.nccl("tp").getRank(), "NCCL rank in tp");
            for (String name : NAMES) {
                int[] a = new int[len];
                int[] expected = new int[len];
                for (int i = 0; i < len; i++) {
                    a[i] = value(r, i);
                    for (int k = 0; k < 2; k++) {
                        int peer = name.equals("dp") ? k * 2 + tp : dp * 2 + k;
                        expected[i] += value(peer, i);
                    }
                }
                NcclComm nccl = mesh.nccl(name);
                try (DeviceBuffer d = DeviceBuffer.allocate(4L * len, nccl.getDevice())) {
                    d.copyFrom(a);
                    nccl.allReduce(d, d, len, MPI.INT, MPI.SUM);
                    nccl.sync();
                    int[] got = new int[len];
                    d.copyTo(got);
                    assertArrayEquals(expected, got, "NCCL allReduce over " + name);
                }
                int[] host = a.clone();
                mesh.comm(name).allReduce(host, len, MPI.INT, MPI.SUM);
                assertArrayEquals(expected, host, "mpi allReduce over " + name);
            }
        }
    }

    /**
     * A hierarchical communicator over a dimension's sub-communicator keeps the process's device
     * (on two nodes of two, "dp" holds one rank of each node: by its own count every member is
     * local rank 0, but rank 1 and 3 use device 1).
     */
    @RankTest(minSize = 4)
    public void hierarchicalCommOverAMeshDimensionKeepsTheDevice(Intracomm comm) {
        if (comm.getSize() != 4) return;
        int r = comm.getRank(), tp = r % 2, len = 11;
        try (DeviceMesh mesh = DeviceMesh.create(comm, new int[] {2, 2}, NAMES);
             HierarchicalComm h = HierarchicalComm.create(mesh.comm("dp"))) {
            assertEquals(mesh.device(), h.getDevice(), "device of the hierarchical communicator over dp");
            String local = System.getenv("MPI4J_LOCAL_RANK");
            if (local != null) {
                assertEquals(Integer.parseInt(local) % Cuda.deviceCount(), h.getDevice(),
                        "device = the launcher's local rank modulo the GPUs");
            }
            int[] a = new int[len];
            int[] expected = new int[len];
            for (int i = 0; i < len; i++) {
                a[i] = value(r, i);
                expected[i] = value(tp, i) + value(2 + tp, i);
            }
            try (DeviceBuffer d = DeviceBuffer.allocate(4L * len, h.getDevice())) {
                d.copyFrom(a);
                h.allReduce(d, d, len, MPI.INT, MPI.SUM);
                int[] got = new int[len];
                d.copyTo(got);
                assertArrayEquals(expected, got, "hierarchical allReduce over dp");
            }
        }
    }

    @RankTest(minSize = 4)
    public void oneDimensionalMeshIsTheWholeCommunicator(Intracomm comm) {
        int r = comm.getRank(), n = comm.getSize();
        try (DeviceMesh mesh = DeviceMesh.create(comm, new int[] {n}, new String[] {"all"})) {
            assertEquals(r, mesh.comm("all").getRank(), "rank");
            int[] a = {value(r, 0)};
            int expected = 0;
            for (int q = 0; q < n; q++) expected += value(q, 0);
            try (DeviceBuffer d = DeviceBuffer.allocate(4, mesh.device())) {
                d.copyFrom(a);
                mesh.nccl("all").allReduce(d, d, 1, MPI.INT, MPI.SUM);
                mesh.nccl("all").sync();
                d.copyTo(a);
            }
            assertEquals(expected, a[0], "sum");
        }
    }

    @RankTest
    public void badShapesNamesAndClosedMeshesAreExceptions(Intracomm comm) {
        int n = comm.getSize();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DeviceMesh.create(comm, new int[] {n + 1, 2}, NAMES), "product mismatch");
        assertTrue(e.getMessage().contains("[" + (n + 1) + ", 2]") && e.getMessage().contains(String.valueOf(2 * (n + 1)))
                && e.getMessage().contains("has " + n), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> DeviceMesh.create(comm, new int[] {1, n}, new String[] {"dp", "dp"}), "duplicate names");
        assertTrue(e.getMessage().contains("\"dp\""), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> DeviceMesh.create(comm, new int[] {1, n}, new String[] {"dp", null}), "null name");
        assertThrows(IllegalArgumentException.class,
                () -> DeviceMesh.create(comm, new int[] {n}, NAMES), "names and shape differ in length");
        assertThrows(IllegalArgumentException.class, () -> DeviceMesh.create(comm, new int[] {0, n}, NAMES), "size 0");
        assertThrows(IllegalArgumentException.class, () -> DeviceMesh.create(comm, null, NAMES), "null shape");
        assertThrows(IllegalArgumentException.class,
                () -> DeviceMesh.create(comm, new int[] {65536, 65536}, NAMES), "product overflows an int");
        DeviceMesh mesh = DeviceMesh.create(comm, new int[] {1, n}, NAMES);
        try {
            e = assertThrows(IllegalArgumentException.class, () -> mesh.comm("pp"), "unknown name");
            assertTrue(e.getMessage().contains("\"pp\"") && e.getMessage().contains("[dp, tp]"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> mesh.nccl("pp"), "unknown name (nccl)");
            assertThrows(IllegalArgumentException.class, () -> mesh.size(null), "null name");
            assertEquals(1, mesh.size("dp"), "size dp");
            assertEquals(comm.getRank(), mesh.coordinate("tp"), "coordinate tp");
        } finally {
            mesh.close();
        }
        IllegalStateException closed = assertThrows(IllegalStateException.class, () -> mesh.comm("dp"), "closed");
        assertTrue(closed.getMessage().contains("closed"), closed.getMessage());
        assertThrows(IllegalStateException.class, () -> mesh.nccl("tp"), "closed (nccl)");
        mesh.close(); // idempotent
    }
}
