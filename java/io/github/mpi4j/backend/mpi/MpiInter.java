package io.github.mpi4j.backend.mpi;

import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.Intercommunication;
import io.github.mpi4j.spi.Mpi;
import mpi.MPIException;

/**
 * The {@link Intercommunication} capability of an MPI communicator: each call is the MPI call
 * of the same name. Blocking ones that wait for other processes are watched by
 * {@link MpiWatchdog}, like every blocking call of this backend.
 */
final class MpiInter implements Intercommunication {
    private final MpiBackend backend;
    private final MpiComm comm;

    MpiInter(MpiBackend backend, MpiComm comm) {
        this.backend = backend;
        this.comm = comm;
    }

    private MpiComm wrap(long h) {
        return h == 0 ? null : new MpiComm(backend, h, true);
    }

    @Override
    public boolean isInter() {
        return comm.isInter();
    }

    @Override
    public int remoteSize() {
        return MpiInterNative.remoteSize0(comm.handle);
    }

    @Override
    public int[] remoteWorldRanks() {
        return MpiInterNative.remoteWorldRanks0(comm.handle);
    }

    @Override
    public BackendComm createIntercomm(int localLeader, BackendComm peer, int remoteLeader, int tag) {
        if (!(peer instanceof MpiComm)) {
            throw mpi.MPIException.of(io.github.mpi4j.spi.Mpi.ERR_COMM,
                    "createIntercomm: the peer communicator is not one of the MPI backend");
        }
        MpiWatchdog.Mark m = MpiWatchdog.enter("MPI_Intercomm_create", comm);
        try {
            return wrap(MpiInterNative.create0(comm.handle, localLeader, ((MpiComm) peer).handle, remoteLeader, tag));
        } finally {
            m.exit();
        }
    }

    @Override
    public BackendComm merge(boolean high) {
        MpiWatchdog.Mark m = MpiWatchdog.enter("MPI_Intercomm_merge", comm);
        try {
            return wrap(MpiInterNative.merge0(comm.handle, high));
        } finally {
            m.exit();
        }
    }

    @Override
    public BackendComm createGroup(int[] ranks, int tag) {
        MpiWatchdog.Mark m = MpiWatchdog.enter("MPI_Comm_create_group", comm);
        try {
            return wrap(MpiInterNative.createGroup0(comm.handle, ranks, tag));
        } finally {
            m.exit();
        }
    }

    /**
     * The MPI library's error for a port or name call, restated with the call's name and its
     * argument; a library that lacks the feature (MPICH's ucx netmod has no ports) says so as
     * MPI.ERR_UNSUPPORTED_OPERATION.
     */
    private static MPIException restated(String call, String what, MPIException e) {
        String m = e.getMessage();
        boolean unsupported = m != null && m.contains("not supported");
        return MPIException.of(unsupported ? Mpi.ERR_UNSUPPORTED_OPERATION : e.getErrorClass(),
                call + ": " + what + (unsupported ? " is not supported by this MPI library: " : " failed: ") + m);
    }

    @Override
    public String openPort() {
        try {
            return MpiInterNative.openPort0();
        } catch (MPIException e) {
            throw restated("openPort", "opening a port", e);
        }
    }

    @Override
    public void closePort(String port) {
        MpiInterNative.closePort0(port);
    }

    private BackendComm acceptOrConnect(String port, int root, boolean accepting) {
        String at = comm.rank() == root ? port : null;
        MpiWatchdog.Mark m = MpiWatchdog.enter(accepting ? "MPI_Comm_accept" : "MPI_Comm_connect", comm);
        try {
            return wrap(MpiInterNative.acceptOrConnect0(at, root, comm.handle, accepting));
        } finally {
            m.exit();
        }
    }

    @Override
    public BackendComm accept(String port, int root) {
        return acceptOrConnect(port, root, true);
    }

    @Override
    public BackendComm connect(String port, int root) {
        return acceptOrConnect(port, root, false);
    }

    @Override
    public void disconnect() {
        MpiWatchdog.Mark m = MpiWatchdog.enter("MPI_Comm_disconnect", comm);
        try {
            MpiInterNative.disconnect0(comm.handle);
        } finally {
            m.exit();
        }
    }

    @Override
    public void publishName(String service, String port) {
        try {
            MpiInterNative.publish0(service, port, true);
        } catch (MPIException e) {
            throw restated("publishName", "publishing service '" + service + "'", e);
        }
    }

    @Override
    public void unpublishName(String service, String port) {
        try {
            MpiInterNative.publish0(service, port, false);
        } catch (MPIException e) {
            throw restated("unpublishName", "unpublishing service '" + service + "'", e);
        }
    }

    @Override
    public String lookupName(String service) {
        try {
            return MpiInterNative.lookup0(service);
        } catch (MPIException e) {
            if (e.getErrorClass() == Mpi.ERR_NAME) {
                throw MPIException.of(Mpi.ERR_NAME, "lookupName: no port is published under service '" + service
                        + "' (" + e.getMessage() + ")");
            }
            throw restated("lookupName", "looking up service '" + service + "'", e);
        }
    }
}
