package io.github.mpi4j.nccl;

import io.github.mpi4j.spi.ApiBridge;
import io.github.mpi4j.spi.BackendComm;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The engine of {@link DeviceMesh}: checks the shape and names, splits the backend communicator
 * into one sub-communicator per dimension, makes each dimension's NCCL communicator
 * ({@link RawNcclComm}) on this rank's device, and frees them all. The sub-communicators are
 * handed to programs as {@code mpi.Intracomm}s, made through {@link ApiBridge} and held here as
 * plain objects.
 */
final class MeshEngine {
    private final int[] shape;
    private final String[] names;
    private final int[] coordinate;
    private final int device;
    /** Each dimension's sub-communicator, as the API object programs get. */
    private final Object[] comms;
    private final RawNcclComm[] nccls;
    private final AtomicBoolean closed = new AtomicBoolean();

    private MeshEngine(int[] shape, String[] names, int[] coordinate, int device, Object[] comms, RawNcclComm[] nccls) {
        this.shape = shape;
        this.names = names;
        this.coordinate = coordinate;
        this.device = device;
        this.comms = comms;
        this.nccls = nccls;
    }

    /**
     * Collective over {@code comm} ({@code apiComm}'s backend communicator): the mesh of
     * {@code shape} (its product must be {@code comm}'s size) with one unique, non-null name per
     * dimension. Arguments are checked before any communication, the same way on every rank.
     */
    static MeshEngine create(String what, Object apiComm, BackendComm comm, int[] shape, String[] names) {
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
        int size = comm.size();
        if (product != size) {
            throw new IllegalArgumentException(what + ": shape " + Arrays.toString(shape) + " holds "
                    + (product > Integer.MAX_VALUE ? "more than " + Integer.MAX_VALUE : Long.toString(product))
                    + " ranks but the communicator has " + size);
        }
        int rank = comm.rank();
        int[] coordinate = coordinateOf(rank, shape);
        int device = HierarchicalEngine.deviceOf(comm);
        Object[] comms = new Object[shape.length];
        RawNcclComm[] nccls = new RawNcclComm[shape.length];
        try {
            BackendComm[] sub = new BackendComm[shape.length];
            for (int d = 0; d < shape.length; d++) {
                // The ranks that differ from this one only in coordinate d: same color, ordered by coordinate d.
                int color = rank - coordinate[d] * stride(shape, d);
                sub[d] = BackendCalls.split(comm, "split", color, coordinate[d]);
                comms[d] = ApiBridge.get().intracommOf(apiComm, sub[d], ".split(" + color + ")");
            }
            for (int d = 0; d < shape.length; d++) {
                RuntimeException failure = null;
                try {
                    nccls[d] = RawNcclComm.create("NcclComm.create", sub[d], () -> device);
                } catch (RuntimeException e) {
                    failure = e;
                }
                // Creation agrees within one group; all groups must agree before the next dimension.
                BackendCalls.agree(comm, what, failure, () -> { }, "could not make the NCCL communicator of dimension \""
                        + names[d] + "\" (its own exception says why)");
            }
        } catch (RuntimeException e) {
            try {
                freeAll(comms, nccls);
            } catch (RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
        return new MeshEngine(shape.clone(), names.clone(), coordinate, device, comms, nccls);
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

    private static void freeAll(Object[] comms, RawNcclComm[] nccls) {
        List<RuntimeException> failures = new ArrayList<>();
        for (RawNcclComm n : nccls) {
            if (n == null) continue;
            try {
                n.close();
            } catch (RuntimeException e) {
                failures.add(e);
            }
        }
        for (Object c : comms) {
            if (c == null) continue;
            try {
                ApiBridge.get().free(c);
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

    /** The sub-communicator of dimension {@code name} (an {@code mpi.Intracomm}). */
    Object comm(String name) {
        return comms[dim("DeviceMesh.comm", name)];
    }

    /** The NCCL communicator of each dimension, in dimension order. */
    RawNcclComm[] nccls() {
        return nccls.clone();
    }

    int size(String name) {
        return shape[dim("DeviceMesh.size", name)];
    }

    int coordinate(String name) {
        return coordinate[dim("DeviceMesh.coordinate", name)];
    }

    /** Dimension {@code name}'s index, after checking the mesh is open ({@code what} names the call). */
    int dim(String what, String name) {
        check(what);
        if (name == null) {
            throw new IllegalArgumentException(what + ": name is null; the dimensions are " + Arrays.toString(names));
        }
        for (int d = 0; d < names.length; d++) if (names[d].equals(name)) return d;
        throw new IllegalArgumentException(what + ": no dimension is named \"" + name + "\"; the dimensions are "
                + Arrays.toString(names));
    }

    int[] coordinate() {
        check("DeviceMesh.coordinate");
        return coordinate.clone();
    }

    int[] shape() {
        check("DeviceMesh.shape");
        return shape.clone();
    }

    String[] names() {
        check("DeviceMesh.names");
        return names.clone();
    }

    int device() {
        check("DeviceMesh.device");
        return device;
    }

    boolean isClosed() {
        return closed.get();
    }

    /** Closes every dimension's NCCL communicator and frees its sub-communicator. Collective; idempotent. */
    void close() {
        if (!closed.compareAndSet(false, true)) return;
        freeAll(comms, nccls);
    }

    @Override
    public String toString() {
        return "DeviceMesh[" + Arrays.toString(names) + " " + Arrays.toString(shape) + ", at "
                + Arrays.toString(coordinate) + ", device " + device + (closed.get() ? ", closed" : "") + "]";
    }

    private void check(String what) {
        if (closed.get()) throw new IllegalStateException(what + ": " + this + " is closed");
    }
}
