package mpi;

import io.github.mpi4j.spi.Layout;
import io.github.mpi4j.spi.StatusData;

/**
 * The status of a receive, probe or completed request. Both API styles: Open MPI's getters
 * ({@link #getSource()}, {@link #getCount(Datatype)}) and mpiJava's public fields
 * ({@link #source}, {@link #tag}, {@link #index}) and methods ({@link #Get_count(Datatype)}).
 */
public final class Status {
    /** Source rank of the message (mpiJava field; same as {@link #getSource()}). */
    public int source;
    /** Tag of the message (mpiJava field; same as {@link #getTag()}). */
    public int tag;
    /** For the *any and *some completions: index of the request in the array. */
    public int index = MPI.UNDEFINED;

    private int error;
    private boolean cancelled;
    private long bytes;
    private int objects = -1;

    /** An empty status (source PROC_NULL, tag ANY_TAG, no data), as a user-created MPI_Status. */
    public Status() {
        this.source = MPI.PROC_NULL;
        this.tag = MPI.ANY_TAG;
    }

    Status(StatusData d) {
        set(d);
    }

    Status(StatusData d, int index) {
        set(d);
        this.index = index;
    }

    private void set(StatusData d) {
        this.source = d.source;
        this.tag = d.tag;
        this.error = d.error;
        this.cancelled = d.cancelled;
        this.bytes = d.bytes;
        this.objects = d.objects;
    }

    public int getSource() {
        return source;
    }

    public int getTag() {
        return tag;
    }

    public int getError() {
        return error;
    }

    /** Index of the completed request in a waitAny/testAny-style call, or MPI.UNDEFINED. */
    public int getIndex() {
        return index;
    }

    /**
     * Number of received items of {@code datatype}, or {@code MPI.UNDEFINED} if the bytes
     * received are not a whole number of items.
     */
    public int getCount(Datatype datatype) {
        if (datatype == null) throw MPIException.of(MPI.ERR_TYPE, "Status.getCount: datatype is null");
        if (datatype.desc.layout == Layout.OBJECT) return objects < 0 ? MPI.UNDEFINED : objects;
        long size = datatype.desc.size;
        if (size == 0) return bytes == 0 ? 0 : MPI.UNDEFINED;
        return bytes % size == 0 ? (int) (bytes / size) : MPI.UNDEFINED;
    }

    /** Number of basic elements received (for predefined types equal to the count of whole items). */
    public int getElements(Datatype datatype) {
        if (datatype == null) throw MPIException.of(MPI.ERR_TYPE, "Status.getElements: datatype is null");
        if (datatype.desc.layout == Layout.OBJECT) return objects < 0 ? MPI.UNDEFINED : objects;
        long unit = datatype.desc.valueKind.bytes;
        switch (datatype.desc.layout) {
            case DERIVED:
                // Leaf elements, counting those of a partly received item too (issue 10).
                long leaves = ((io.github.mpi4j.spi.TypeMap) datatype.desc.derived).leafItemsIn(bytes);
                return leaves < 0 ? MPI.UNDEFINED : (int) leaves;
            case PAIR:
            case COMPLEX:
            case VALUE_INT:
                // Two basic elements per item; partial items count their whole basic elements.
                long size = datatype.desc.size;
                long whole = bytes / size * 2;
                long rest = bytes % size;
                // A message ending inside a basic element: MPI_UNDEFINED, as for the basic types.
                if (rest != 0 && rest != unit) return MPI.UNDEFINED;
                return (int) (whole + (rest == unit ? 1 : 0));
            default:
                if (unit == 0) return 0;
                return bytes % unit == 0 ? (int) (bytes / unit) : MPI.UNDEFINED;
        }
    }

    /** 64-bit form of {@link #getElements(Datatype)}. */
    public Count getElementsX(Datatype datatype) {
        return new Count(getElements(datatype));
    }

    public boolean isCancelled() {
        return cancelled;
    }

    public void setCancelled(boolean flag) {
        this.cancelled = flag;
    }

    public void setElements(Datatype datatype, int count) {
        if (datatype == null) throw MPIException.of(MPI.ERR_TYPE, "Status.setElements: datatype is null");
        if (count < 0) throw MPIException.of(MPI.ERR_COUNT, "Status.setElements: count must be >= 0, got " + count);
        setElementsImpl(datatype, count);
    }

    /** 64-bit form of {@link #setElements(Datatype, int)}. */
    public void setElementsX(Datatype datatype, Count count) {
        if (datatype == null) throw MPIException.of(MPI.ERR_TYPE, "Status.setElementsX: datatype is null");
        if (count == null) throw MPIException.of(MPI.ERR_ARG, "Status.setElementsX: count is null");
        if (count.getCount() < 0) {
            throw MPIException.of(MPI.ERR_COUNT, "Status.setElementsX: count must be >= 0, got " + count.getCount());
        }
        setElementsImpl(datatype, count.getCount());
    }

    // ---- mpiJava 1.2 names ---------------------------------------------------------------

    public int Get_count(Datatype datatype) {
        return getCount(datatype);
    }

    public int Get_elements(Datatype datatype) {
        return getElements(datatype);
    }

    public boolean Test_cancelled() {
        return cancelled;
    }

    @Override
    public String toString() {
        return "Status[source=" + source + ", tag=" + tag + ", error=" + error + ", bytes=" + bytes
                + (cancelled ? ", cancelled" : "") + "]";
    }

    // ---- set elements (issue 10) ----

    /** Basic elements of {@code datatype} as bytes (or objects for MPI.OBJECT), so getElements/getCount give them back. */
    private void setElementsImpl(Datatype datatype, long count) {
        if (datatype.desc.layout == Layout.OBJECT) {
            this.objects = (int) Math.min(count, Integer.MAX_VALUE);
            return;
        }
        this.bytes = count * datatype.desc.valueKind.bytes;
    }
}
