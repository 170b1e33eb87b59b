package mpi;

import io.github.mpi4j.runtime.Session;
import io.github.mpi4j.spi.BackendComm;

/**
 * An intra-communicator: {@link MPI#COMM_WORLD}, {@link MPI#COMM_SELF} and what is split,
 * duplicated or created from them. Adds scans, communicator construction and the mpiJava 1.2
 * collective names to {@link Comm}.
 */
public class Intracomm extends Comm {

    Intracomm(Session session, BackendComm impl, String name) {
        super(session, impl, name);
    }

    // =====================================================================================
    // Construction (Open MPI style)
    // =====================================================================================

    @Override
    public Intracomm dup() {
        BackendComm c = impl("dup");
        return CallErrors.inherit(this, new Intracomm(session, c.dup(), getName() + ".dup"));
    }

    @Override
    public Intracomm clone() {
        return dup();
    }

    @Override
    public Intracomm iDup() {
        return (Intracomm) super.iDup();
    }

    @Override
    public Intracomm dupWithInfo(Info info) {
        return (Intracomm) super.dupWithInfo(info);
    }

    /**
     * Splits into one communicator per {@code colour}, ranks ordered by {@code key} then by old
     * rank. A rank passing {@code MPI.UNDEFINED} gets a null communicator ({@link #isNull()}).
     */
    public final Intracomm split(int colour, int key) {
        return splitImpl("split", colour, key, false);
    }

    /** Splits by type; {@link Comm#TYPE_SHARED} gives one communicator per node. */
    public final Intracomm splitType(int splitType, int key, Info info) {
        BackendComm c = impl("splitType");
        CallErrors.begin(c, "splitType", false);
        Throwable failure = null;
        try {
            if (splitType != TYPE_SHARED && splitType != MPI.UNDEFINED) {
                throw MPIException.of(MPI.ERR_ARG, "splitType: splitType " + splitType
                        + " is not Comm.TYPE_SHARED or MPI.UNDEFINED");
            }
            BackendComm n = c.splitShared(splitType == TYPE_SHARED, key);
            return CallErrors.inherit(this, new Intracomm(session, n, getName() + ".shared"));
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            CallErrors.end(this, c, failure);
        }
    }

    /** The communicator of the processes in {@code group} (a subset of this one); others get a null one. */
    public final Intracomm create(Group group) {
        return createImpl("create", group, false);
    }

    private Intracomm splitImpl(String call, int colour, int key, boolean javaNull) {
        BackendComm c = impl(call);
        CallErrors.begin(c, call, false);
        Throwable failure = null;
        try {
            if (colour < 0 && colour != MPI.UNDEFINED) {
                throw MPIException.of(MPI.ERR_ARG, call + ": colour " + colour + " must be >= 0 or MPI.UNDEFINED");
            }
            BackendComm n = c.split(colour == MPI.UNDEFINED ? -1 : colour, key);
            if (n == null && javaNull) return null;
            return CallErrors.inherit(this, new Intracomm(session, n, getName() + ".split(" + colour + ")"));
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            CallErrors.end(this, c, failure);
        }
    }

