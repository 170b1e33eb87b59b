package io.github.mpi4j.nccl;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import mpi.Comm;
import mpi.Intracomm;
import mpi.MPI;

/**
 * The ranks of a communicator arranged as an n-dimensional mesh with named dimensions, as
 * torch's {@code DeviceMesh}: rank r sits at the row-major coordinate of r in {@code shape} (the
 * last dimension varies fastest), and the group of dimension d is the ranks that differ from r
 * only in coordinate d. Each dimension's sub-communicator ({@link #comm(String)}, an
 * {@code mpi.Intracomm} in which a rank's rank is its coordinate) and its NCCL communicator
 * ({@link #nccl(String)}) are made once, by {@link #create}, on this rank's device: the
 * process's default device ({@code Cuda.defaultDevice()}: its rank on its node unless
 * {@code Cuda.setDevice} chose another), the same in every dimension.
 */
public final class DeviceMesh implements AutoCloseable {
    private final int[] shape;
    private final String[] names;
    private final int[] coordinate;
    private final int device;
    private final Intracomm[] comms;
    private final NcclComm[] nccls;
    private final AtomicBoolean closed = new AtomicBoolean();

    private DeviceMesh(int[] shape, String[] names, int[] coordinate, int device, Intracomm[] comms, NcclComm[] nccls) {
        this.shape = shape;
        this.names = names;
        this.coordinate = coordinate;
        this.device = device;
        this.comms = comms;
        this.nccls = nccls;
    }

