package io.github.mpi4j.api;

import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.RankTest;
import io.github.mpi4j.spi.DeviceMemory;
import io.github.mpi4j.spi.FileIO;
import io.github.mpi4j.spi.Intercommunication;
import io.github.mpi4j.spi.OneSided;
import io.github.mpi4j.spi.PointToPoint;
import io.github.mpi4j.spi.Topology;
import mpi.CapabilityLookup;
import mpi.Comm;
import mpi.Datatype;
import mpi.Group;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;

/** Communicators and groups: dup, split, create, compare, free, group arithmetic. */
public class CommSuite {

    @RankTest
    public void commDupIsolatesTraffic(Intracomm comm) {
        Intracomm dup = comm.dup();
        Check.equal(comm.getRank(), dup.getRank(), "dup rank");
        Check.equal(comm.getSize(), dup.getSize(), "dup size");
        Check.equal(MPI.CONGRUENT, Comm.compare(comm, dup), "compare(comm, dup)");
        Check.equal(MPI.IDENT, Comm.compare(comm, comm), "compare(comm, comm)");
        int size = comm.getSize(), rank = comm.getRank();
        int next = (rank + 1) % size, prev = (rank + size - 1) % size;
        // Same tag on both communicators: each receive must get its own communicator's message.
        int[] a = new int[1], b = new int[1];
        Request ra = comm.iRecv(a, 1, MPI.INT, prev, 5);
        Request rb = dup.iRecv(b, 1, MPI.INT, prev, 5);
        dup.send(new int[] {2000 + rank}, 1, MPI.INT, next, 5);
        comm.send(new int[] {1000 + rank}, 1, MPI.INT, next, 5);
        Request.waitAll(new Request[] {ra, rb});
        Check.equal(1000 + prev, a[0], "message on comm");
        Check.equal(2000 + prev, b[0], "message on dup");
        dup.free();
        Check.isTrue(dup.isNull(), "freed communicator is null");
        Check.throwsMpi(MPI.ERR_COMM, dup::getRank, "freed");
    }

    @RankTest
    public void commSplitByParity(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        int color = rank % 2;
        Intracomm half = comm.split(color, -rank); // reverse order inside each half
        int members = (size + (color == 0 ? 1 : 0)) / 2;
        Check.equal(members, half.getSize(), "half size");
        // reverse order: highest old rank first
        int above = 0;
        for (int r = rank + 1; r < size; r++) if (r % 2 == color) above++;
        Check.equal(above, half.getRank(), "rank in half");
        int[] sum = new int[1];
        half.allReduce(new int[] {rank}, sum, 1, MPI.INT, MPI.SUM);
        int expected = 0;
        for (int r = color; r < size; r += 2) expected += r;
        Check.equal(expected, sum[0], "sum over the half");
        Check.equal(size > 1 ? MPI.UNEQUAL : MPI.CONGRUENT, Comm.compare(comm, half), "compare with half");
        half.free();
    }

    @RankTest
    public void commSplitUndefined(Intracomm comm) {
        int rank = comm.getRank();
        Intracomm c = comm.split(rank == 0 ? MPI.UNDEFINED : 1, rank);
        if (rank == 0) {
            Check.isTrue(c.isNull(), "UNDEFINED colour gives a null communicator (Open MPI style)");
        } else {
            Check.equal(comm.getSize() - 1, c.getSize(), "size without rank 0");
            c.free();
        }
        Intracomm d = comm.Split(rank == 0 ? MPI.UNDEFINED : 1, rank);
        if (rank == 0) Check.isTrue(d == null, "UNDEFINED colour gives null (mpiJava style)");
        else d.Free();
    }

    @RankTest
    public void commCreateFromGroup(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank();
        Group all = comm.getGroup();
        Check.equal(size, all.getSize(), "group size");
        Check.equal(rank, all.getRank(), "group rank");
        int[] evens = new int[(size + 1) / 2];
        for (int i = 0; i < evens.length; i++) evens[i] = 2 * i;
        Group even = all.incl(evens);
        Intracomm c = comm.create(even);
        if (rank % 2 == 0) {
            Check.equal(evens.length, c.getSize(), "created size");
            Check.equal(rank / 2, c.getRank(), "created rank");
            c.free();
        } else {
            Check.isTrue(c.isNull(), "non-members get a null communicator");
        }
        Group odd = all.excl(evens);
        Check.equal(size / 2, odd.getSize(), "excl size");
        Check.equal(size, Group.union(even, odd).getSize(), "union");
        Check.equal(0, Group.intersection(even, odd).getSize(), "intersection");
        Check.equal(evens.length, Group.difference(all, odd).getSize(), "difference");
        int[] t = Group.translateRanks(even, new int[] {0}, all);
        Check.equal(0, t[0], "translate");
        Check.equal(MPI.IDENT, Group.compare(all, comm.getGroup()), "compare groups");
        Group reversed = all.rangeIncl(new int[][] {{size - 1, 0, -1}});
        Check.equal(size == 1 ? MPI.IDENT : MPI.SIMILAR, Group.compare(all, reversed), "reversed group");
        Check.equal(rank % 2 == 0 ? rank / 2 : MPI.UNDEFINED, even.getRank(), "rank in even group");
    }