    private Intracomm createImpl(String call, Group group, boolean javaNull) {
        BackendComm c = impl(call);
        CallErrors.begin(c, call, false);
        Throwable failure = null;
        try {
            if (group == null) throw MPIException.of(MPI.ERR_GROUP, call + ": group is null");
            int[] world = c.worldRanks();
            int[] members = group.members;
            int[] ranks = new int[members.length];
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
            }
            BackendComm n = c.create(ranks);
            if (n == null && javaNull) return null;
            return CallErrors.inherit(this, new Intracomm(session, n, getName() + ".create"));
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            CallErrors.end(this, c, failure);
        }
    }

    // =====================================================================================
    // Scans (Open MPI style)
    // =====================================================================================

    public final void scan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) {
        scanImpl("scan", false, false, sendbuf, 0, recvbuf, 0, count, type, op);
    }

    public final void scan(Object recvbuf, int count, Datatype type, Op op) {
        scanImpl("scan", false, false, MPI.IN_PLACE, 0, recvbuf, 0, count, type, op);
    }

    public final Request iScan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) {
        return scanImpl("iScan", true, false, sendbuf, 0, recvbuf, 0, count, type, op);
    }

    public final Request iScan(Object recvbuf, int count, Datatype type, Op op) {
        return scanImpl("iScan", true, false, MPI.IN_PLACE, 0, recvbuf, 0, count, type, op);
    }

    public final void exScan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) {
        scanImpl("exScan", false, true, sendbuf, 0, recvbuf, 0, count, type, op);
    }

    public final void exScan(Object buf, int count, Datatype type, Op op) {
        scanImpl("exScan", false, true, MPI.IN_PLACE, 0, buf, 0, count, type, op);
    }

    public final Request iExScan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) {
        return scanImpl("iExScan", true, true, sendbuf, 0, recvbuf, 0, count, type, op);
    }

    public final Request iExScan(Object buf, int count, Datatype type, Op op) {
        return scanImpl("iExScan", true, true, MPI.IN_PLACE, 0, buf, 0, count, type, op);
    }

    // =====================================================================================
    // mpiJava 1.2 / MPJ Express style (offsets in elements of the arrays)
    // =====================================================================================

    /** Duplicates the communicator (mpiJava 1.2). */
    public Object Clone() {
        return dup();
    }

    public Intracomm Dup() {
        return dup();
    }

    /** Splits; returns null on ranks that passed {@code MPI.UNDEFINED}. */
    public final Intracomm Split(int colour, int key) {
        return splitImpl("Split", colour, key, true);
    }

    /** The communicator of {@code group}; null on processes outside it. */
    public final Intracomm Creat(Group group) {
        return createImpl("Creat", group, true);
    }

    public final Intracomm Create(Group group) {
        return createImpl("Create", group, true);
    }

    public final void Barrier() {
        barrierImpl("Barrier", false);
    }

    public final Request Ibarrier() {
        return barrierImpl("Ibarrier", true);
    }

    public final void Bcast(Object buf, int offset, int count, Datatype type, int root) {
        bcastImpl("Bcast", false, buf, offset, count, type, root);
    }

    public final Request Ibcast(Object buf, int offset, int count, Datatype type, int root) {
        return bcastImpl("Ibcast", true, buf, offset, count, type, root);
    }

    public final void Gather(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype, Object recvbuf,
                             int recvoffset, int recvcount, Datatype recvtype, int root) {
        gatherImpl("Gather", false, sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset, recvcount,
                recvtype, root);
    }

    public final void Gatherv(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype, Object recvbuf,
                              int recvoffset, int[] recvcount, int[] displs, Datatype recvtype, int root) {
        gathervImpl("Gatherv", false, sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset, recvcount,
                displs, recvtype, root);
    }

    public final void Scatter(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype, Object recvbuf,
                              int recvoffset, int recvcount, Datatype recvtype, int root) {
        scatterImpl("Scatter", false, sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset, recvcount,
                recvtype, root);
    }

    public final void Scatterv(Object sendbuf, int sendoffset, int[] sendcount, int[] displs, Datatype sendtype,
                               Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int root) {
        scattervImpl("Scatterv", false, sendbuf, sendoffset, sendcount, displs, sendtype, recvbuf, recvoffset,
                recvcount, recvtype, root);
    }

    public final void Allgather(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype, Object recvbuf,
                                int recvoffset, int recvcount, Datatype recvtype) {
        allGatherImpl("Allgather", false, sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset,
                recvcount, recvtype);
    }

    public final void Allgatherv(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype, Object recvbuf,
                                 int recvoffset, int[] recvcount, int[] displs, Datatype recvtype) {
        allGathervImpl("Allgatherv", false, sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset,
                recvcount, displs, recvtype);
    }

    public final void Alltoall(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype, Object recvbuf,
                               int recvoffset, int recvcount, Datatype recvtype) {
        allToAllImpl("Alltoall", false, sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset, recvcount,
                recvtype);
    }

    public final void Alltoallv(Object sendbuf, int sendoffset, int[] sendcount, int[] sdispls, Datatype sendtype,
                                Object recvbuf, int recvoffset, int[] recvcount, int[] rdispls,
                                Datatype recvtype) {
        allToAllvImpl("Alltoallv", false, sendbuf, sendoffset, sendcount, sdispls, sendtype, recvbuf, recvoffset,
                recvcount, rdispls, recvtype);
    }

    public final void Reduce(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count,
                             Datatype datatype, Op op, int root) {
        reduceImpl("Reduce", false, sendbuf, sendoffset, recvbuf, recvoffset, count, datatype, op, root);
    }

    public final void Allreduce(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count,
                                Datatype datatype, Op op) {
        allReduceImpl("Allreduce", false, sendbuf, sendoffset, recvbuf, recvoffset, count, datatype, op);
    }

    public final Request Iallreduce(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count,
                                    Datatype datatype, Op op) {
        return allReduceImpl("Iallreduce", true, sendbuf, sendoffset, recvbuf, recvoffset, count, datatype, op);
    }

    public final void Reduce_scatter(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset,
                                     int[] recvcounts, Datatype datatype, Op op) {
        reduceScatterImpl("Reduce_scatter", false, sendbuf, sendoffset, recvbuf, recvoffset, recvcounts, datatype,
                op);
    }

    public final void Reduce_scatter_block(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset,
                                           int recvcount, Datatype datatype, Op op) {
        reduceScatterBlockImpl("Reduce_scatter_block", false, sendbuf, sendoffset, recvbuf, recvoffset, recvcount,
                datatype, op);
    }

    public final void Scan(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count,
                           Datatype datatype, Op op) {
        scanImpl("Scan", false, false, sendbuf, sendoffset, recvbuf, recvoffset, count, datatype, op);
    }

    public final void Exscan(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count,
                             Datatype datatype, Op op) {
        scanImpl("Exscan", false, true, sendbuf, sendoffset, recvbuf, recvoffset, count, datatype, op);
    }

    // ---- topologies (issue 10; see Topologies and docs/topologies.md) ----

    /**
     * A communicator with a Cartesian grid of {@code dims} (MPI_Cart_create); ranks beyond the
     * grid's size get a null communicator ({@link #isNull()}). Collective.
     */
    public final CartComm createCart(int[] dims, boolean[] periods, boolean reorder) {
        return Topologies.createCart(this, "createCart", dims, periods, reorder, false);
    }

    /** A communicator with the graph {@code index}/{@code edges} (MPI_Graph_create). Collective. */
    public final GraphComm createGraph(int[] index, int[] edges, boolean reorder) {
        return Topologies.createGraph(this, "createGraph", index, edges, reorder, false);
    }

    /** A distributed graph (MPI_Dist_graph_create) with edge weights; {@code info} may be null. */
    public final GraphComm createDistGraph(int[] sources, int[] degrees, int[] destinations, int[] weights,
                                           Info info, boolean reorder) {
        return Topologies.createDistGraph(this, "createDistGraph", sources, degrees, destinations, weights, true,
                reorder);
    }

    /** A distributed graph (MPI_Dist_graph_create) without weights; {@code info} may be null. */
    public final GraphComm createDistGraph(int[] sources, int[] degrees, int[] destinations, Info info,
                                           boolean reorder) {
        return Topologies.createDistGraph(this, "createDistGraph", sources, degrees, destinations, null, false,
                reorder);
    }

    /** A distributed graph from each process's own neighbours, with weights (MPI_Dist_graph_create_adjacent). */
    public final GraphComm createDistGraphAdjacent(int[] sources, int[] sourceWeights, int[] destinations,
                                                   int[] destWeights, Info info, boolean reorder) {
        return Topologies.createDistGraphAdjacent(this, "createDistGraphAdjacent", sources, sourceWeights,
                destinations, destWeights, true, reorder);
    }

    /** A distributed graph from each process's own neighbours, without weights. */
    public final GraphComm createDistGraphAdjacent(int[] sources, int[] destinations, Info info, boolean reorder) {
        return Topologies.createDistGraphAdjacent(this, "createDistGraphAdjacent", sources, null, destinations, null,
                false, reorder);
    }

    /** mpiJava 1.2: a Cartesian communicator; null on processes beyond the grid's size. */
    public final Cartcomm Create_cart(int[] dims, boolean[] periods, boolean reorder) {
        return Topologies.createCart(this, "Create_cart", dims, periods, reorder, true);
    }

    /** mpiJava 1.2: a graph communicator; null on processes beyond the graph's nodes. */
    public final Graphcomm Create_graph(int[] index, int[] edges, boolean reorder) {
        return Topologies.createGraph(this, "Create_graph", index, edges, reorder, true);
    }

    // ---- intercommunicators and dynamic processes (issue 10): see DynamicPorts ------------

    /**
     * MPI_Comm_create_group: the communicator of {@code group}, made by its members only (the
     * other ranks of this communicator take no part); {@code tag} tells concurrent calls apart.
     */
    public final Intracomm createGroup(Group group, int tag) {
        return DynamicPorts.createGroup(this, group, tag);
    }

    /** MPI_Open_port: a new port name of this process. */
    public static String openPort() {
        return DynamicPorts.openPort(null);
    }

    public static String openPort(Info info) {
        return DynamicPorts.openPort(info);
    }

    /** MPI_Close_port. */
    public static void closePort(String name) {
        DynamicPorts.closePort(name);
    }

    /** MPI_Comm_accept: collective; {@code port} is significant at {@code root} only. */
    public final Intercomm accept(String port, int root) {
        return DynamicPorts.acceptOrConnect(this, "accept", port, null, root);
    }

    public final Intercomm accept(String port, Info info, int root) {
        return DynamicPorts.acceptOrConnect(this, "accept", port, info, root);
    }

    /** MPI_Comm_connect: collective; {@code port} is significant at {@code root} only. */
    public final Intercomm connect(String port, int root) {
        return DynamicPorts.acceptOrConnect(this, "connect", port, null, root);
    }

    public final Intercomm connect(String port, Info info, int root) {
        return DynamicPorts.acceptOrConnect(this, "connect", port, info, root);
    }

    /** MPI_Publish_name. */
    public static void publishName(String service, String port) {
        DynamicPorts.publishName(service, null, port);
    }

    public static void publishName(String service, Info info, String port) {
        DynamicPorts.publishName(service, info, port);
    }

    /** MPI_Unpublish_name. */
    public static void unpublishName(String service, String port) {
        DynamicPorts.unpublishName(service, null, port);
    }

    public static void unpublishName(String service, Info info, String port) {
        DynamicPorts.unpublishName(service, info, port);
    }

    /** MPI_Lookup_name: the port published under {@code service}; throws when there is none. */
    public static String lookupName(String service) {
        return DynamicPorts.lookupName(service, null);
    }

    public static String lookupName(String service, Info info) {
        return DynamicPorts.lookupName(service, info);
    }

    // ---- spawning processes (issue 11 item 3; see Spawner and docs/spawn.md) ----

    /**
     * MPI_Comm_spawn, collective over this communicator: starts {@code maxprocs} processes of
     * {@code command} with {@code argv} (null: {@link MPI#ARGV_NULL}); the arguments count at
     * {@code root} only. {@code "java"} runs this JVM's java with its options and class path
     * (see docs/spawn.md). {@code info} keys {@code wdir} and {@code host} are honoured;
     * {@code errcodes} (null: {@link MPI#ERRCODES_IGNORE}) receives one code per process.
     * Returns the intercommunicator whose remote group is the new processes.
     */
    public final Intercomm spawn(String command, String[] argv, int maxprocs, Info info, int root, int[] errcodes) {
        return Spawner.spawn(this, command, argv, maxprocs, info, root, errcodes);
    }

    /** MPI_Comm_spawn_multiple: several commands, {@code maxprocs[i]} processes each, in one new world. */
    public final Intercomm spawnMultiple(String[] commands, String[][] argv, int[] maxprocs, Info[] info, int root,
                                         int[] errcodes) {
        return Spawner.spawnMultiple(this, commands, argv, maxprocs, info, root, errcodes);
    }
}
