package io.github.mpi4j.fabric;

import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.Intercommunication;
import io.github.mpi4j.spi.Mpi;
import io.github.mpi4j.spi.Predefined;
import io.github.mpi4j.spi.SendMode;
import io.github.mpi4j.spi.StatusData;
import mpi.MPIException;

/**
 * The {@link Intercommunication} capability of a fabric intracommunicator: making
 * intercommunicators from it (MPI_Intercomm_create, accept/connect through {@link FabricPorts})
 * and MPI_Comm_create_group. The intercommunicators themselves are {@link FabricIntercomm}s.
 */
final class FabricInterOps implements Intercommunication {
    private final FabricComm comm;

    FabricInterOps(FabricComm comm) {
        this.comm = comm;
    }

    @Override
    public boolean isInter() {
        return false;
    }

    @Override
    public int remoteSize() {
        throw notInter("getRemoteSize");
    }

    @Override
    public int[] remoteWorldRanks() {
        throw notInter("getRemoteGroup");
    }

    @Override
    public BackendComm merge(boolean high) {
        throw notInter("merge");
    }

    private static MPIException notInter(String call) {
        return MPIException.of(Mpi.ERR_COMM, call + ": the communicator is not an intercommunicator");
    }

    /**
     * Collective over this communicator (the API's bracket is open): the leaders swap their
     * groups and context-id proposals over {@code peer}, then each leader hands the other group
     * and the agreed id to its group.
     */
    @Override
    public BackendComm createIntercomm(int localLeader, BackendComm peer, int remoteLeader, int tag) {
        int[] mine = comm.worldRanks();
        int proposal = maxOverGroup(comm.backend.nextContextId());
        int[] remote = null;
        int id = 0;
        if (comm.rank() == localLeader) {
            int[] out = new int[mine.length + 1];
            out[0] = proposal;
            System.arraycopy(mine, 0, out, 1, mine.length);
            int[] in = swap(peer, remoteLeader, tag, out);
            id = Math.max(proposal, in[0]);
            remote = java.util.Arrays.copyOfRange(in, 1, in.length);
        }
        int[] agreed = bcastInts(comm, localLeader, remote == null ? null : prepend(id, remote));
        id = agreed[0];
        remote = java.util.Arrays.copyOfRange(agreed, 1, agreed.length);
        for (int w : remote) {
            if (comm.rankOfWorld(w) >= 0) {
                throw MPIException.of(Mpi.ERR_ARG, "createIntercomm: the groups overlap (world rank " + w
                        + " is in both); an intercommunicator needs two disjoint groups");
            }
        }
        comm.backend.contextIdUsed(id);
        return new FabricIntercomm(comm.backend, mine, remote, id);
    }

    /** The leaders' exchange over {@code peer}: length first, then the ints. */
    static int[] swap(BackendComm peer, int other, int tag, int[] out) {
        int[] n = new int[1];
        peer.sendRecv(new Buf(new int[] {out.length}, BaseKind.INT, 0, 1), 1, Predefined.T_INT, other, tag,
                new Buf(n, BaseKind.INT, 0, 1), 1, Predefined.T_INT, other, tag, new StatusData());
        int[] in = new int[n[0]];
        io.github.mpi4j.spi.BackendRequest r = peer.irecv(new Buf(in, BaseKind.INT, 0, in.length), in.length,
                Predefined.T_INT, other, tag);
        peer.send(new Buf(out, BaseKind.INT, 0, out.length), out.length, Predefined.T_INT, other, tag,
                SendMode.STANDARD);
        r.waitFor(new StatusData());
        return in;
    }

    private int maxOverGroup(int value) {
        int[] max = new int[1];
        comm.collectives().allReduce(new Buf(new int[] {value}, BaseKind.INT, 0, 1), new Buf(max, BaseKind.INT, 0, 1),
                1, Predefined.T_INT, FabricBackend.MAX);
        return max[0];
    }

    /** Broadcasts a variable-length int array from {@code root} (its {@code data}) over {@code c}. */
    static int[] bcastInts(BackendComm c, int root, int[] data) {
        int[] n = {data == null ? 0 : data.length};
        c.collectives().bcast(new Buf(n, BaseKind.INT, 0, 1), 1, Predefined.T_INT, root);
        int[] all = c.rank() == root ? data : new int[n[0]];
        c.collectives().bcast(new Buf(all, BaseKind.INT, 0, all.length), all.length, Predefined.T_INT, root);
        return all;
    }

    static int[] prepend(int first, int[] rest) {
        int[] a = new int[rest.length + 1];
        a[0] = first;
        System.arraycopy(rest, 0, a, 1, rest.length);
        return a;
    }

    /**
     * MPI_Comm_create_group: only the members talk, linearly through the first of them, on a
     * context of their own per tag (negative: no communicator uses those), so that the rest of
     * this communicator takes no part.
     */
    @Override
    public BackendComm createGroup(int[] ranks, int tag) {
        Engine engine = comm.engine;
        int ctx = -2 - tag;
        int[] world = comm.worldRanks();
        int[] members = new int[ranks.length];
        for (int i = 0; i < ranks.length; i++) members[i] = world[ranks[i]];
        int leader = members[0];
        int[] id = {comm.backend.nextContextId()};
        Buf b = new Buf(id, BaseKind.INT, 0, 1);
        if (engine.me == leader) {
            int[] other = new int[1];
            Buf ob = new Buf(other, BaseKind.INT, 0, 1);
            for (int i = 1; i < members.length; i++) {
                engine.waitFor(engine.irecv(ctx, members[i], 0, ob, 0, 4), "createGroup");
                id[0] = Math.max(id[0], other[0]);
            }
            for (int i = 1; i < members.length; i++) {
                engine.waitFor(engine.isend(ctx, members[i], 1, b, 0, 4, false), "createGroup");
            }
        } else {
            engine.waitFor(engine.isend(ctx, leader, 0, b, 0, 4, false), "createGroup");
            engine.waitFor(engine.irecv(ctx, leader, 1, b, 0, 4), "createGroup");
        }
        comm.backend.contextIdUsed(id[0]);
        return new FabricComm(comm.backend, members, id[0]);
    }

    // ---- ports: see FabricPorts ------------------------------------------------------------------

    @Override
    public String openPort() {
        return FabricPorts.of(comm.backend).open();
    }

    @Override
    public void closePort(String port) {
        FabricPorts.of(comm.backend).close(port);
    }

    @Override
    public BackendComm accept(String port, int root) {
        return FabricPorts.of(comm.backend).accept(comm, port, root);
    }

    @Override
    public BackendComm connect(String port, int root) {
        return FabricPorts.of(comm.backend).connect(comm, port, root);
    }

    @Override
    public void disconnect() {
        comm.bracketed("disconnect", () -> comm.collectives().barrier());
        comm.free();
    }

    @Override
    public void publishName(String service, String port) {
        FabricPorts.of(comm.backend).publish(service, port);
    }

    @Override
    public void unpublishName(String service, String port) {
        FabricPorts.of(comm.backend).unpublish(service, port);
    }

    @Override
    public String lookupName(String service) {
        return FabricPorts.of(comm.backend).lookup(service);
    }
}
