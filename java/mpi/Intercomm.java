package mpi;

import io.github.mpi4j.runtime.Session;
import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.Intercommunication;

/**
 * An intercommunicator: a local and a remote group. Point-to-point ranks name processes of the
 * remote group; {@link #getRank()} and {@link #getSize()} are the local group's. The
 * collectives of {@link Comm} work here with MPI-3's intercommunicator semantics (rooted calls
 * take {@link MPI#ROOT} and {@link MPI#PROC_NULL} in the root's group and the root's rank in the
 * other; see docs/intercommunicators.md). Made by {@link Comm#createIntercomm},
 * {@link Intracomm#accept} and {@link Intracomm#connect}.
 */
public class Intercomm extends Comm {

    Intercomm(Session session, BackendComm impl, String name) {
        super(session, impl, name);
    }

    private Intercommunication inter(String call) {
        return InterCollectives.inter(this, call);
    }

    // ---- Open MPI style -----------------------------------------------------------------------

    @Override
    public Intercomm dup() {
        BackendComm c = impl("dup");
        return CallErrors.inherit(this, new Intercomm(session, c.dup(), getName() + ".dup"));
    }

    @Override
    public Intercomm clone() {
        return dup();
    }

    @Override
    public Intercomm iDup() {
        return (Intercomm) super.iDup();
    }

    @Override
    public Intercomm dupWithInfo(Info info) {
        return (Intercomm) super.dupWithInfo(info);
    }

    /** Size of the remote group. */
    public int getRemoteSize() {
        return inter("getRemoteSize").remoteSize();
    }

    /** The remote group. */
    public Group getRemoteGroup() {
        return new Group(inter("getRemoteGroup").remoteWorldRanks(), -1);
    }

    /**
     * An intracommunicator over both groups: the group whose ranks pass {@code high = false}
     * first; when both groups pass the same value, an order both agree on (MPI leaves it open).
     * Every rank of a group must pass the same {@code high}.
     */
    public Intracomm merge(boolean high) {
        BackendComm c = impl("merge");
        CallErrors.begin(c, "merge", false);
        Throwable failure = null;
        try {
            return CallErrors.inherit(this, new Intracomm(session, inter("merge").merge(high), getName() + ".merge"));
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            CallErrors.end(this, c, failure);
        }
    }

    // ---- mpiJava 1.2 / MPJ Express style ------------------------------------------------------

    public int Remote_size() {
        return getRemoteSize();
    }

    public Group Remote_group() {
        return getRemoteGroup();
    }

    public Intracomm Merge(boolean high) {
        return merge(high);
    }

    public Object Clone() {
        return dup();
    }

    public Intercomm Dup() {
        return dup();
    }

    // ---- spawning processes (issue 11 item 3) ----

    /**
     * MPI_Comm_get_parent: in a process started by {@link Intracomm#spawn}, the
     * intercommunicator to the processes that spawned it (local group: this process's
     * MPI_COMM_WORLD); otherwise an intercommunicator whose {@link #isNull()} is true, as in the
     * Open MPI bindings. The same object every time; after {@link #disconnect()} it is null.
     */
    public static Intercomm getParent() {
        return Spawner.parent();
    }
}
