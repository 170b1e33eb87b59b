package io.github.mpi4j.nccl;

/**
 * The ranks of a communicator arranged as an n-dimensional mesh with named dimensions, as
 * torch's {@code DeviceMesh}: rank r sits at the row-major coordinate of r in {@code shape} (the
 * last dimension varies fastest), and the group of dimension d is the ranks that differ from r
 * only in coordinate d. Each dimension's sub-communicator ({@link #comm(String)}, an
 * {@code mpi.Intracomm} in which a rank's rank is its coordinate) and its NCCL communicator
 * ({@link #nccl(String)}) are made once, by {@link #create}, on this rank's device: the
 * process's default device ({@code Cuda.defaultDevice()}: its rank on its node unless
 * {@code Cuda.setDevice} chose another), the same in every dimension.
 *
 * <p>This class is the public face of {@link MeshEngine}, which does the work on the
 * communicator's backend: it converts the {@code mpi} arguments through
 * {@link io.github.mpi4j.spi.ApiBridge} and delegates.
 */
public final class DeviceMesh implements AutoCloseable {
    private final MeshEngine engine;
    /** Each dimension's NCCL communicator, as programs get it. */
    private final NcclComm[] nccls;

    private DeviceMesh(MeshEngine engine) {
        this.engine = engine;
        RawNcclComm[] raw = engine.nccls();
        this.nccls = new NcclComm[raw.length];
        for (int d = 0; d < raw.length; d++) nccls[d] = new NcclComm(raw[d]);
    }

    /**
     * Collective over {@code comm}: the mesh of {@code shape} (its product must be
     * {@code comm}'s size) with one unique, non-null name per dimension. Arguments are checked
     * before any communication, the same way on every rank.
     */
    public static DeviceMesh create(mpi.Intracomm comm, int[] shape, String[] names) {
        String what = "DeviceMesh.create";
        return new DeviceMesh(MeshEngine.create(what, comm, ApiArgs.comm(what, comm), shape, names));
    }

    /** The sub-communicator of dimension {@code name}: a rank's rank in it is its coordinate there. */
    public mpi.Intracomm comm(String name) {
        return (mpi.Intracomm) engine.comm(name);
    }

    /** The NCCL communicator of dimension {@code name}, on this rank's device. */
    public NcclComm nccl(String name) {
        return nccls[engine.dim("DeviceMesh.nccl", name)];
    }

    /** The size of dimension {@code name}. */
    public int size(String name) {
        return engine.size(name);
    }

    /** This rank's coordinate in dimension {@code name}. */
    public int coordinate(String name) {
        return engine.coordinate(name);
    }

    /** This rank's coordinate, one entry per dimension. */
    public int[] coordinate() {
        return engine.coordinate();
    }

    public int[] shape() {
        return engine.shape();
    }

    public String[] names() {
        return engine.names();
    }

    /** This rank's device (its rank on its node), used by every dimension's NCCL communicator. */
    public int device() {
        return engine.device();
    }

    public boolean isClosed() {
        return engine.isClosed();
    }

    /** Closes every dimension's NCCL communicator and frees its sub-communicator. Collective; idempotent. */
    @Override
    public void close() {
        engine.close();
    }

    @Override
    public String toString() {
        return engine.toString();
    }
}
