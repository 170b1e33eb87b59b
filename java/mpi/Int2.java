package mpi;

/**
 * The record of two ints (MPI.INT2): the value first, the int index at C's offset for it. Use the
 * instance {@code MPI.int2} to view records of a ByteBuffer reduced with
 * {@code MPI.MINLOC} or {@code MPI.MAXLOC}.
 */
public final class Int2 extends Struct {
    private final int valueOffset;
    private final int indexOffset;

    /** The index at byte {@code indexOffset}, an int of {@code indexBytes} (4) bytes. */
    protected Int2(int indexOffset, int indexBytes) {
        if (indexBytes != 4) {
            throw MPIException.of(MPI.ERR_ARG, "Int2: an index of " + indexBytes + " bytes is not supported (4 is)");
        }
        valueOffset = addInt();
        setOffset(indexOffset);
        this.indexOffset = addInt();
    }

    @Override
    protected Data newData() {
        return new Data();
    }

    /** One record: value and index. */
    public final class Data extends Struct.Data {
        public int getValue() {
            return getInt(valueOffset);
        }

        public int getIndex() {
            return getInt(indexOffset);
        }

        public void putValue(int v) {
            putInt(valueOffset, v);
        }

        public void putIndex(int v) {
            putInt(indexOffset, v);
        }
    }
}
