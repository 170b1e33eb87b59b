package mpi;

/**
 * For tests: {@link Comm}'s lookup of a backend capability, which the public API keeps
 * package-private (the capability interfaces are spi types). Lives in the test tree, in
 * package {@code mpi}.
 */
public final class CapabilityLookup {
    private CapabilityLookup() {
    }

    /** The capability {@code kind} of {@code comm}'s backend, or the API's MPIException naming {@code what}. */
    public static Object require(Comm comm, Class<?> kind, String what) {
        return comm.capability("capability", kind, what);
    }
}
