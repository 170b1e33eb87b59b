package mpi;

import io.github.mpi4j.runtime.Session;
import io.github.mpi4j.spi.BackendComm;

/**
 * A graph communicator under its mpiJava 1.2 / MPJ Express name and methods
 * ({@link Intracomm#Create_graph}, {@code Get}, {@code Neighbours}, {@code Map}). The same object
 * as the Open MPI bindings' {@link GraphComm}: every graph communicator mpi4j makes is of this
 * class. docs/topologies.md explains the two names.
 */
public final class Graphcomm extends GraphComm {

    Graphcomm(Session session, BackendComm impl, String name, int[] index, int[] edges, int[] sources,
              int[] sourceWeights, int[] destinations, int[] destWeights) {
        super(session, impl, name, index, edges, sources, sourceWeights, destinations, destWeights);
    }

    @Override
    public Graphcomm dup() {
        return (Graphcomm) super.dup();
    }

    @Override
    public Graphcomm clone() {
        return dup();
    }

    /** The graph's index and edges (MPI_Graph_get); read its public fields. */
    public GraphParms Get() {
        return parms("Get");
    }

    /** The neighbours of {@code rank} (MPI_Graph_neighbors). */
    public int[] Neighbours(int rank) {
        return neighbours("Neighbours", rank);
    }

    /** The rank this process would have in the graph (MPI_Graph_map). */
    public int Map(int[] index, int[] edges) {
        return map(index, edges);
    }
}
