package mpi;

import io.github.mpi4j.buffer.Buffers;
import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.BackendRequest;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.Topology;
import io.github.mpi4j.spi.TypeDesc;
import java.util.Arrays;

/**
 * The neighbour collectives of {@link Comm} (MPI_Neighbor_allgather(v), MPI_Neighbor_alltoall(v)
 * and their non-blocking forms) on a communicator with a process topology: each process
 * receives one block from each source of the topology and sends to each destination, in the
 * order {@link CartComm}, {@link GraphComm} and the distributed graphs define. Checks happen
 * here, against this process's in- and out-degree, before the backend sees anything; counts and
 * displacement arrays reach the backend trimmed to the degree. {@code MPI.OBJECT} and types over
 * it go to {@link ObjectNeighborCollectives}.
 */
final class NeighborCollectives {
    private NeighborCollectives() {
    }

    /** {in-degree, out-degree} of this process, or an exception if the communicator has no topology. */
    private static int[] degrees(Comm comm, String call, BackendComm c) {
        if (comm instanceof CartComm) {
            int n = 2 * ((CartComm) comm).dims.length;
            return new int[] {n, n};
        }
        if (comm instanceof GraphComm) {
            GraphComm g = (GraphComm) comm;
            if (g.isDistGraph()) return new int[] {g.sources.length, g.destinations.length};
            int n = io.github.mpi4j.spi.Neighbours.graph(c.rank(), g.index, g.edges).sources.length;
            return new int[] {n, n};
        }
        throw MPIException.of(MPI.ERR_TOPOLOGY, call + ": " + comm.getName() + " has no process topology; make one "
                + "with createCart, createGraph, createDistGraph or createDistGraphAdjacent");
    }

    private static int items(String call, String arg, int count, int blocks) {
        long n = (long) count * blocks;
        if (n > Integer.MAX_VALUE) {
            throw MPIException.of(MPI.ERR_COUNT, call + ": " + arg + " " + count + " x " + blocks
                    + " neighbours exceeds " + Integer.MAX_VALUE + " items");
        }
        return (int) n;
    }

    /** The length check of a counts or displacements array, in terms of neighbours. */
    private static void perNeighbour(String call, String name, int[] a, int n, String which) {
        if (a != null && a.length < n) {
            throw MPIException.of(MPI.ERR_ARG, call + ": " + name + " has " + a.length
                    + " entries but this process has " + n + " " + which);
        }
    }

    private static void noInPlace(String call, Object sendbuf) {
        if (sendbuf == MPI.IN_PLACE) {
            throw MPIException.of(MPI.ERR_BUFFER, call + ": MPI.IN_PLACE is not allowed in neighbour collectives");
        }
    }

    private interface Body {
        Request run(BackendComm c, Topology t, int in, int out);
    }

    private static Request collective(Comm comm, String call, boolean nb, Body body) {
        BackendComm c = comm.impl(call);
        CallErrors.begin(c, call, nb);
        Throwable failure = null;
        try {
            int[] deg = degrees(comm, call, c);
            Topology t = comm.capability(call, Topology.class, "neighbour collectives");
            t = io.github.mpi4j.buffer.NeighborPacking.wrap(c, t, deg[0], deg[1]); // derived types with gaps
            return body.run(c, t, deg[0], deg[1]);
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            CallErrors.end(comm, c, failure);
        }
    }

    static Request allGather(Comm comm, String call, boolean nb, Object sendbuf, int sendcount, Datatype sendtype,
                             Object recvbuf, int recvcount, Datatype recvtype) {
        return collective(comm, call, nb, (c, t, in, out) -> {
            Comm.noNegativeExtent(call, "neighbourhood collectives", sendtype, recvtype);
            if (ObjectParts.involved(sendtype, recvtype)) { // MPI.OBJECT and types over it (issue 10)
                return ObjectNeighborCollectives.allGather(comm, call, nb, t, in, out, sendbuf, sendcount, sendtype,
                        recvbuf, recvcount, null, null, recvtype);
            }
            noInPlace(call, sendbuf);
            Comm.checkNotAliased(call, sendbuf, recvbuf);
            TypeDesc st = Comm.type(call, "sendtype", sendtype);
            TypeDesc rt = Comm.type(call, "recvtype", recvtype);
            Comm.checkCount(call, "sendcount", sendcount);
            Comm.checkCount(call, "recvcount", recvcount);
            Buf s = Buffers.resolve(call, "sendbuf", sendbuf, 0, sendcount, st, false);
            Buf r = Buffers.resolve(call, "recvbuf", recvbuf, 0, items(call, "recvcount", recvcount, in), rt, true);
            if (!nb) {
                t.neighborAllGather(s, sendcount, st, r, recvcount, rt);
                return null;
            }
            return comm.request(t.iNeighborAllGather(s, sendcount, st, r, recvcount, rt),
                    new Object[] {sendbuf, recvbuf});
        });
    }

