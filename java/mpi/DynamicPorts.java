package mpi;

import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.Intercommunication;
import io.github.mpi4j.spi.Predefined;

/**
 * The checks and calls behind {@link Intracomm#createGroup}, the ports ({@code openPort},
 * {@code accept}, {@code connect}, ...) and the name service: the API checks its arguments and
 * hands them to the backend's {@link Intercommunication} capability. The {@code Info}
 * arguments are accepted and ignored (no key changes what mpi4j does).
 */
final class DynamicPorts {
    private DynamicPorts() {
    }

    private static Intercommunication world(String call) {
        return MPI.COMM_WORLD.capability(call, Intercommunication.class, "ports and names");
    }

    static Intracomm createGroup(Intracomm comm, Group group, int tag) {
        String call = "createGroup";
        BackendComm c = comm.impl(call);
        if (group == null) throw MPIException.of(MPI.ERR_GROUP, call + ": group is null");
        Comm.checkSendTag(call, c, tag);
        int[] world = c.worldRanks();
        int[] members = group.members;
        int[] ranks = new int[members.length];
        boolean me = false;
        for (int i = 0; i < members.length; i++) {
            int r = -1;
            for (int j = 0; j < world.length; j++) {
                if (world[j] == members[i]) {
                    r = j;
                    break;
                }
            }
            if (r < 0) {
                throw MPIException.of(MPI.ERR_GROUP, call + ": group member " + i + " (world rank " + members[i]
                        + ") is not in this communicator");
            }
            ranks[i] = r;
            me |= r == c.rank();
        }
        if (!me) {
            throw MPIException.of(MPI.ERR_GROUP, call + ": this process (rank " + c.rank() + ") is not in the group; "
                    + "only the group's members call createGroup");
        }
        Intercommunication ic = comm.capability(call, Intercommunication.class, "createGroup");
        return CallErrors.inherit(comm, new Intracomm(comm.session, ic.createGroup(ranks, tag), comm.getName() + ".group"));
    }

    static String openPort(Info info) {
        return world("openPort").openPort();
    }

    static void closePort(String name) {
        Intercommunication ic = world("closePort");
        if (name == null) throw MPIException.of(MPI.ERR_PORT, "closePort: port name is null");
        ic.closePort(name);
    }

    /**
     * accept or connect: collective over {@code comm}. The root checks the port name and tells
     * the others whether it is usable before anything waits on another process, so that a bad
     * name fails every rank of the group at once.
     */
    static Intercomm acceptOrConnect(Intracomm comm, String call, String port, Info info, int root) {
        BackendComm c = comm.impl(call);
        Intercommunication ic = comm.capability(call, Intercommunication.class, "ports (" + call + ")");
        CallErrors.begin(c, call, false);
        Throwable failure = null;
        try {
            Comm.checkRoot(call, c, root);
            MPIException bad = null;
            if (c.rank() == root && (port == null || port.isBlank())) {
                bad = MPIException.of(MPI.ERR_PORT, call + ": port name at the root (rank " + root + ") is "
                        + (port == null ? "null" : "empty"));
            }
            int[] flag = {bad == null ? 0 : 1};
            c.collectives().bcast(new Buf(flag, BaseKind.INT, 0, 1), 1, Predefined.T_INT, root);
            if (bad != null) throw bad;
            if (flag[0] != 0) {
                throw MPIException.of(MPI.ERR_PORT, call + ": the root (rank " + root + ") has no usable port name");
            }
            BackendComm n = call.equals("accept") ? ic.accept(port, root) : ic.connect(port, root);
            return CallErrors.inherit(comm, new Intercomm(comm.session, n, comm.getName() + "." + call));
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            CallErrors.end(comm, c, failure);
        }
    }

    private static void checkService(String call, String service) {
        if (service == null || service.isEmpty()) {
            throw MPIException.of(MPI.ERR_SERVICE, call + ": service name is " + (service == null ? "null" : "empty"));
        }
    }

    private static void checkPort(String call, String port) {
        if (port == null || port.isEmpty()) {
            throw MPIException.of(MPI.ERR_PORT, call + ": port name is " + (port == null ? "null" : "empty"));
        }
    }

    static void publishName(String service, Info info, String port) {
        Intercommunication ic = world("publishName");
        checkService("publishName", service);
        checkPort("publishName", port);
        ic.publishName(service, port);
    }

    static void unpublishName(String service, Info info, String port) {
        Intercommunication ic = world("unpublishName");
        checkService("unpublishName", service);
        checkPort("unpublishName", port);
        ic.unpublishName(service, port);
    }

    static String lookupName(String service, Info info) {
        Intercommunication ic = world("lookupName");
        checkService("lookupName", service);
        return ic.lookupName(service);
    }
}
