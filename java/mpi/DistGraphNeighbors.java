package mpi;

/**
 * The neighbours of the calling process in a distributed graph
 * ({@link GraphComm#getDistGraphNeighbors()}, MPI_Dist_graph_neighbors_count and
 * MPI_Dist_graph_neighbors): the ranks it receives from (sources) and sends to (destinations),
 * in the order the neighbour collectives use, with their weights when the graph has them.
 */
public final class DistGraphNeighbors {
    private final int[] sources;
    private final int[] sourceWeights;
    private final int[] destinations;
    private final int[] destWeights;
    private final boolean weighted;

    DistGraphNeighbors(int[] sources, int[] sourceWeights, int[] destinations, int[] destWeights,
                       boolean weighted) {
        this.sources = sources;
        this.sourceWeights = sourceWeights;
        this.destinations = destinations;
        this.destWeights = destWeights;
        this.weighted = weighted;
    }

    /** Number of sources (MPI_Dist_graph_neighbors_count's indegree). */
    public int getInDegree() {
        return sources.length;
    }

    /** Number of destinations (outdegree). */
    public int getOutDegree() {
        return destinations.length;
    }

    /** Whether the graph was made with weights. */
    public boolean isWeighted() {
        return weighted;
    }

    public int getSource(int i) {
        return sources[i];
    }

    /** Weight of source {@code i}; 1 in a graph made without weights. */
    public int getSourceWeight(int i) {
        return weighted ? sourceWeights[i] : 1;
    }

    public int getDestination(int i) {
        return destinations[i];
    }

    /** Weight of destination {@code i}; 1 in a graph made without weights. */
    public int getDestinationWeight(int i) {
        return weighted ? destWeights[i] : 1;
    }
}
