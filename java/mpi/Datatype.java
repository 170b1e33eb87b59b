package mpi;

import io.github.mpi4j.runtime.Session;
import io.github.mpi4j.spi.Lifecycle;
import io.github.mpi4j.spi.TypeDesc;

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

    /** The descriptor backends work with. */
    TypeDesc desc(String call, String arg) {
        if (isNullConstant) throw MPIException.of(MPI.ERR_TYPE, call + ": " + arg + " is MPI.DATATYPE_NULL");
        if (desc.lifecycle.isFreed()) {
            throw MPIException.of(MPI.ERR_TYPE, call + ": " + arg + " " + name + " has been freed");
        }
        return desc;
    }

    // ---- Open MPI style ---------------------------------------------------------------

    /** Extent in units of the base type (MPI_Type_get_extent). */
    public int getExtent() {
        return units(desc("getExtent", "datatype").extent);
    }

    /** Lower bound in units of the base type. */
    public int getLb() {
        return units(desc("getLb", "datatype").lb);
    }

    /** Size of the data of one item, in units of the base type (MPI_Type_size). */
    public int getSize() {
        return units(desc("getSize", "datatype").size);
    }

    public int getTrueExtent() {
        return units(desc("getTrueExtent", "datatype").extent);
    }

    public int getTrueLb() {
        return units(desc("getTrueLb", "datatype").lb);
    }

    /**
     * Commits the type: the running backend may make its handle for it now (MPI_Type_commit).
     * Predefined types are always committed; committing one again does nothing.
     */
    public void commit() {
        TypeDesc d = desc("commit", "datatype");
        Session session = MPI.COMM_WORLD.session;
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
            throw MPIException.of(MPI.ERR_TYPE, "Datatype.free: predefined datatype " + name + " cannot be freed");
        }
        Lifecycle.Held[] held = desc.lifecycle.free();
        if (held == null) {
            throw MPIException.of(MPI.ERR_TYPE, "Datatype.free: datatype " + name + " has been freed already");
        }
        for (Lifecycle.Held h : held) h.backend.freeType(desc, h.handle);
    }

    public boolean isNull() {
        return isNullConstant || desc.lifecycle.isFreed();
    }

    /** A copy with a life of its own (MPI_Type_dup): freeing one leaves the other usable. */
    public Datatype dup() {
        TypeDesc d = desc("dup", "datatype");
        Datatype copy = new Datatype(d.duplicate());
        copy.name = name;
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
    int baseBytes() {
        return desc.isPredefined() ? (int) Math.max(1, desc.size) : Math.max(1, desc.arrayKind.bytes);
    }

    // ---- derived datatypes: not supported yet ---------------------------------------------

    private static MPIException derivedUnsupported(String call) {
        return MPIException.of(MPI.ERR_UNSUPPORTED_OPERATION, call + ": derived datatypes are not supported yet by "
                + "mpi4j; send the elements of a predefined type (pack strided data into a contiguous array first)");
    }

    /** Not supported yet: throws an MPIException. */
    public static Datatype createContiguous(int count, Datatype oldType) {
        throw derivedUnsupported("Datatype.createContiguous");
    }

    /** Not supported yet: throws an MPIException. */
    public static Datatype createVector(int count, int blockLength, int stride, Datatype oldType) {
        throw derivedUnsupported("Datatype.createVector");
    }

    /** Not supported yet: throws an MPIException. */
    public static Datatype createHVector(int count, int blockLength, int stride, Datatype oldType) {
        throw derivedUnsupported("Datatype.createHVector");
    }

    /** Not supported yet: throws an MPIException. */
    public static Datatype createIndexed(int[] blockLengths, int[] displacements, Datatype oldType) {
        throw derivedUnsupported("Datatype.createIndexed");
    }

    /** Not supported yet: throws an MPIException. */
    public static Datatype createHIndexed(int[] blockLengths, int[] displacements, Datatype oldType) {
        throw derivedUnsupported("Datatype.createHIndexed");
    }

    /** Not supported yet: throws an MPIException. */
    public static Datatype createStruct(int[] blockLengths, int[] displacements, Datatype[] types) {
        throw derivedUnsupported("Datatype.createStruct");
    }

    /** Not supported yet: throws an MPIException. */
    public static Datatype createResized(Datatype oldType, int lb, int extent) {
        throw derivedUnsupported("Datatype.createResized");
    }

    /** mpiJava 1.2 name; not supported yet: throws an MPIException. */
    public static Datatype Contiguous(int count, Datatype oldtype) {
        throw derivedUnsupported("Datatype.Contiguous");
    }

    /** mpiJava 1.2 name; not supported yet: throws an MPIException. */
    public static Datatype Vector(int count, int blocklength, int stride, Datatype oldtype) {
        throw derivedUnsupported("Datatype.Vector");
    }

    /** mpiJava 1.2 name; not supported yet: throws an MPIException. */
    public static Datatype Hvector(int count, int blocklength, int stride, Datatype oldtype) {
        throw derivedUnsupported("Datatype.Hvector");
    }

    /** mpiJava 1.2 name; not supported yet: throws an MPIException. */
    public static Datatype Indexed(int[] blocklengths, int[] displacements, Datatype oldtype) {
        throw derivedUnsupported("Datatype.Indexed");
    }

    /** mpiJava 1.2 name; not supported yet: throws an MPIException. */
    public static Datatype Hindexed(int[] blocklengths, int[] displacements, Datatype oldtype) {
        throw derivedUnsupported("Datatype.Hindexed");
    }

    /** mpiJava 1.2 name; not supported yet: throws an MPIException. */
    public static Datatype Struct(int[] blocklengths, int[] displacements, Datatype[] types) {
        throw derivedUnsupported("Datatype.Struct");
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
        return units(desc.lb + desc.extent);
    }

    /** Size in units of the base type. */
    public int Size() {
        return getSize();
    }

    public void Commit() {
        commit();
    }

    public void Free() {
        free();
    }

    private int units(long bytes) {
        return (int) (bytes / baseBytes());
    }

    @Override
    public String toString() {
        return name;
    }
}
