package io.github.mpi4j.backend.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.mpi4j.testing.Jobs;
import io.github.mpi4j.testing.Requirements;
import io.github.mpi4j.testing.RankRunner;
import java.util.List;
import java.util.Map;
import mpi.MPIException;
import org.junit.jupiter.api.Test;

/** MPI4J_MPI_CUDA_AWARE: its values, and a bad one failing MPI.Init before MPI starts. */
class MpiDeviceTest {
    @Test
    void theSettingIsAutoYesOrNo() {
        assertEquals("auto", MpiDevice.setting(Map.of()));
        assertEquals("auto", MpiDevice.setting(Map.of("MPI4J_MPI_CUDA_AWARE", " ")));
        assertEquals("yes", MpiDevice.setting(Map.of("MPI4J_MPI_CUDA_AWARE", "YES")));
        assertEquals("no", MpiDevice.setting(Map.of("MPI4J_MPI_CUDA_AWARE", " no ")));
        MPIException e = assertThrows(MPIException.class, () -> MpiDevice.setting(Map.of("MPI4J_MPI_CUDA_AWARE", "1")));
        assertTrue(e.getMessage().contains("MPI4J_MPI_CUDA_AWARE must be auto, yes or no, got '1'"), e.getMessage());
    }

    @Test
    void aBadValueFailsMpiInitNamingIt() throws Exception {
        Requirements.assumeMpi(Jobs.Launcher.MPIRUN, "MPI4J_MPI_CUDA_AWARE under mpirun");
        List<String> cmd = Jobs.mpirun(1, List.of("-cp", Jobs.classpath(), RankRunner.class.getName(),
                "io.github.mpi4j.device.WithoutCudaSuite"));
        Jobs.Result r = Jobs.run(cmd, Map.of("MPI4J_MPI_CUDA_AWARE", "maybe"), 120);
        assertTrue(r.exitCode != 0, "the job failed\n" + r);
        assertTrue(r.output.contains("MPI4J_MPI_CUDA_AWARE must be auto, yes or no, got 'maybe'"), r.toString());
    }
}
