package io.github.mpi4j.spi;

/**
 * The way from the public API's objects to their {@code spi} descriptors for code below the API
 * that must accept them: the few public classes of {@code io.github.mpi4j.nccl} whose signatures
 * take an {@code mpi.Intracomm}, {@code mpi.Datatype} or {@code mpi.Op}. Those classes may not
 * import package {@code mpi} (the layering rule), and {@code mpi} keeps its descriptors
 * package-private; so {@code mpi} hands out this accessor once, from a static initializer of
 * {@code mpi.Comm} (the pattern of the JDK's shared secrets). Arguments are typed {@code Object}
 * for the same reason; an argument of the wrong class is a {@link ClassCastException}, a bug of
 * the caller.
 */
public interface ApiBridge {

    /** The backend communicator of {@code comm} (an {@code mpi.Comm}), after the API's own checks (MPI running, not freed). */
    BackendComm backendOf(Object comm, String call);

    /** The descriptor of {@code datatype} (an {@code mpi.Datatype}), after the API's checks (not freed, not DATATYPE_NULL). */
    TypeDesc typeOf(Object datatype, String call, String arg);

    /** The descriptor of {@code op} (an {@code mpi.Op}), after the API's checks (not freed). */
    OpDesc opOf(Object op, String call);

    /**
     * A new {@code mpi.Intracomm} over {@code child}, a communicator split off {@code parent}'s
     * backend communicator, named after {@code parent} with {@code suffix} appended.
     */
    Object intracommOf(Object parent, BackendComm child, String suffix);

    /** Frees {@code comm} (an {@code mpi.Comm}) unless the program freed it already. */
    void free(Object comm);

    /** The accessor that package {@code mpi} installed. */
    static ApiBridge get() {
        ApiBridge b = Holder.bridge;
        if (b != null) return b;
        try {
            // mpi.Comm installs it while it initializes: make sure it has.
            Class.forName("mpi.Comm", true, ApiBridge.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("ApiBridge: package mpi is not on the class path", e);
        }
        b = Holder.bridge;
        if (b == null) throw new IllegalStateException("ApiBridge: mpi.Comm did not install the bridge");
        return b;
    }

    /** Called once, by {@code mpi.Comm}'s static initializer; a second call is refused. */
    static void set(ApiBridge bridge) {
        synchronized (Holder.class) {
            if (Holder.bridge != null) throw new IllegalStateException("ApiBridge: installed already");
            Holder.bridge = bridge;
        }
    }

    /** Where the installed accessor lives (interfaces have no mutable static fields of their own). */
    final class Holder {
        static volatile ApiBridge bridge;

        private Holder() {
        }
    }
}
