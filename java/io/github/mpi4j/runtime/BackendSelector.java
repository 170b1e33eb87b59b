package io.github.mpi4j.runtime;

import io.github.mpi4j.spi.Backend;
import io.github.mpi4j.spi.BackendDecorator;
import io.github.mpi4j.spi.BackendProvider;
import io.github.mpi4j.spi.Mpi;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import mpi.MPIException;

/**
 * Picks the backend at {@code MPI.Init} from the {@link BackendProvider}s listed in
 * {@code META-INF/services/io.github.mpi4j.spi.BackendProvider} (today: mpi, then fabric), in
 * this order:
 * <ol>
 *   <li>an explicit choice: {@code -Dmpi4j.backend=NAME} or {@code MPI4J_BACKEND=NAME};</li>
 *   <li>the first provider that claims the process and is available (the system MPI, when an MPI
 *       launcher started the process and the MPI bridge loads; the fabric, when mpi4jrun,
 *       torchrun-style variables or SLURM started it); a claimant that is unavailable is passed
 *       over with its reason, and if no later one claims the process, {@code MPI.Init} fails with
 *       that reason;</li>
 *   <li>the provider that runs unclaimed processes (the fabric): a world of one process.</li>
 * </ol>
 * The chosen backend is then handed to each {@link BackendDecorator} on the list (today the
 * device layer, which takes device buffers in every call). The choice and its reason are available from
 * {@code io.github.mpi4j.Mpi4j}. Nothing here knows a concrete backend.
 */
public final class BackendSelector {
    private BackendSelector() {
    }

    /** A decision: the provider, and the reason to give it (null: the provider words its own). */
    public static final class Choice {
        public final BackendProvider provider;
        public final String reason;

        Choice(BackendProvider provider, String reason) {
            this.provider = provider;
            this.reason = reason;
        }
    }

    private static final class Lists {
        static final List<BackendProvider> PROVIDERS = load(BackendProvider.class,
                Comparator.comparingInt(BackendProvider::order));
        static final List<BackendDecorator> DECORATORS = load(BackendDecorator.class,
                Comparator.comparingInt(BackendDecorator::order));

        private static <T> List<T> load(Class<T> type, Comparator<T> order) {
            List<T> all = new ArrayList<>();
            ServiceLoader.load(type, BackendSelector.class.getClassLoader()).forEach(all::add);
            all.sort(order);
            return List.copyOf(all);
        }
    }

    /** The providers on the class path, in the order they are asked. */
    public static List<BackendProvider> providers() {
        return Lists.PROVIDERS;
    }

    public static Backend select(int requiredThreadLevel) {
        return select(requiredThreadLevel, System.getenv());
    }

    public static Backend select(int requiredThreadLevel, Map<String, String> env) {
        Choice c = choose(providers(), System.getProperty("mpi4j.backend", env.get("MPI4J_BACKEND")), env);
        Backend backend = c.provider.create(requiredThreadLevel, env, c.reason);
        for (BackendDecorator d : Lists.DECORATORS) backend = d.decorate(backend);
        return backend;
    }

    /**
     * The decision alone, without starting anything.
     *
     * @param explicit the value of {@code mpi4j.backend}/{@code MPI4J_BACKEND}, or null
     */
    public static Choice choose(List<BackendProvider> providers, String explicit, Map<String, String> env) {
        if (explicit != null && !explicit.isBlank()) {
            String wanted = explicit.trim().toLowerCase();
            for (BackendProvider p : providers) {
                if (!p.name().equals(wanted)) continue;
                String missing = p.unavailableReason();
                if (missing != null) {
                    throw MPIException.of(Mpi.ERR_OTHER, "MPI.Init: backend '" + p.name() + "' was requested ("
                            + "mpi4j.backend/MPI4J_BACKEND) but " + p.requirement() + " is unavailable: " + missing);
                }
                return new Choice(p, "requested by mpi4j.backend/MPI4J_BACKEND=" + p.name());
            }
            List<String> names = new ArrayList<>();
            for (BackendProvider p : providers) names.add(p.name());
            throw MPIException.of(Mpi.ERR_ARG, "MPI.Init: unknown backend '" + explicit
                    + "' in mpi4j.backend/MPI4J_BACKEND (use " + String.join(" or ", names) + ")");
        }
        String passedOver = null;
        for (BackendProvider p : providers) {
            String claim = p.claim(env);
            if (claim == null) continue;
            String missing = p.unavailableReason();
            if (missing == null) return new Choice(p, passedOver);
            if (passedOver == null) {
                passedOver = claim + " but " + p.requirement() + " is unavailable (" + missing + ")";
            }
        }
        if (passedOver != null) {
            // A silent world of one rank per process would be the worst outcome.
            throw MPIException.of(Mpi.ERR_OTHER, "MPI.Init: " + passedOver + "; fix that (docs/building.md), or "
                    + "start the job with mpi4jrun");
        }
        for (BackendProvider p : providers) {
            if (p.runsUnclaimedProcesses() && p.unavailableReason() == null) return new Choice(p, null);
        }
        throw MPIException.of(Mpi.ERR_OTHER, "MPI.Init: no backend can run this process (providers: "
                + providers.size() + "; is mpi4j's META-INF/services on the class path?)");
    }
}
