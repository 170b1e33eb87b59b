package mpi;

import io.github.mpi4j.runtime.Session;
import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Layout;
import io.github.mpi4j.spi.Lifecycle;
import io.github.mpi4j.spi.Predefined;
import io.github.mpi4j.spi.TypeDesc;
import io.github.mpi4j.spi.TypeMap;

/**
 * An MPI datatype. The predefined ones are constants of {@link MPI} ({@code MPI.INT},
 * {@code MPI.DOUBLE}, {@code MPI.INT2}, {@code MPI.OBJECT}, ...).
 *
 * <p>Sizes, extents and bounds are reported in units of the base type (the predefined type
 * a derived type was built from), as both the Open MPI bindings and mpiJava 1.2 define them:
 * {@code MPI.INT.getExtent()} is 1, a contiguous type of 4 ints has extent 4.
 */
public final class Datatype implements Freeable, Cloneable {
    /** This type's descriptor: its own (never shared with a type that is freed separately). */
    final TypeDesc desc;
    private String name;
    /** True for the constants of {@link MPI}, which cannot be freed; false for duplicates and derived types. */
    private boolean constant;

    Datatype(TypeDesc desc) {
        this.desc = desc;
        this.name = desc.name;
        this.committed = desc.isPredefined();
        if (desc.apiObject == null) desc.apiObject = this;
    }

    /** MPI.DATATYPE_NULL: a constant that every call rejects. */
    static Datatype nullType() {
        Datatype d = new Datatype(io.github.mpi4j.spi.Predefined.T_BYTE);
        d.name = "MPI.DATATYPE_NULL";
        d.constant = true;
        d.isNullConstant = true;
        return d;
    }

    private boolean isNullConstant;

    /** The descriptor backends work with: the type must be committed (derived types) and not freed. */
    TypeDesc desc(String call, String arg) {
        if (isNullConstant) throw MPIException.of(MPI.ERR_TYPE, call + ": " + arg + " is MPI.DATATYPE_NULL");
        if (desc.lifecycle.isFreed()) {
            throw MPIException.of(MPI.ERR_TYPE, call + ": " + arg + " " + describe() + " has been freed");
        }
        if (!committed) {
            throw MPIException.of(MPI.ERR_TYPE, call + ": " + arg + " " + describe()
                    + " is not committed; call commit() before using it in communication");
        }
        return desc;
    }

    /**
     * The descriptor of a predefined type of one primitive element per item (MPI.BYTE, MPI.INT,
     * MPI.DOUBLE, ...), for the shortcuts that move such items as plain bytes; null for any
     * other type (the caller then takes the checked path).
     */
    TypeDesc descIfPrimitive() {
        boolean plain = desc.layout == io.github.mpi4j.spi.Layout.PRIMITIVE && desc.isPredefined() && desc.size > 0;
        return plain && !isNullConstant ? desc : null;
    }

    // ---- Open MPI style ---------------------------------------------------------------

    /** Extent in units of the base type (MPI_Type_get_extent). */
    public int getExtent() {
        return units(live("getExtent").extent);
    }

    /** Lower bound in units of the base type. */
    public int getLb() {
        return units(live("getLb").lb);
    }

    /** Size of the data of one item, in units of the base type (MPI_Type_size). */
    public int getSize() {
        return units(live("getSize").size);
    }

    /** Extent of the data alone, without the bounds set by resizing or markers, in units of the base type. */
    public int getTrueExtent() {
        TypeDesc d = live("getTrueExtent");
        return units(d.isPredefined() ? d.extent : map().trueExtent);
    }

    /** Lower bound of the data alone, in units of the base type. */
    public int getTrueLb() {
        TypeDesc d = live("getTrueLb");
        return units(d.isPredefined() ? d.lb : map().trueLb);
    }

    /**
     * Commits the type: the running backend may make its handle for it now (MPI_Type_commit).
     * Predefined types are always committed; committing one again does nothing.
     */
    public void commit() {
        TypeDesc d = live("commit");
        committed = true;
        Session session = MPI.COMM_WORLD.session;
        // Types over MPI.OBJECT never reach a backend (mpi.ObjectTypes sends their objects).
        if (d.arrayKind == BaseKind.OBJECT) return;
        if (session.isInitialized() && !session.isFinalized()) session.backend().commitType(d);
    }

