package mpi;

/**
 * The record of a short and an int (MPI.SHORT_INT): the value first, the int index at C's offset for it. Use the
 * instance {@code MPI.shortInt} to view records of a ByteBuffer reduced with
 * {@code MPI.MINLOC} or {@code MPI.MAXLOC}.
 */
public final class ShortInt extends Struct {
    private final int valueOffset;
    private final int indexOffset;

    /** The index at byte {@code indexOffset}, an int of {@code indexBytes} (4) bytes. */
    protected ShortInt(int indexOffset, int indexBytes) {
        if (indexBytes != 4) {
            throw MPIException.of(MPI.ERR_ARG, "ShortInt: an index of " + indexBytes + " bytes is not supported (4 is)");
        }
        valueOffset = addShort();
        setOffset(indexOffset);
        this.indexOffset = addInt();
    }

    @Override
    protected Data newData() {
        return new Data();
    }

    /** One record: value and index. */
    public final class Data extends Struct.Data {
        public short getValue() {
            return getShort(valueOffset);
        }

        public int getIndex() {
            return getInt(indexOffset);
        }

        public void putValue(short v) {
            putShort(valueOffset, v);
        }

        public void putIndex(int v) {
            putInt(indexOffset, v);
        }
    }
}
