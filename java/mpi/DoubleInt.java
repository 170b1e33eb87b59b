package mpi;

/**
 * The record of a double and an int (MPI.DOUBLE_INT): the value first, the int index at C's offset for it. Use the
 * instance {@code MPI.doubleInt} to view records of a ByteBuffer reduced with
 * {@code MPI.MINLOC} or {@code MPI.MAXLOC}.
 */
public final class DoubleInt extends Struct {
    private final int valueOffset;
    private final int indexOffset;

    /** The index at byte {@code indexOffset}, an int of {@code indexBytes} (4) bytes. */
    protected DoubleInt(int indexOffset, int indexBytes) {
        if (indexBytes != 4) {
            throw MPIException.of(MPI.ERR_ARG, "DoubleInt: an index of " + indexBytes + " bytes is not supported (4 is)");
        }
        valueOffset = addDouble();
        setOffset(indexOffset);
        this.indexOffset = addInt();
    }

    @Override
    protected Data newData() {
        return new Data();
    }

    /** One record: value and index. */
    public final class Data extends Struct.Data {
        public double getValue() {
            return getDouble(valueOffset);
        }

        public int getIndex() {
            return getInt(indexOffset);
        }

        public void putValue(double v) {
            putDouble(valueOffset, v);
        }

        public void putIndex(int v) {
            putInt(indexOffset, v);
        }
    }
}
