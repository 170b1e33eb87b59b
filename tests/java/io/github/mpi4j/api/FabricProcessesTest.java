package io.github.mpi4j.api;

import io.github.mpi4j.testing.Jobs;
import io.github.mpi4j.testing.SuiteRunner;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * Tier 2 on the fabric: the same suites as under mpirun, in real processes started by
 * mpi4jrun — over shared memory, and with TCP forced between local ranks.
 */
class FabricProcessesTest {
    private static Stream<DynamicNode> shm(Class<?> suite, int... sizes) {
        return SuiteRunner.run(suite, Jobs.Launcher.MPI4JRUN, List.of(), null, sizes);
    }

    /**
     * Every allreduce, and every bcast of 3 or more ranks, through the shared-memory slots (no
     * size threshold), in slots of 4 KiB so that vectors take many chunks.
     */
    private static final Map<String, String> TINY_SLOTS =
            Map.of("MPI4J_SHM_COLL_MIN_KB", "0", "MPI4J_SHM_BCAST_MIN_KB", "0", "MPI4J_SHM_COLL_KB", "4");

    private static Stream<DynamicNode> slots(Class<?> suite, int... sizes) {
        return SuiteRunner.run(suite, Jobs.Launcher.MPI4JRUN, List.of(), TINY_SLOTS, sizes);
    }

    private static Stream<DynamicNode> tcp(Class<?> suite, int... sizes) {
        return SuiteRunner.run(suite, Jobs.Launcher.MPI4JRUN, List.of("--tcp"), null, sizes);
    }

    @TestFactory
    Stream<DynamicNode> pointToPointSharedMemory() {
        return shm(P2pSuite.class, 2, 4);
    }

    @TestFactory
    Stream<DynamicNode> collectivesSharedMemory() {
        return shm(CollectiveSuite.class, 2, 3, 4);
    }

    @TestFactory
    Stream<DynamicNode> communicatorsAndErrorsSharedMemory() {
        return Stream.concat(shm(CommSuite.class, 3), shm(ErrorSuite.class, 2));
    }

    @TestFactory
    Stream<DynamicNode> collectivesThroughSharedSlots() {
        return Stream.concat(slots(CollectiveSuite.class, 2, 3, 4), slots(ScheduleSuite.class, 3, 4));
    }

    @TestFactory
    Stream<DynamicNode> pointToPointTcp() {
        return tcp(P2pSuite.class, 3);
    }

    @TestFactory
    Stream<DynamicNode> collectivesTcp() {
        return tcp(CollectiveSuite.class, 3, 4);
    }

    /**
     * Every form of Java memory over TCP (arrays read and written by their descriptor, and
     * staged with {@code MPI4J_TCP_ARRAY_IO=0}) and over shared memory.
     */
    @TestFactory
    Stream<DynamicNode> streamedMemory() {
        Stream<DynamicNode> staged = SuiteRunner.run(StreamedMemorySuite.class, Jobs.Launcher.MPI4JRUN,
                List.of("--tcp"), Map.of("MPI4J_TCP_ARRAY_IO", "0"), 2);
        return Stream.concat(Stream.concat(tcp(StreamedMemorySuite.class, 3), staged),
                shm(StreamedMemorySuite.class, 2));
    }

    /** Host memory by address over shared memory (rings and slots) and over TCP (writes from the view). */
    @TestFactory
    Stream<DynamicNode> nativeMemory() {
        return Stream.concat(Stream.concat(shm(NativeMemorySuite.class, 3), slots(NativeMemorySuite.class, 2)),
                tcp(NativeMemorySuite.class, 3));
    }

    @TestFactory
    Stream<DynamicNode> schedulesSharedMemoryAndTcp() {
        return Stream.concat(shm(ScheduleSuite.class, 3, 4), tcp(ScheduleSuite.class, 4));
    }

    @TestFactory
    Stream<DynamicNode> manyRanks() {
        return shm(CommSuite.class, 8);
    }
}