    static Request allGatherv(Comm comm, String call, boolean nb, Object sendbuf, int sendcount, Datatype sendtype,
                              Object recvbuf, int[] recvcounts, int[] displs, Datatype recvtype) {
        return collective(comm, call, nb, (c, t, in, out) -> {
            Comm.noNegativeExtent(call, "neighbourhood collectives", sendtype, recvtype);
            if (ObjectParts.involved(sendtype, recvtype)) { // MPI.OBJECT and types over it (issue 10)
                return ObjectNeighborCollectives.allGather(comm, call, nb, t, in, out, sendbuf, sendcount, sendtype,
                        recvbuf, 0, recvcounts, displs, recvtype);
            }
            noInPlace(call, sendbuf);
            Comm.checkNotAliased(call, sendbuf, recvbuf);
            TypeDesc st = Comm.type(call, "sendtype", sendtype);
            TypeDesc rt = Comm.type(call, "recvtype", recvtype);
            Comm.checkCount(call, "sendcount", sendcount);
            perNeighbour(call, "recvcount", recvcounts, in, "sources");
            perNeighbour(call, "displs", displs, in, "sources");
            int span = Comm.checkCountsDispls(call, "recvcount", recvcounts, "displs", displs, in);
            int[] rc = Arrays.copyOf(recvcounts, in), rd = Arrays.copyOf(displs, in);
            Buf s = Buffers.resolve(call, "sendbuf", sendbuf, 0, sendcount, st, false);
            Buf r = Buffers.resolve(call, "recvbuf", recvbuf, 0, span, rt, true);
            if (!nb) {
                t.neighborAllGatherv(s, sendcount, st, r, rc, rd, rt);
                return null;
            }
            return comm.request(t.iNeighborAllGatherv(s, sendcount, st, r, rc, rd, rt),
                    new Object[] {sendbuf, recvbuf, rc, rd});
        });
    }

    static Request allToAll(Comm comm, String call, boolean nb, Object sendbuf, int sendcount, Datatype sendtype,
                            Object recvbuf, int recvcount, Datatype recvtype) {
        return collective(comm, call, nb, (c, t, in, out) -> {
            Comm.noNegativeExtent(call, "neighbourhood collectives", sendtype, recvtype);
            if (ObjectParts.involved(sendtype, recvtype)) { // MPI.OBJECT and types over it (issue 10)
                return ObjectNeighborCollectives.allToAll(comm, call, nb, t, in, out, sendbuf, sendcount, null, null,
                        sendtype, recvbuf, recvcount, null, null, recvtype);
            }
            noInPlace(call, sendbuf);
            Comm.checkNotAliased(call, sendbuf, recvbuf);
            TypeDesc st = Comm.type(call, "sendtype", sendtype);
            TypeDesc rt = Comm.type(call, "recvtype", recvtype);
            Comm.checkCount(call, "sendcount", sendcount);
            Comm.checkCount(call, "recvcount", recvcount);
            Buf s = Buffers.resolve(call, "sendbuf", sendbuf, 0, items(call, "sendcount", sendcount, out), st, false);
            Buf r = Buffers.resolve(call, "recvbuf", recvbuf, 0, items(call, "recvcount", recvcount, in), rt, true);
            if (!nb) {
                t.neighborAllToAll(s, sendcount, st, r, recvcount, rt);
                return null;
            }
            return comm.request(t.iNeighborAllToAll(s, sendcount, st, r, recvcount, rt),
                    new Object[] {sendbuf, recvbuf});
        });
    }

    static Request allToAllv(Comm comm, String call, boolean nb, Object sendbuf, int[] sendcounts, int[] sdispls,
                             Datatype sendtype, Object recvbuf, int[] recvcounts, int[] rdispls, Datatype recvtype) {
        return collective(comm, call, nb, (c, t, in, out) -> {
            Comm.noNegativeExtent(call, "neighbourhood collectives", sendtype, recvtype);
            if (ObjectParts.involved(sendtype, recvtype)) { // MPI.OBJECT and types over it (issue 10)
                return ObjectNeighborCollectives.allToAll(comm, call, nb, t, in, out, sendbuf, 0, sendcounts, sdispls,
                        sendtype, recvbuf, 0, recvcounts, rdispls, recvtype);
            }
            noInPlace(call, sendbuf);
            Comm.checkNotAliased(call, sendbuf, recvbuf);
            TypeDesc st = Comm.type(call, "sendtype", sendtype);
            TypeDesc rt = Comm.type(call, "recvtype", recvtype);
            perNeighbour(call, "sendcount", sendcounts, out, "destinations");
            perNeighbour(call, "sdispls", sdispls, out, "destinations");
            perNeighbour(call, "recvcount", recvcounts, in, "sources");
            perNeighbour(call, "rdispls", rdispls, in, "sources");
            int sSpan = Comm.checkCountsDispls(call, "sendcount", sendcounts, "sdispls", sdispls, out);
            int rSpan = Comm.checkCountsDispls(call, "recvcount", recvcounts, "rdispls", rdispls, in);
            int[] sc = Arrays.copyOf(sendcounts, out), sd = Arrays.copyOf(sdispls, out);
            int[] rc = Arrays.copyOf(recvcounts, in), rd = Arrays.copyOf(rdispls, in);
            Buf s = Buffers.resolve(call, "sendbuf", sendbuf, 0, sSpan, st, false);
            Buf r = Buffers.resolve(call, "recvbuf", recvbuf, 0, rSpan, rt, true);
            if (!nb) {
                t.neighborAllToAllv(s, sc, sd, st, r, rc, rd, rt);
                return null;
            }
            return comm.request(t.iNeighborAllToAllv(s, sc, sd, st, r, rc, rd, rt),
                    new Object[] {sendbuf, recvbuf, sc, sd, rc, rd});
        });
    }
}
