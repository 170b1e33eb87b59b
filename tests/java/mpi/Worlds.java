package mpi;

import io.github.mpi4j.runtime.Session;
import io.github.mpi4j.spi.Backend;

/**
 * For tests: the world communicator of a backend that was started outside {@link MPI#Init},
 * for example one rank of a fabric world whose ranks run as threads of one JVM. It lives in the
 * test tree (package {@code mpi}, for the package-private constructors) so that the public API
 * never shows an spi type.
 */
public final class Worlds {
    private Worlds() {
    }

    /** An {@link Intracomm} over {@code backend.world()}, valid until {@link #finish(Intracomm)}. */
    public static Intracomm worldOf(Backend backend) {
        Session session = new Session(backend);
        return new Intracomm(session, backend.world(), "world(" + backend.name() + ")");
    }

    /** The self communicator of the same session as {@code world}. */
    public static Intracomm selfOf(Intracomm world) {
        return new Intracomm(world.session, world.session.backend().self(), "self");
    }

    /** Finalizes the session of {@code world} (and its backend). */
    public static void finish(Intracomm world) {
        world.session.finish().finish();
    }
}
