package mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * A record layout over a {@link ByteBuffer}, as in the Open MPI Java bindings: a subclass adds
 * its fields in its constructor ({@link #addInt()}, {@link #addDouble(int)}, ..., each returning
 * the field's byte offset), implements {@link #newData()} with a {@link Data} subclass whose
 * accessors read and write the fields, and {@link #getType()} gives the matching datatype
 * ({@code Datatype.createStruct} of the fields, committed on first use). Records lie one
 * {@link #getExtent()} apart; {@link #getData(ByteBuffer, int)} views record {@code index}.
 */
public abstract class Struct {
    /** One field: its datatype (or nested struct), byte offset and number of elements. */
    private static final class Field {
        final Object type;
        final int offset;
        final int length;

        Field(Object type, int offset, int length) {
            this.type = type;
            this.offset = offset;
            this.length = length;
        }
    }

    private final List<Field> fields = new ArrayList<>();
    /** Bytes the fields take so far; after the type is made, the type's (aligned) extent. */
    private int extent;
    private Datatype type;

    /** Makes the datatype once the fields are known (at the first query or data view). */
    private synchronized void build() {
        if (type != null) return;
        int n = fields.size();
        int[] lengths = new int[n];
        int[] offsets = new int[n];
        Datatype[] types = new Datatype[n];
        for (int i = 0; i < n; i++) {
            Field f = fields.get(i);
            lengths[i] = f.length;
            offsets[i] = f.offset;
            types[i] = f.type instanceof Struct ? ((Struct) f.type).getType() : (Datatype) f.type;
        }
        Datatype t = Datatype.createStruct(lengths, offsets, types);
        t.commit();
        extent = t.getExtent(); // bytes: createStruct's base type is MPI.BYTE
        type = t;
    }

    /** Bytes from one record to the next. */
    public final int getExtent() {
        build();
        return extent;
    }

    /** The committed datatype of one record. */
    public final Datatype getType() {
        build();
        return type;
    }

    /** A new, unattached accessor of this struct's records. */
    protected abstract Data newData();

    @SuppressWarnings("unchecked")
    final <T extends Data> T view(ByteBuffer buffer, int offset) {
        Data d = newData();
        d.buffer = buffer;
        d.offset = offset;
        return (T) d;
    }

    /** The first record of {@code buffer}. */
    public final <T extends Data> T getData(ByteBuffer buffer) {
        build();
        return view(buffer, 0);
    }

    /** Record {@code index} of {@code buffer}. */
    public final <T extends Data> T getData(ByteBuffer buffer, int index) {
        build();
        return view(buffer, index * extent);
    }

    /** The first record of {@code array} (read in the platform's byte order). */
    public final <T extends Data> T getData(byte[] array) {
        return getData(ByteBuffer.wrap(array).order(ByteOrder.nativeOrder()));
    }

    /** Record {@code index} of {@code array}. */
    public final <T extends Data> T getData(byte[] array, int index) {
        return getData(ByteBuffer.wrap(array).order(ByteOrder.nativeOrder()), index);
    }

    private int add(Object type, int elementBytes, int length) {
        if (this.type != null) {
            throw MPIException.of(MPI.ERR_TYPE, "Struct: fields cannot be added after the datatype was made");
        }
        if (length < 0) throw MPIException.of(MPI.ERR_ARG, "Struct: field length must be >= 0, got " + length);
        int offset = extent;
        extent += elementBytes * length;
        fields.add(new Field(type, offset, length));
        return offset;
    }

    /** Moves the next field to byte {@code offset} (not before the fields added so far). */
    public final Struct setOffset(int offset) {
        if (type != null) {
            throw MPIException.of(MPI.ERR_TYPE, "Struct.setOffset: the datatype was made already");
        }
        if (offset < extent) {
            throw MPIException.of(MPI.ERR_ARG, "Struct.setOffset: offset " + offset
                    + " is before the end of the fields added so far (" + extent + ")");
        }
        extent = offset;
        return this;
    }

    public final int addByte() {
        return addByte(1);
    }

    public final int addByte(int length) {
        return add(MPI.BYTE, 1, length);
    }

    public final int addChar() {
        return addChar(1);
    }

    public final int addChar(int length) {
        return add(MPI.CHAR, 2, length);
    }

    public final int addShort() {
        return addShort(1);
    }

    public final int addShort(int length) {
        return add(MPI.SHORT, 2, length);
    }

    public final int addInt() {
        return addInt(1);
    }

    public final int addInt(int length) {
        return add(MPI.INT, 4, length);
    }

    public final int addLong() {
        return addLong(1);
    }

    public final int addLong(int length) {
        return add(MPI.LONG, 8, length);
    }

    public final int addFloat() {
        return addFloat(1);
    }

    public final int addFloat(int length) {
        return add(MPI.FLOAT, 4, length);
    }

    public final int addDouble() {
        return addDouble(1);
    }

    public final int addDouble(int length) {
        return add(MPI.DOUBLE, 8, length);
    }

    /** A nested struct field. */
    public final int addStruct(Struct struct) {
        return addStruct(struct, 1);
    }

    public final int addStruct(Struct struct, int length) {
        if (struct == null) throw MPIException.of(MPI.ERR_ARG, "Struct.addStruct: struct is null");
        return add(struct, struct.getExtent(), length);
    }

    /** A field of any datatype, {@code length} elements of its extent. */
    public final int addData(Datatype type) {
        return addData(type, 1);
    }

    public final int addData(Datatype type, int length) {
        if (type == null) throw MPIException.of(MPI.ERR_ARG, "Struct.addData: type is null");
        // Fields are laid out upward, one extent per element.
        io.github.mpi4j.buffer.Buffers.noNegativeExtent("Struct.addData", "struct fields", MPI.ERR_TYPE, type.desc);
        return add(type, (int) type.desc.extent, length);
    }

    /**
     * A view of one record: subclasses read and write its fields by the offsets their struct's
     * {@code add...} calls returned; {@code index} picks an element of an array field.
     */
    public abstract class Data {
        private ByteBuffer buffer;
        private int offset;

        /** The record's bytes, starting at the record. */
        public final ByteBuffer getBuffer() {
            return offset == 0 ? buffer : MPI.slice(buffer, offset);
        }

        protected final byte getByte(int field) {
            return buffer.get(offset + field);
        }

        protected final byte getByte(int field, int index) {
            return buffer.get(offset + field + index);
        }

        protected final void putByte(int field, byte v) {
            buffer.put(offset + field, v);
        }

        protected final void putByte(int field, int index, byte v) {
            buffer.put(offset + field + index, v);
        }

        protected final char getChar(int field) {
            return buffer.getChar(offset + field);
        }

        protected final char getChar(int field, int index) {
            return buffer.getChar(offset + field + 2 * index);
        }

        protected final void putChar(int field, char v) {
            buffer.putChar(offset + field, v);
        }

        protected final void putChar(int field, int index, char v) {
            buffer.putChar(offset + field + 2 * index, v);
        }

        protected final short getShort(int field) {
            return buffer.getShort(offset + field);
        }

        protected final short getShort(int field, int index) {
            return buffer.getShort(offset + field + 2 * index);
        }

        protected final void putShort(int field, short v) {
            buffer.putShort(offset + field, v);
        }

        protected final void putShort(int field, int index, short v) {
            buffer.putShort(offset + field + 2 * index, v);
        }

        protected final int getInt(int field) {
            return buffer.getInt(offset + field);
        }

        protected final int getInt(int field, int index) {
            return buffer.getInt(offset + field + 4 * index);
        }

        protected final void putInt(int field, int v) {
            buffer.putInt(offset + field, v);
        }

        protected final void putInt(int field, int index, int v) {
            buffer.putInt(offset + field + 4 * index, v);
        }

        protected final long getLong(int field) {
            return buffer.getLong(offset + field);
        }

        protected final long getLong(int field, int index) {
            return buffer.getLong(offset + field + 8 * index);
        }

        protected final void putLong(int field, long v) {
            buffer.putLong(offset + field, v);
        }

        protected final void putLong(int field, int index, long v) {
            buffer.putLong(offset + field + 8 * index, v);
        }

        protected final float getFloat(int field) {
            return buffer.getFloat(offset + field);
        }

        protected final float getFloat(int field, int index) {
            return buffer.getFloat(offset + field + 4 * index);
        }

        protected final void putFloat(int field, float v) {
            buffer.putFloat(offset + field, v);
        }

        protected final void putFloat(int field, int index, float v) {
            buffer.putFloat(offset + field + 4 * index, v);
        }

        protected final double getDouble(int field) {
            return buffer.getDouble(offset + field);
        }

        protected final double getDouble(int field, int index) {
            return buffer.getDouble(offset + field + 8 * index);
        }

        protected final void putDouble(int field, double v) {
            buffer.putDouble(offset + field, v);
        }

        protected final void putDouble(int field, int index, double v) {
            buffer.putDouble(offset + field + 8 * index, v);
        }

        /** The nested record at {@code field}. */
        protected final <S extends Struct, D extends Struct.Data> D getData(S struct, int field) {
            return ((Struct) struct).view(buffer, offset + field);
        }

        /** Element {@code index} of a nested record array at {@code field}. */
        protected final <S extends Struct, D extends Struct.Data> D getData(S struct, int field, int index) {
            return ((Struct) struct).view(buffer, offset + field + index * struct.getExtent());
        }

        /** The bytes of the field at {@code field} (of {@code type}). */
        protected final ByteBuffer getBuffer(Datatype type, int field) {
            int at = offset + field;
            return at == 0 ? buffer : MPI.slice(buffer, at);
        }

        /** The bytes of element {@code index} of the field at {@code field}. */
        protected final ByteBuffer getBuffer(Datatype type, int field, int index) {
            int at = offset + field + index * (int) type.desc.extent;
            return at == 0 ? buffer : MPI.slice(buffer, at);
        }
    }
}
