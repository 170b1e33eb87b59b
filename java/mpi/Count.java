package mpi;

/** A 64-bit count (MPI_Count), as the Open MPI bindings returned from getElementsX. */
public final class Count implements Comparable<Count> {
    private long count;

    public Count(long count) {
        this.count = count;
    }

    public long getCount() {
        return count;
    }

    public void setCount(long count) {
        this.count = count;
    }

    @Override
    public int compareTo(Count other) {
        return Long.compare(count, other.count);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Count && ((Count) o).count == count;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(count);
    }

    @Override
    public String toString() {
        return Long.toString(count);
    }
}
