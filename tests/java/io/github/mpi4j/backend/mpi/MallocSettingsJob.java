package io.github.mpi4j.backend.mpi;

import io.github.mpi4j.bench.Osu;

/**
 * A job for {@link MallocSettingsTest} on the MPI backend: the benchmark that showed the slow
 * state, {@code Osu allreduce direct} from 8 bytes to 16 MiB (pairs of direct buffers of growing
 * sizes, each timed after a warm-up; its RESULT lines), then what {@link MallocSettings} did at
 * MPI.Init ({@code MALLOC <applied>}, rank 0).
 */
public final class MallocSettingsJob {
    private MallocSettingsJob() {
    }

    public static void main(String[] args) {
        Osu.main(new String[] {"allreduce", "direct", Integer.toString(16 << 20)});
        if ("0".equals(System.getenv("OMPI_COMM_WORLD_RANK"))) System.out.println("MALLOC " + MallocSettings.applied());
    }
}