    /**
     * Collective over {@code comm}: the mesh of {@code shape} (its product must be
     * {@code comm}'s size) with one unique, non-null name per dimension. Arguments are checked
     * before any communication, the same way on every rank.
     */
    public static DeviceMesh create(Intracomm comm, int[] shape, String[] names) {
        String what = "DeviceMesh.create";
        if (comm == null) throw new IllegalArgumentException(what + ": comm is null");
        if (shape == null) throw new IllegalArgumentException(what + ": shape is null");
        if (names == null) throw new IllegalArgumentException(what + ": names is null");
        if (shape.length == 0) throw new IllegalArgumentException(what + ": shape has no dimensions");
        if (names.length != shape.length) {
            throw new IllegalArgumentException(what + ": shape " + Arrays.toString(shape) + " has " + shape.length
                    + " dimensions but names " + Arrays.toString(names) + " has " + names.length);
        }
        long product = 1;
        for (int d = 0; d < shape.length; d++) {
            if (shape[d] < 1) {
                throw new IllegalArgumentException(what + ": shape " + Arrays.toString(shape) + ": dimension " + d
                        + " has size " + shape[d] + ", must be >= 1");
            }
            product *= shape[d];
            if (product > Integer.MAX_VALUE) product = Integer.MAX_VALUE + 1L; // anything beyond is a mismatch
        }
        Set<String> seen = new HashSet<>();
        for (int d = 0; d < names.length; d++) {
            if (names[d] == null) throw new IllegalArgumentException(what + ": names[" + d + "] is null");
            if (!seen.add(names[d])) {
                throw new IllegalArgumentException(what + ": the name \"" + names[d] + "\" is given twice in "
                        + Arrays.toString(names));
            }
        }
        int size = comm.getSize();
        if (product != size) {
            throw new IllegalArgumentException(what + ": shape " + Arrays.toString(shape) + " holds "
                    + (product > Integer.MAX_VALUE ? "more than " + Integer.MAX_VALUE : Long.toString(product))
                    + " ranks but the communicator has " + size);
        }
        int rank = comm.getRank();
        int[] coordinate = coordinateOf(rank, shape);
        int device = rankOnNode(comm);
        Intracomm[] comms = new Intracomm[shape.length];
        NcclComm[] nccls = new NcclComm[shape.length];
        try {
            for (int d = 0; d < shape.length; d++) {
                // The ranks that differ from this one only in coordinate d: same color, ordered by coordinate d.
                int color = rank - coordinate[d] * stride(shape, d);
                comms[d] = comm.split(color, coordinate[d]);
            }
            for (int d = 0; d < shape.length; d++) {
                RuntimeException failure = null;
                try {
                    nccls[d] = NcclComm.create(comms[d], device);
                } catch (RuntimeException e) {
                    failure = e;
                }
                // NcclComm.create agrees within one group; all groups must agree before the next dimension.
                int[] firstFailed = {failure == null ? size : rank};
                comm.allReduce(firstFailed, 1, MPI.INT, MPI.MIN);
                if (failure != null) throw failure;
                if (firstFailed[0] < size) {
                    throw NcclException.failed(what, "rank " + firstFailed[0] + " of " + size + " could not make the NCCL"
                            + " communicator of dimension \"" + names[d] + "\" (its own exception says why)");
                }
            }
        } catch (RuntimeException e) {
            try {
                freeAll(comms, nccls);
            } catch (RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
        return new DeviceMesh(shape.clone(), names.clone(), coordinate, device, comms, nccls);
    }

    /** This process's device (see {@code HierarchicalComm.deviceOnNode}): the device of every dimension. */
    private static int rankOnNode(Intracomm comm) {
        Intracomm node = comm.splitType(Comm.TYPE_SHARED, comm.getRank(), MPI.INFO_NULL);
        try {
            return HierarchicalComm.deviceOnNode(node);
        } finally {
            node.free();
        }
    }

    /** Ranks between neighbours along dimension d: the product of the later dimensions. */
    private static int stride(int[] shape, int d) {
        int s = 1;
        for (int k = d + 1; k < shape.length; k++) s *= shape[k];
        return s;
    }

    /** The row-major coordinate of {@code rank} in {@code shape}. */
    static int[] coordinateOf(int rank, int[] shape) {
        int[] c = new int[shape.length];
        for (int d = shape.length - 1; d >= 0; d--) {
            c[d] = rank % shape[d];
            rank /= shape[d];
        }
        return c;
    }

    private static void freeAll(Intracomm[] comms, NcclComm[] nccls) {
        List<RuntimeException> failures = new ArrayList<>();
        for (NcclComm n : nccls) {
            if (n == null) continue;
            try {
                n.close();
            } catch (RuntimeException e) {
                failures.add(e);
            }
        }
        for (Intracomm c : comms) {
            if (c == null || c.isNull()) continue;
            try {
                c.free();
            } catch (RuntimeException e) {
                failures.add(e);
            }
        }
        if (!failures.isEmpty()) {
            RuntimeException first = failures.get(0);
            for (int i = 1; i < failures.size(); i++) first.addSuppressed(failures.get(i));
            throw first;
        }
    }

    /** The sub-communicator of dimension {@code name}: a rank's rank in it is its coordinate there. */
    public Intracomm comm(String name) {
        return comms[dim("DeviceMesh.comm", name)];
    }

    /** The NCCL communicator of dimension {@code name}, on this rank's device. */
    public NcclComm nccl(String name) {
        return nccls[dim("DeviceMesh.nccl", name)];
    }

    /** The size of dimension {@code name}. */
    public int size(String name) {
        return shape[dim("DeviceMesh.size", name)];
    }

    /** This rank's coordinate in dimension {@code name}. */
    public int coordinate(String name) {
        return coordinate[dim("DeviceMesh.coordinate", name)];
    }

    /** This rank's coordinate, one entry per dimension. */
    public int[] coordinate() {
        check("DeviceMesh.coordinate");
        return coordinate.clone();
    }

    public int[] shape() {
        check("DeviceMesh.shape");
        return shape.clone();
    }

    public String[] names() {
        check("DeviceMesh.names");
        return names.clone();
    }

    /** This rank's device (its rank on its node), used by every dimension's NCCL communicator. */
    public int device() {
        check("DeviceMesh.device");
        return device;
    }

    public boolean isClosed() {
        return closed.get();
    }

    /** Closes every dimension's NCCL communicator and frees its sub-communicator. Collective; idempotent. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) return;
        freeAll(comms, nccls);
    }

    @Override
    public String toString() {
        return "DeviceMesh[" + Arrays.toString(names) + " " + Arrays.toString(shape) + ", at "
                + Arrays.toString(coordinate) + ", device " + device + (closed.get() ? ", closed" : "") + "]";
    }

    private int dim(String what, String name) {
        check(what);
        if (name == null) {
            throw new IllegalArgumentException(what + ": name is null; the dimensions are " + Arrays.toString(names));
        }
        for (int d = 0; d < names.length; d++) if (names[d].equals(name)) return d;
        throw new IllegalArgumentException(what + ": no dimension is named \"" + name + "\"; the dimensions are "
                + Arrays.toString(names));
    }

    private void check(String what) {
        if (closed.get()) throw new IllegalStateException(what + ": " + this + " is closed");
    }
}