    /**
     * Frees the type: each backend that made a handle for it releases it (MPI_Type_free).
     * Operations already started with the type complete normally; later use, or a second free,
     * throws, and so does freeing one of MPI's predefined types.
     */
    @Override
    public void free() {
        if (constant) {
            throw MPIException.of(MPI.ERR_TYPE, "Datatype.free: predefined datatype " + describe()
                    + " cannot be freed");
        }
        Lifecycle.Held[] held = desc.lifecycle.free();
        if (held == null) {
            throw MPIException.of(MPI.ERR_TYPE, "Datatype.free: datatype " + describe() + " has been freed already");
        }
        for (Lifecycle.Held h : held) h.backend.freeType(desc, h.handle);
    }

    public boolean isNull() {
        return isNullConstant || desc.lifecycle.isFreed();
    }

    /** A copy with a life of its own (MPI_Type_dup): freeing one leaves the other usable. */
    public Datatype dup() {
        TypeDesc d = live("dup");
        Datatype copy = new Datatype(d.duplicate());
        copy.name = name;
        copy.committed = committed;
        return copy;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    /** Marks one of MPI's predefined constants. */
    Datatype asConstant() {
        constant = true;
        return this;
    }

    @Override
    public Datatype clone() {
        return dup();
    }

    /** Bytes of one unit of the base type: what sizes and extents are counted in. */
    /**
     * Bytes of the unit the queries answer in. Predefined types count in items, except where the
     * Open MPI bindings give composite types a base type: the {value, int} structs and INT2 count in
     * bytes (their base is MPI.BYTE; programs size ByteBuffers with {@code MPI.SHORT_INT.getExtent()}),
     * the complex types in floats or doubles. Derived types count in their array's elements.
     */
    int baseBytes() {
        if (!desc.isPredefined()) return Math.max(1, desc.arrayKind.bytes);
        if (desc.layout == io.github.mpi4j.spi.Layout.VALUE_INT
                || desc.predefinedId == io.github.mpi4j.spi.Predefined.INT2) {
            return 1;
        }
        if (desc.layout == io.github.mpi4j.spi.Layout.COMPLEX || desc.layout == io.github.mpi4j.spi.Layout.PAIR) {
            return desc.arrayKind.bytes;
        }
        return (int) Math.max(1, desc.size);
    }

    // ---- derived datatypes (issue 10) ----------------------------------------------------------
    // Built in Java as a compiled type map (spi.TypeMap, bytes throughout); each backend makes
    // what it needs from it (an MPI datatype, or packing on the fabric). Arguments follow the
    // API family: the Open MPI names take byte displacements in their H forms and createStruct,
    // the mpiJava names take displacements in elements of the base type (the array's index).

    /** Whether {@link #commit()} was called (predefined types are committed). */
    private volatile boolean committed;

    /** The descriptor for a query: null constant and freed types refused, uncommitted ones fine. */
    private TypeDesc live(String call) {
        if (isNullConstant) {
            throw MPIException.of(MPI.ERR_TYPE, "Datatype." + call + ": the datatype is MPI.DATATYPE_NULL");
        }
        if (desc.lifecycle.isFreed()) {
            throw MPIException.of(MPI.ERR_TYPE, "Datatype." + call + ": datatype " + describe() + " has been freed");
        }
        return desc;
    }

    /** The name for messages: the user's, else a description of how the type was built. */
    String describe() {
        return name == null || name.isEmpty() ? desc.name : name;
    }

    private TypeMap map() {
        return TypeMap.of(desc);
    }

    /** Bytes of one element of the type's array kind: what mpiJava's element displacements count. */
    private static long unitBytes(TypeDesc t) {
        return t.arrayKind == BaseKind.OBJECT ? 1 : Math.max(1, t.arrayKind.bytes);
    }

    private static TypeDesc oldType(String call, String arg, Datatype t) {
        if (t == null) throw MPIException.of(MPI.ERR_TYPE, call + ": " + arg + " is null");
        if (t.isNullConstant) throw MPIException.of(MPI.ERR_TYPE, call + ": " + arg + " is MPI.DATATYPE_NULL");
        if (t.desc.lifecycle.isFreed()) {
            throw MPIException.of(MPI.ERR_TYPE, call + ": " + arg + " " + t.describe() + " has been freed");
        }
        return t.desc;
    }

    private static void nonNegative(String call, String arg, long value) {
        if (value < 0) throw MPIException.of(MPI.ERR_ARG, call + ": " + arg + " must be >= 0, got " + value);
    }

    private static void nonNegative(String call, String arg, int[] values) {
        if (values == null) throw MPIException.of(MPI.ERR_ARG, call + ": " + arg + " is null");
        for (int i = 0; i < values.length; i++) {
            if (values[i] < 0) {
                throw MPIException.of(MPI.ERR_ARG, call + ": " + arg + "[" + i + "] must be >= 0, got " + values[i]);
            }
        }
    }

    private static void notNull(String call, String arg, int[] values) {
        if (values == null) throw MPIException.of(MPI.ERR_ARG, call + ": " + arg + " is null");
    }

    private static void sameLength(String call, String a, int na, String b, int nb) {
        if (na != nb) {
            throw MPIException.of(MPI.ERR_ARG, call + ": " + a + " has " + na + " entries but " + b + " has " + nb);
        }
    }

    /** Refuses a type map too large to compile (each block costs memory in every backend). */
    private static void blockLimit(String call, long copies, TypeDesc old) {
        long blocks = copies * Math.max(1, TypeMap.of(old).blocks());
        if (blocks > MAX_BLOCKS) {
            throw MPIException.of(MPI.ERR_ARG, call + ": the type would have " + blocks + " blocks, more than "
                    + MAX_BLOCKS);
        }
    }

    private static final long MAX_BLOCKS = 1L << 26;

    /** A new derived type over {@code map}; {@code arrayKind} null means: the leaves' common kind. */
    private static Datatype derived(String what, TypeMap map, BaseKind arrayKind, TypeDesc old) {
        BaseKind kind = arrayKind;
        if (kind == null) {
            kind = map.blocks() == 0 ? old.arrayKind : map.leaf(0).arrayKind;
            for (int i = 1; i < map.blocks(); i++) {
                if (map.leaf(i).arrayKind != kind) kind = BaseKind.BYTE;
            }
        }
        if (objectLeavesOnly(what, map)) kind = BaseKind.OBJECT; // derived types over MPI.OBJECT (issue 10)
        BaseKind value = map.uniformLeaf != null ? map.uniformLeaf.valueKind : BaseKind.BYTE;
        long unit = kind == BaseKind.OBJECT ? 1 : kind.bytes;
        TypeDesc d = new TypeDesc(what, kind, value, Layout.DERIVED, map.size, map.extent, map.lb,
                (int) Math.min(Integer.MAX_VALUE, map.extent / unit), -1, map);
        Datatype t = new Datatype(d);
        t.name = "";
        return t;
    }

    private static Datatype contiguousImpl(String call, int count, Datatype oldType) {
        TypeDesc old = oldType(call, "oldType", oldType);
        nonNegative(call, "count", count);
        blockLimit(call, count, old);
        TypeMap m = new TypeMap.Builder().place(old, 0, count).build(false);
        return derived("contiguous(" + count + ", " + oldType.describe() + ")", m, null, old);
    }

    /** Blocks of {@code blockLength} items, {@code strideBytes} apart. */
    private static Datatype vectorImpl(String call, String what, int count, int blockLength, long strideBytes,
                                       long stride, Datatype oldType) {
        TypeDesc old = oldType(call, "oldType", oldType);
        nonNegative(call, "count", count);
        nonNegative(call, "blockLength", blockLength);
        // A negative stride is MPI's: the blocks go downwards from the item's start (issue 10).
        blockLimit(call, (long) count * blockLength, old);
        TypeMap.Builder b = new TypeMap.Builder();
        for (int i = 0; i < count; i++) b.place(old, i * strideBytes, blockLength);
        return derived(what + "(" + count + ", " + blockLength + ", " + stride + ", " + oldType.describe() + ")",
                b.build(false), null, old);
    }

    /** Blocks of {@code blockLengths[i]} items at {@code displacements[i] * unit} bytes. */
    private static Datatype indexedImpl(String call, String what, int[] blockLengths, int[] displacements, long unit,
                                        Datatype oldType) {
        TypeDesc old = oldType(call, "oldType", oldType);
        nonNegative(call, "blockLengths", blockLengths);
        notNull(call, "displacements", displacements); // negative displacements are MPI's (issue 10)
        sameLength(call, "blockLengths", blockLengths.length, "displacements", displacements.length);
        long copies = 0;
        for (int l : blockLengths) copies += l;
        blockLimit(call, copies, old);
        TypeMap.Builder b = new TypeMap.Builder();
        for (int i = 0; i < blockLengths.length; i++) b.place(old, displacements[i] * unit, blockLengths[i]);
        return derived(what + "(" + blockLengths.length + " blocks, " + oldType.describe() + ")", b.build(false),
                null, old);
    }

    private static Datatype indexedBlockImpl(String call, String what, int blockLength, int[] displacements,
                                             long unit, Datatype oldType) {
        if (displacements == null) throw MPIException.of(MPI.ERR_ARG, call + ": displacements is null");
        nonNegative(call, "blockLength", blockLength);
        int[] lengths = new int[displacements.length];
        java.util.Arrays.fill(lengths, blockLength);
        return indexedImpl(call, what, lengths, displacements, unit, oldType);
    }

    /**
     * Blocks of {@code types[i]} at {@code displacements[i] * unit} bytes; {@code kind} the array
     * kind of the result (null: the common kind of the leaves).
     */
    private static Datatype structImpl(String call, int[] blockLengths, int[] displacements, Datatype[] types,
                                       long unit, BaseKind kind) {
        nonNegative(call, "blockLengths", blockLengths);
        notNull(call, "displacements", displacements); // negative displacements are MPI's (issue 10)
        if (types == null) throw MPIException.of(MPI.ERR_ARG, call + ": types is null");
        sameLength(call, "blockLengths", blockLengths.length, "displacements", displacements.length);
        sameLength(call, "blockLengths", blockLengths.length, "types", types.length);
        TypeDesc[] olds = new TypeDesc[types.length];
        long copies = 0;
        for (int i = 0; i < types.length; i++) {
            olds[i] = oldType(call, "types[" + i + "]", types[i]);
            copies += (long) blockLengths[i] * Math.max(1, TypeMap.of(olds[i]).blocks());
        }
        if (copies > MAX_BLOCKS) {
            throw MPIException.of(MPI.ERR_ARG, call + ": the type would have " + copies + " blocks, more than "
                    + MAX_BLOCKS);
        }
        TypeMap.Builder b = new TypeMap.Builder();
        BaseKind common = null;
        for (int i = 0; i < types.length; i++) {
            b.place(olds[i], displacements[i] * unit, blockLengths[i]);
            boolean marker = olds[i].predefinedId == Predefined.LB || olds[i].predefinedId == Predefined.UB;
            if (kind == null && !marker) {
                if (common != null && common != olds[i].arrayKind) {
                    // mpiJava's Struct: displacements count elements of one base type, so all must share it.
                    throw MPIException.of(MPI.ERR_TYPE, call + ": types[" + i + "] " + types[i].describe()
                            + " has base type " + olds[i].arrayKind + " but an earlier type has " + common
                            + " (Datatype.Struct needs one base type; use createStruct with byte displacements)");
                }
                common = olds[i].arrayKind;
            }
        }
        BaseKind k = kind != null ? kind : common != null ? common : BaseKind.BYTE;
        return derived("struct(" + types.length + " blocks)", b.build(true), k, olds.length > 0 ? olds[0]
                : Predefined.T_BYTE);
    }

    /** Open MPI: {@code count} copies of {@code oldType}, one after the other (MPI_Type_contiguous). */
    public static Datatype createContiguous(int count, Datatype oldType) {
        return contiguousImpl("Datatype.createContiguous", count, oldType);
    }

    /** Open MPI: {@code count} blocks of {@code blockLength} items, {@code stride} items of {@code oldType} apart. */
    public static Datatype createVector(int count, int blockLength, int stride, Datatype oldType) {
        long ext = oldType("Datatype.createVector", "oldType", oldType).extent;
        return vectorImpl("Datatype.createVector", "vector", count, blockLength, stride * ext, stride, oldType);
    }

    /** Open MPI: as {@link #createVector} with {@code stride} in bytes (MPI_Type_create_hvector). */
    public static Datatype createHVector(int count, int blockLength, int stride, Datatype oldType) {
        return vectorImpl("Datatype.createHVector", "hvector", count, blockLength, stride, stride, oldType);
    }

    /** Open MPI: blocks of {@code blockLengths[i]} items at {@code displacements[i]} extents of {@code oldType}. */
    public static Datatype createIndexed(int[] blockLengths, int[] displacements, Datatype oldType) {
        long ext = oldType("Datatype.createIndexed", "oldType", oldType).extent;
        return indexedImpl("Datatype.createIndexed", "indexed", blockLengths, displacements, ext, oldType);
    }

    /** Open MPI: as {@link #createIndexed} with displacements in bytes (MPI_Type_create_hindexed). */
    public static Datatype createHIndexed(int[] blockLengths, int[] displacements, Datatype oldType) {
        return indexedImpl("Datatype.createHIndexed", "hindexed", blockLengths, displacements, 1, oldType);
    }

    /**
     * Blocks of {@code blockLength} items at {@code displacements[i]} extents of {@code oldType}
     * (MPI_Type_create_indexed_block).
     */
    public static Datatype createIndexedBlock(int blockLength, int[] displacements, Datatype oldType) {
        long ext = oldType("Datatype.createIndexedBlock", "oldType", oldType).extent;
        return indexedBlockImpl("Datatype.createIndexedBlock", "indexed_block", blockLength, displacements, ext,
                oldType);
    }

    /** As {@link #createIndexedBlock} with displacements in bytes (MPI_Type_create_hindexed_block). */
    public static Datatype createHIndexedBlock(int blockLength, int[] displacements, Datatype oldType) {
        return indexedBlockImpl("Datatype.createHIndexedBlock", "hindexed_block", blockLength, displacements, 1,
                oldType);
    }

    /**
     * Open MPI: blocks of {@code blockLengths[i]} items of {@code types[i]} at byte
     * {@code displacements[i]} (MPI_Type_create_struct). Its base type is MPI.BYTE: sizes and
     * extents count bytes, and it describes a {@code byte[]} or a direct buffer.
     */
    public static Datatype createStruct(int[] blockLengths, int[] displacements, Datatype[] types) {
        return structImpl("Datatype.createStruct", blockLengths, displacements, types, 1, BaseKind.BYTE);
    }

    /**
     * Open MPI: {@code oldType} with lower bound {@code lb} and extent {@code extent} in bytes
     * (MPI_Type_create_resized).
     */
    public static Datatype createResized(Datatype oldType, int lb, int extent) {
        String call = "Datatype.createResized";
        TypeDesc old = oldType(call, "oldType", oldType);
        // A negative extent is MPI's: item k starts k * extent bytes (downward) from the message's start.
        TypeMap m = new TypeMap.Builder().place(old, 0, 1).build(lb, extent);
        return derived("resized(" + oldType.describe() + ", " + lb + ", " + extent + ")", m, old.arrayKind, old);
    }

    /**
     * The block {@code subsizes} starting at {@code starts} of an array of {@code sizes} items
     * of {@code oldType}, in row-major ({@code MPI.ORDER_C}) or column-major
     * ({@code MPI.ORDER_FORTRAN}) order (MPI_Type_create_subarray). Its extent is the whole array.
     */
    public static Datatype createSubarray(int[] sizes, int[] subsizes, int[] starts, int order, Datatype oldType) {
        String call = "Datatype.createSubarray";
        TypeDesc old = oldType(call, "oldType", oldType);
        nonNegative(call, "sizes", sizes);
        nonNegative(call, "subsizes", subsizes);
        nonNegative(call, "starts", starts);
        sameLength(call, "sizes", sizes.length, "subsizes", subsizes.length);
        sameLength(call, "sizes", sizes.length, "starts", starts.length);
        if (sizes.length == 0) throw MPIException.of(MPI.ERR_ARG, call + ": sizes has no dimensions");
        if (order != MPI.ORDER_C && order != MPI.ORDER_FORTRAN) {
            throw MPIException.of(MPI.ERR_ARG, call + ": order must be MPI.ORDER_C or MPI.ORDER_FORTRAN, got " + order);
        }
        int nd = sizes.length;
        long total = 1, subTotal = 1;
        for (int i = 0; i < nd; i++) {
            if (sizes[i] < 1) {
                throw MPIException.of(MPI.ERR_ARG, call + ": sizes[" + i + "] must be >= 1, got " + sizes[i]);
            }
            if ((long) starts[i] + subsizes[i] > sizes[i]) {
                throw MPIException.of(MPI.ERR_ARG, call + ": starts[" + i + "] + subsizes[" + i + "] = "
                        + ((long) starts[i] + subsizes[i]) + " exceeds sizes[" + i + "] = " + sizes[i]);
            }
            total *= sizes[i];
            subTotal *= subsizes[i];
        }
        // Dimensions from the slowest to the fastest varying.
        int[] dim = new int[nd];
        for (int i = 0; i < nd; i++) dim[i] = order == MPI.ORDER_C ? i : nd - 1 - i;
        int fast = dim[nd - 1];
        blockLimit(call, subTotal / Math.max(1, subsizes[fast]), old);
        long[] strideItems = new long[nd];
        long s = 1;
        for (int k = nd - 1; k >= 0; k--) {
            strideItems[dim[k]] = s;
            s *= sizes[dim[k]];
        }
        TypeMap.Builder b = new TypeMap.Builder();
        if (subTotal > 0) {
            int[] idx = new int[nd];
            while (true) {
                long item = 0;
                for (int i = 0; i < nd; i++) item += (long) (starts[i] + idx[i]) * strideItems[i];
                b.place(old, item * old.extent, subsizes[fast]);
                int k = nd - 2;
                while (k >= 0) {
                    int d = dim[k];
                    if (++idx[d] < subsizes[d]) break;
                    idx[d] = 0;
                    k--;
                }
                if (k < 0) break;
            }
        }
        TypeMap m = b.build(0, total * old.extent);
        return derived("subarray(" + nd + " dims, " + oldType.describe() + ")", m, old.arrayKind, old);
    }

    /**
     * The part of a global array of {@code gsizes} items of {@code oldType} that process
     * {@code rank} of a {@code psizes} process grid (row-major ranks) owns under the
     * distributions {@code distribs} ({@code MPI.DISTRIBUTE_BLOCK}, {@code _CYCLIC},
     * {@code _NONE}) with arguments {@code dargs} ({@code MPI.DISTRIBUTE_DFLT_DARG} for the
     * default), in {@code order} (MPI_Type_create_darray). Its extent is the whole array.
     */
    public static Datatype createDarray(int size, int rank, int[] gsizes, int[] distribs, int[] dargs,
                                        int[] psizes, int order, Datatype oldType) {
        String call = "Datatype.createDarray";
        TypeDesc old = oldType(call, "oldType", oldType);
        if (gsizes == null || distribs == null || dargs == null || psizes == null) {
            throw MPIException.of(MPI.ERR_ARG, call + ": gsizes, distribs, dargs and psizes must not be null");
        }
        int nd = gsizes.length;
        sameLength(call, "gsizes", nd, "distribs", distribs.length);
        sameLength(call, "gsizes", nd, "dargs", dargs.length);
        sameLength(call, "gsizes", nd, "psizes", psizes.length);
        if (nd == 0) throw MPIException.of(MPI.ERR_ARG, call + ": gsizes has no dimensions");
        if (order != MPI.ORDER_C && order != MPI.ORDER_FORTRAN) {
            throw MPIException.of(MPI.ERR_ARG, call + ": order must be MPI.ORDER_C or MPI.ORDER_FORTRAN, got " + order);
        }
        long procs = 1, total = 1;
        for (int i = 0; i < nd; i++) {
            if (gsizes[i] < 1 || psizes[i] < 1) {
                throw MPIException.of(MPI.ERR_ARG, call + ": gsizes[" + i + "] and psizes[" + i + "] must be >= 1, got "
                        + gsizes[i] + " and " + psizes[i]);
            }
            procs *= psizes[i];
            total *= gsizes[i];
        }
        if (procs != size) {
            throw MPIException.of(MPI.ERR_ARG, call + ": the process grid has " + procs + " processes but size is "
                    + size);
        }
        if (rank < 0 || rank >= size) {
            throw MPIException.of(MPI.ERR_RANK, call + ": rank " + rank + " is not in [0, " + size + ")");
        }
        // This process's coordinate in each dimension (ranks are row-major over psizes).
        int[] coord = new int[nd];
        for (int i = nd - 1, r = rank; i >= 0; i--) {
            coord[i] = r % psizes[i];
            r /= psizes[i];
        }
        // The global indices owned in each dimension, ascending.
        int[][] owned = new int[nd][];
        for (int i = 0; i < nd; i++) {
            owned[i] = ownedIndices(call, i, gsizes[i], distribs[i], dargs[i], psizes[i], coord[i]);
        }
        int[] dim = new int[nd];
        for (int i = 0; i < nd; i++) dim[i] = order == MPI.ORDER_C ? i : nd - 1 - i;
        long[] strideItems = new long[nd];
        long s = 1;
        for (int k = nd - 1; k >= 0; k--) {
            strideItems[dim[k]] = s;
            s *= gsizes[dim[k]];
        }
        int fast = dim[nd - 1];
        long runs = 1;
        for (int i = 0; i < nd; i++) runs *= i == fast ? Math.max(1, owned[i].length) : owned[i].length;
        blockLimit(call, runs, old);
        TypeMap.Builder b = new TypeMap.Builder();
        boolean empty = false;
        for (int[] o : owned) empty |= o.length == 0;
        if (!empty) {
            int[] at = new int[nd];
            int[] f = owned[fast];
            while (true) {
                long base = 0;
                for (int k = 0; k < nd - 1; k++) base += (long) owned[dim[k]][at[dim[k]]] * strideItems[dim[k]];
                // Runs of consecutive indices in the fastest dimension become one block each.
                for (int j = 0; j < f.length; ) {
                    int e = j + 1;
                    while (e < f.length && f[e] == f[e - 1] + 1) e++;
                    b.place(old, (base + f[j]) * old.extent, e - j);
                    j = e;
                }
                int k = nd - 2;
                while (k >= 0) {
                    int d = dim[k];
                    if (++at[d] < owned[d].length) break;
                    at[d] = 0;
                    k--;
                }
                if (k < 0) break;
            }
        }
        TypeMap m = b.build(0, total * old.extent);
        return derived("darray(" + nd + " dims, rank " + rank + ", " + oldType.describe() + ")", m, old.arrayKind,
                old);
    }

    private static int[] ownedIndices(String call, int i, int gsize, int distrib, int darg, int psize, int c) {
        int b;
        switch (distrib) {
            case MPI.DISTRIBUTE_NONE:
                if (psize != 1) {
                    throw MPIException.of(MPI.ERR_ARG, call + ": psizes[" + i
                            + "] must be 1 for MPI.DISTRIBUTE_NONE, got " + psize);
                }
                b = gsize;
                break;
            case MPI.DISTRIBUTE_BLOCK:
                b = darg == MPI.DISTRIBUTE_DFLT_DARG ? (gsize + psize - 1) / psize : darg;
                if (b < 1 || (long) b * psize < gsize) {
                    throw MPIException.of(MPI.ERR_ARG, call + ": dargs[" + i + "] = " + darg + " blocks of "
                            + psize + " processes cannot cover gsizes[" + i + "] = " + gsize);
                }
                break;
            case MPI.DISTRIBUTE_CYCLIC:
                b = darg == MPI.DISTRIBUTE_DFLT_DARG ? 1 : darg;
                if (b < 1) throw MPIException.of(MPI.ERR_ARG, call + ": dargs[" + i + "] must be >= 1, got " + darg);
                break;
            default:
                throw MPIException.of(MPI.ERR_ARG, call + ": distribs[" + i + "] must be MPI.DISTRIBUTE_BLOCK, "
                        + "_CYCLIC or _NONE, got " + distrib);
        }
        int[] idx = new int[gsize];
        int n = 0;
        for (long start = (long) c * b; start < gsize; start += (long) b * psize) {
            for (long j = start; j < Math.min(gsize, start + b); j++) idx[n++] = (int) j;
            if (distrib != MPI.DISTRIBUTE_CYCLIC) break;
        }
        return java.util.Arrays.copyOf(idx, n);
    }

    /** mpiJava 1.2: {@code count} copies of {@code oldtype}, one after the other. */
    public static Datatype Contiguous(int count, Datatype oldtype) {
        return contiguousImpl("Datatype.Contiguous", count, oldtype);
    }

    /** mpiJava 1.2: {@code count} blocks of {@code blocklength} items, {@code stride} items apart. */
    public static Datatype Vector(int count, int blocklength, int stride, Datatype oldtype) {
        long ext = oldType("Datatype.Vector", "oldtype", oldtype).extent;
        return vectorImpl("Datatype.Vector", "vector", count, blocklength, stride * ext, stride, oldtype);
    }

    /** mpiJava 1.2: as {@link #Vector} with {@code stride} in elements of the base type (the array index). */
    public static Datatype Hvector(int count, int blocklength, int stride, Datatype oldtype) {
        long unit = unitBytes(oldType("Datatype.Hvector", "oldtype", oldtype));
        return vectorImpl("Datatype.Hvector", "hvector", count, blocklength, stride * unit, stride, oldtype);
    }

    /** mpiJava 1.2: blocks of {@code blocklengths[i]} items at {@code displacements[i]} extents of {@code oldtype}. */
    public static Datatype Indexed(int[] blocklengths, int[] displacements, Datatype oldtype) {
        long ext = oldType("Datatype.Indexed", "oldtype", oldtype).extent;
        return indexedImpl("Datatype.Indexed", "indexed", blocklengths, displacements, ext, oldtype);
    }

    /** mpiJava 1.2: as {@link #Indexed} with displacements in elements of the base type. */
    public static Datatype Hindexed(int[] blocklengths, int[] displacements, Datatype oldtype) {
        long unit = unitBytes(oldType("Datatype.Hindexed", "oldtype", oldtype));
        return indexedImpl("Datatype.Hindexed", "hindexed", blocklengths, displacements, unit, oldtype);
    }

    /**
     * mpiJava 1.2: blocks of {@code blocklengths[i]} items of {@code types[i]} at
     * {@code displacements[i]} elements of the base type, which all types share; {@code MPI.LB}
     * and {@code MPI.UB} entries set the bounds.
     */
    public static Datatype Struct(int[] blocklengths, int[] displacements, Datatype[] types) {
        String call = "Datatype.Struct";
        long unit = 1;
        if (types != null) {
            for (int i = 0; i < types.length; i++) {
                TypeDesc t = oldType(call, "types[" + i + "]", types[i]);
                if (t.predefinedId != Predefined.LB && t.predefinedId != Predefined.UB) {
                    unit = unitBytes(t);
                    break;
                }
            }
        }
        return structImpl(call, blocklengths, displacements, types, unit, null);
    }

    // ---- mpiJava 1.2 style --------------------------------------------------------------

    /** Extent in units of the base type. */
    public int Extent() {
        return getExtent();
    }

    /** Lower bound in units of the base type. */
    public int Lb() {
        return getLb();
    }

    /** Upper bound in units of the base type. */
    public int Ub() {
        TypeDesc d = live("Ub");
        return units(d.lb + d.extent);
    }

    /** Size in units of the base type. */
    public int Size() {
        return getSize();
    }

    public void Commit() {
        commit();
    }

    /** MPJ Express: bytes of one element of the type's base type (4 for {@code MPI.INT} and types built on it). */
    public int getByteSize() {
        TypeDesc d = live("getByteSize");
        return Math.max(1, d.arrayKind.bytes);
    }

    public void Free() {
        free();
    }

    private int units(long bytes) {
        return (int) (bytes / baseBytes());
    }

    @Override
    public String toString() {
        return describe();
    }

    // ---- attributes (MPI_Type_create_keyval, MPI_Type_set_attr, ...) ---------------------------

    private static final java.util.concurrent.atomic.AtomicInteger NEXT_KEYVAL =
            new java.util.concurrent.atomic.AtomicInteger(1);
    private static final java.util.Set<Integer> KEYVALS = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** User attributes; kept in Java and not copied by {@link #dup} (as MPI_TYPE_NULL_COPY_FN). */
    private java.util.Map<Integer, Object> attrs;

    /** A new attribute key for {@link #setAttr} (MPI_Type_create_keyval). */
    public static int createKeyval() {
        int k = NEXT_KEYVAL.getAndIncrement();
        KEYVALS.add(k);
        return k;
    }

    /** Frees a key made by {@link #createKeyval} (MPI_Type_free_keyval). */
    public static void freeKeyval(int keyval) {
        if (!KEYVALS.remove(keyval)) {
            throw MPIException.of(MPI.ERR_KEYVAL, "Datatype.freeKeyval: " + keyval
                    + " is not a keyval from Datatype.createKeyval (or was freed)");
        }
    }

    private static void checkKeyval(String call, int keyval) {
        if (!KEYVALS.contains(keyval)) {
            throw MPIException.of(MPI.ERR_KEYVAL, "Datatype." + call + ": keyval " + keyval
                    + " was not made by Datatype.createKeyval (or was freed)");
        }
    }

    /** Attaches {@code value} to this datatype under {@code keyval} (MPI_Type_set_attr). */
    public void setAttr(int keyval, Object value) {
        live("setAttr");
        checkKeyval("setAttr", keyval);
        synchronized (this) {
            if (attrs == null) attrs = new java.util.HashMap<>();
            attrs.put(keyval, value);
        }
    }

    /** The value set under {@code keyval}, or null (MPI_Type_get_attr). */
    public Object getAttr(int keyval) {
        live("getAttr");
        checkKeyval("getAttr", keyval);
        synchronized (this) {
            return attrs == null ? null : attrs.get(keyval);
        }
    }

    /** Removes the value set under {@code keyval} (MPI_Type_delete_attr). */
    public void deleteAttr(int keyval) {
        live("deleteAttr");
        checkKeyval("deleteAttr", keyval);
        synchronized (this) {
            if (attrs != null) attrs.remove(keyval);
        }
    }

    // ---- derived types over MPI.OBJECT (issue 10) ----

    /**
     * Whether every leaf is MPI.OBJECT (then the type takes Object[] buffers, createStruct's too);
     * refuses a map mixing them with others: objects travel serialized, data as bytes.
     */
    private static boolean objectLeavesOnly(String what, TypeMap map) {
        int objects = 0;
        for (int i = 0; i < map.blocks(); i++) if (map.leaf(i).arrayKind == BaseKind.OBJECT) objects++;
        if (objects > 0 && objects < map.blocks()) {
            throw MPIException.of(MPI.ERR_TYPE, what + ": mixes MPI.OBJECT with other types; a derived type over "
                    + "MPI.OBJECT must have MPI.OBJECT leaves only (MPI.LB / MPI.UB markers are fine)");
        }
        return objects > 0;
    }
}