    @RankTest
    public void commNamesAndAttributes(Intracomm comm) {
        Intracomm dup = comm.dup();
        dup.setName("my-dup");
        Check.equal("my-dup", dup.getName(), "name");
        Check.isTrue(dup.getTagUpperBound() >= 32767, "MPI_TAG_UB is at least 32767");
        Check.equal(dup.getTagUpperBound(), dup.getAttr(MPI.TAG_UB), "TAG_UB attribute");
        Intracomm shared = comm.splitType(Comm.TYPE_SHARED, 0, new mpi.Info());
        Check.isTrue(shared.getSize() >= 1 && shared.getSize() <= comm.getSize(), "shared-memory communicator");
        shared.free();
        dup.free();
        if (MPI.isInitialized()) Check.throwsMpi(MPI.ERR_COMM, () -> MPI.COMM_WORLD.free(), "cannot be freed");
    }

    /**
     * Issue 8 item 4: the optional parts of a backend are reached through one lookup. Neither
     * backend has device memory yet: asking for it throws an MPIException naming the feature
     * and the backend, at every rank and on a duplicate too; what every communicator has
     * (point-to-point, topologies, intercommunicators, MPI-IO, one-sided windows) is found.
     */
    @RankTest
    public void capabilityLookupNamesWhatTheBackendLacks(Intracomm comm) {
        Intracomm dup = comm.dup();
        for (Intracomm c : new Intracomm[] {comm, dup}) {
            Check.isTrue(CapabilityLookup.require(c, PointToPoint.class, "point-to-point") != null,
                    "point-to-point is found");
            // Topologies and intercommunicators (issue 10) are on every backend.
            Check.isTrue(CapabilityLookup.require(c, Topology.class, "process topologies") != null,
                    "process topologies are found");
            Check.isTrue(CapabilityLookup.require(c, Intercommunication.class, "intercommunicators") != null,
                    "intercommunicators are found");
            Check.isTrue(CapabilityLookup.require(c, FileIO.class, "MPI-IO files") != null, "MPI-IO is found");
            Check.isTrue(CapabilityLookup.require(c, OneSided.class, "one-sided windows") != null,
                    "one-sided windows are found");
            Object[][] optional = {
                {DeviceMemory.class, "device memory"},
            };
            for (Object[] o : optional) {
                String what = (String) o[1];
                Check.throwsMpi(MPI.ERR_UNSUPPORTED_OPERATION,
                        () -> CapabilityLookup.require(c, (Class<?>) o[0], what),
                        what + " is not supported by the ", " backend");
            }
        }
        dup.free();
        Check.throwsMpi(MPI.ERR_COMM, () -> CapabilityLookup.require(dup, PointToPoint.class, "point-to-point"),
                "freed");
    }

    /**
     * Issue 8 item 3: a datatype's life. A duplicate of MPI.INT is committed, used, and freed
     * through the backend hooks; after that it is null, and using, committing or freeing it again
     * throws naming it, while MPI.INT itself (which cannot be freed) works on.
     */
    @RankTest
    public void datatypeDupCommitFree(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank();
        Datatype t = MPI.INT.dup();
        t.setName("ints");
        t.commit();
        int[] out = new int[1];
        comm.allReduce(new int[] {rank + 1}, out, 1, t, MPI.SUM);
        Check.equal((long) size * (size + 1) / 2, out[0], "allReduce with a committed dup of MPI.INT");
        t.free();
        Check.isTrue(t.isNull(), "a freed datatype is null");
        Check.throwsMpi(MPI.ERR_TYPE, () -> comm.allReduce(new int[] {1}, new int[1], 1, t, MPI.SUM), "ints", "freed");
        Check.throwsMpi(MPI.ERR_TYPE, t::commit, "ints", "freed");
        Check.throwsMpi(MPI.ERR_TYPE, t::free, "ints", "freed already");
        Check.throwsMpi(MPI.ERR_TYPE, MPI.INT::free, "MPI.INT", "predefined");
        Check.isTrue(!MPI.INT.isNull(), "MPI.INT lives on after its duplicate was freed");
        out[0] = 0;
        comm.allReduce(new int[] {rank + 1}, out, 1, MPI.INT, MPI.SUM);
        Check.equal((long) size * (size + 1) / 2, out[0], "allReduce with MPI.INT after its duplicate was freed");
    }
}
