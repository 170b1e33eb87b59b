package mpi;

/**
 * What {@link GraphComm#getDims()} (and mpiJava's {@code Graphcomm.Get()}) reports of a graph
 * communicator, in MPI_Graph_create's form: {@code index[i]} is the number of edges of nodes
 * 0..i together, and {@code edges} lists the neighbours of node 0, then of node 1, and so on.
 * Open MPI programs read the getters, mpiJava programs the public fields.
 */
public class GraphParms {
    /** Cumulative node degrees (mpiJava field). */
    public int[] index;
    /** Neighbours of every node, node after node (mpiJava field). */
    public int[] edges;

    /** An empty record (mpiJava programs may make their own). */
    public GraphParms() {
    }

    protected GraphParms(int[] index, int[] edges) {
        this.index = index;
        this.edges = edges;
    }

    public int getIndexCount() {
        return index.length;
    }

    public int getIndex(int i) {
        return index[i];
    }

    public int getEdgeCount() {
        return edges.length;
    }

    public int getEdge(int i) {
        return edges[i];
    }
}
