package mpi;

/**
 * The record of a long and an int (MPI.LONG_INT): the value first, the int index at C's offset for it. Use the
 * instance {@code MPI.longInt} to view records of a ByteBuffer reduced with
 * {@code MPI.MINLOC} or {@code MPI.MAXLOC}.
 */
public final class LongInt extends Struct {
    private final int valueOffset;
    private final int indexOffset;

    /** The index at byte {@code indexOffset}, an int of {@code indexBytes} (4) bytes. */
    protected LongInt(int indexOffset, int indexBytes) {
        if (indexBytes != 4) {
            throw MPIException.of(MPI.ERR_ARG, "LongInt: an index of " + indexBytes + " bytes is not supported (4 is)");
        }
        valueOffset = addLong();
        setOffset(indexOffset);
        this.indexOffset = addInt();
    }

    @Override
    protected Data newData() {
        return new Data();
    }

    /** One record: value and index. */
    public final class Data extends Struct.Data {
        public long getValue() {
            return getLong(valueOffset);
        }

        public int getIndex() {
            return getInt(indexOffset);
        }

        public void putValue(long v) {
            putLong(valueOffset, v);
        }

        public void putIndex(int v) {
            putInt(indexOffset, v);
        }
    }
}
