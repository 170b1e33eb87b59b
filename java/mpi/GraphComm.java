package mpi;

import io.github.mpi4j.runtime.Session;
import io.github.mpi4j.spi.BackendComm;

/**
 * A communicator with a graph topology, as the Open MPI Java bindings name it: a general graph
 * ({@link Intracomm#createGraph}, MPI_Graph_create; {@link #getTopology()} is
 * {@link MPI#GRAPH}) or a distributed graph ({@link Intracomm#createDistGraph},
 * {@link Intracomm#createDistGraphAdjacent}; {@link MPI#DIST_GRAPH}). The graph is kept here,
 * so its queries are the same on every backend.
 *
 * <p>Every graph communicator mpi4j makes is a {@link Graphcomm}, the mpiJava 1.2 / MPJ
 * Express class, so one object serves programs of both families (docs/topologies.md).
 */
public class GraphComm extends Intracomm {
    /** General graph: MPI_Graph_create's index and edges; null for a distributed graph. */
    final int[] index, edges;
    /** Distributed graph: this process's neighbours and their weights (null weights: unweighted). */
    final int[] sources, sourceWeights, destinations, destWeights;

    GraphComm(Session session, BackendComm impl, String name, int[] index, int[] edges, int[] sources,
              int[] sourceWeights, int[] destinations, int[] destWeights) {
        super(session, impl, name);
        this.index = index;
        this.edges = edges;
        this.sources = sources;
        this.sourceWeights = sourceWeights;
        this.destinations = destinations;
        this.destWeights = destWeights;
    }

    final boolean isDistGraph() {
        return index == null;
    }

    /** The same graph over another backend communicator (a duplicate). */
    final Graphcomm sameGraph(BackendComm c, String name) {
        return new Graphcomm(session, c, name, index, edges, sources, sourceWeights, destinations, destWeights);
    }

    @Override
    public GraphComm dup() {
        return sameGraph(impl("dup").dup(), getName() + ".dup");
    }

    @Override
    public GraphComm clone() {
        return dup();
    }

    @Override
    public GraphComm iDup() {
        return (GraphComm) super.iDup();
    }

    @Override
    public GraphComm dupWithInfo(Info info) {
        return (GraphComm) super.dupWithInfo(info);
    }

    /** The graph's index and edges (MPI_Graphdims_get, MPI_Graph_get); general graphs only. */
    public GraphParms getDims() {
        return parms("getDims");
    }

    /** The same as {@link #getDims()}. */
    public GraphParms getTopo() {
        return parms("getTopo");
    }

    /** The neighbours of {@code rank} (MPI_Graph_neighbors); general graphs only. */
    public int[] getNeighbors(int rank) {
        return neighbours("getNeighbors", rank);
    }

    /** This process's sources and destinations (MPI_Dist_graph_neighbors); distributed graphs only. */
    public DistGraphNeighbors getDistGraphNeighbors() {
        impl("getDistGraphNeighbors");
        if (!isDistGraph()) {
            throw MPIException.of(MPI.ERR_TOPOLOGY, "getDistGraphNeighbors: " + getName()
                    + " has a general graph topology (MPI.GRAPH), not a distributed graph; use getNeighbors");
        }
        return new DistGraphNeighbors(sources.clone(), sourceWeights == null ? null : sourceWeights.clone(),
                destinations.clone(), destWeights == null ? null : destWeights.clone(), sourceWeights != null);
    }

    /**
     * The rank this process would have in the graph {@code index}/{@code edges} (MPI_Graph_map),
     * or {@link MPI#UNDEFINED} if it would be outside. mpi4j does not reorder: the rank stays.
     */
    public int map(int[] index, int[] edges) {
        BackendComm c = impl("map");
        int nnodes = Topologies.checkGraph("map", index, edges, c.size());
        return c.rank() < nnodes ? c.rank() : MPI.UNDEFINED;
    }

    // ---- shared with the mpiJava names -----------------------------------------------------------

    final GraphParms parms(String call) {
        impl(call);
        generalOnly(call);
        return new GraphParms(index.clone(), edges.clone());
    }

    final int[] neighbours(String call, int rank) {
        BackendComm c = impl(call);
        generalOnly(call);
        if (rank < 0 || rank >= c.size()) {
            throw MPIException.of(MPI.ERR_RANK, call + ": rank " + rank + " is not in [0, " + c.size() + ")");
        }
        return io.github.mpi4j.spi.Neighbours.graph(rank, index, edges).sources;
    }

    private void generalOnly(String call) {
        if (isDistGraph()) {
            throw MPIException.of(MPI.ERR_TOPOLOGY, call + ": " + getName() + " has a distributed graph topology "
                    + "(MPI.DIST_GRAPH); use getDistGraphNeighbors");
        }
    }
}
