package io.github.mpi4j.api;

import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.RankTest;
import mpi.Group;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;

/**
 * The client/server half of dynamic processes (issue 10 item 4): the two halves of the
 * communicator under test (evens accept, odds connect) meet through a port, found directly or
 * through the name service, and check the intercommunicator they get against their ranks.
 */
public class PortsSuite {

    /** {@code s} at {@code root}, sent to every rank of {@code comm}. */
    static String share(Intracomm comm, int root, String s) {
        int[] n = {s == null ? 0 : s.length()};
        comm.bcast(n, 1, MPI.INT, root);
        char[] c = comm.getRank() == root ? s.toCharArray() : new char[n[0]];
        comm.bcast(c, n[0], MPI.CHAR, root);
        return new String(c);
    }

    /** Checks an intercommunicator between the evens and the odds of {@code comm}, then disconnects it. */
    static void checkAndDisconnect(Intracomm comm, Intercomm ic) {
        int rank = comm.getRank(), size = comm.getSize(), color = rank % 2;
        int remoteSize = (size - (1 - color) + 1) / 2;
        Check.isTrue(ic.isInter(), "isInter");
        Check.equal(rank / 2, ic.getRank(), "local rank");
        Check.equal(remoteSize, ic.getRemoteSize(), "remote size");
        int[] ranks = new int[remoteSize], expect = new int[remoteSize];
        for (int i = 0; i < remoteSize; i++) {
            ranks[i] = i;
            expect[i] = 1 - color + 2 * i;
        }
        Check.arrays(expect, Group.translateRanks(ic.getRemoteGroup(), ranks, comm.getGroup()), "remote group");
        int[] sum = new int[1];
        ic.allReduce(new int[] {rank}, sum, 1, MPI.INT, MPI.SUM);
        int e = 0;
        for (int x : expect) e += x;
        Check.equal(e, sum[0], "allReduce across the port");
        Intracomm merged = ic.merge(color == 1);
        int[] all = new int[size];
        merged.allGather(new int[] {rank}, 1, MPI.INT, all, 1, MPI.INT);
        int k = 0;
        for (int c = 0; c < 2; c++) for (int r = c; r < size; r += 2) Check.equal(r, all[k++], "merged order " + k);
        merged.free();
        ic.disconnect();
        Check.isTrue(ic.isNull(), "disconnected");
    }

    /**
     * Opens a port at {@code rank == 0}; null at every rank when the MPI library has no ports
     * (MPICH's ucx netmod), which only the MPI backend may answer: the fabric always has them.
     */
    static String openPortOrNull(Intracomm comm) {
        String port = null;
        int[] ok = {1};
        if (comm.getRank() == 0) {
            try {
                port = Intracomm.openPort();
            } catch (mpi.MPIException e) {
                if (e.getErrorClass() != MPI.ERR_UNSUPPORTED_OPERATION
                        || !"mpi".equals(io.github.mpi4j.Mpi4j.backendName())) {
                    throw e;
                }
                System.out.println("note: " + e.getMessage());
                ok[0] = 0;
            }
        }
        comm.bcast(ok, 1, MPI.INT, 0);
        return ok[0] == 1 ? (port == null ? "" : port) : null;
    }

    /** Ports are process-wide (static calls): skipped when ranks are threads of one JVM. */
    @RankTest(minSize = 2, processOnly = true)
    public void portsAcceptConnect(Intracomm comm) {
        int rank = comm.getRank(), color = rank % 2;
        Intracomm half = comm.split(color, rank);
        String port = openPortOrNull(comm);
        if (port == null) return;
        String shared = share(comm, 0, port);
        Check.isTrue(!shared.isEmpty(), "a port name");
        Intercomm ic = color == 0 ? half.accept(port, 0) : half.connect(rank == 1 ? shared : null, 0);
        checkAndDisconnect(comm, ic);
        if (rank == 0) Intracomm.closePort(port);
        half.free();
    }

    @RankTest(minSize = 2, processOnly = true)
    public void portsThroughTheNameService(Intracomm comm) {
        int rank = comm.getRank(), color = rank % 2;
        Intracomm half = comm.split(color, rank);
        long[] token = {System.nanoTime()};
        comm.bcast(token, 1, MPI.LONG, 0);
        String service = "mpi4j-test-" + comm.getSize() + "-" + token[0];
        String port = openPortOrNull(comm);
        if (port == null) return;
        if (rank == 0) {
            Intracomm.publishName(service, port);
            Check.equal(port, Intracomm.lookupName(service), "lookup at the publisher");
        }
        comm.barrier();
        String found = rank == 1 ? Intracomm.lookupName(service) : null;
        Intercomm ic = color == 0 ? half.accept(port, 0) : half.connect(found, 0);
        checkAndDisconnect(comm, ic);
        if (rank == 0) {
            Intracomm.unpublishName(service, port);
            Intracomm.closePort(port);
        }
        comm.barrier();
        if (rank == 1) {
            Check.throwsMpi(MPI.ERR_NAME, () -> Intracomm.lookupName(service), "lookupName", service);
        }
        half.free();
    }

    @RankTest(processOnly = true)
    public void portsBadInput(Intracomm comm) {
        Check.throwsMpi(MPI.ERR_NAME, () -> Intracomm.lookupName("mpi4j-no-such-service"), "lookupName",
                "mpi4j-no-such-service");
        Check.throwsMpi(MPI.ERR_SERVICE, () -> Intracomm.lookupName(null), "lookupName", "null");
        Check.throwsMpi(MPI.ERR_SERVICE, () -> Intracomm.publishName("", "x:1"), "publishName", "empty");
        Check.throwsMpi(MPI.ERR_PORT, () -> Intracomm.publishName("s", null), "publishName", "null");
        Check.throwsMpi(MPI.ERR_PORT, () -> Intracomm.closePort(null), "closePort", "null");
    }

    @RankTest
    public void portsBadRootArguments(Intracomm comm) {
        int rank = comm.getRank();
        // A null or empty port at the root fails every rank of the group, none waits.
        Check.throwsMpi(MPI.ERR_PORT, () -> comm.accept(rank == 0 ? null : "ignored", 0), "accept", "root");
        Check.throwsMpi(MPI.ERR_PORT, () -> comm.connect(rank == 0 ? "" : null, 0), "connect", "root");
        Check.throwsMpi(MPI.ERR_ROOT, () -> comm.accept("x:1", comm.getSize()), "accept", "root");
    }
}
