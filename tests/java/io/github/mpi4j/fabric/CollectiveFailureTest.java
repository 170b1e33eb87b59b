package io.github.mpi4j.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.Jobs;
import io.github.mpi4j.testing.SuiteRunner;
import java.util.List;
import java.util.stream.Stream;
import mpi.MPI;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Issue 7 item 1 on the fabric: a collective failing at one rank fails at every rank, promptly,
 * and the communicator gives right results afterwards — with ranks as threads (np 3 and 4: the
 * reduce tree has inner ranks) and as processes of mpi4jrun over shared memory (np 3).
 */
class CollectiveFailureTest {
    @TestFactory
    Stream<DynamicNode> failuresReachEveryRankThreads() {
        return SuiteRunner.threads(CollectiveFailureSuite.class, 3, 4);
    }

    @TestFactory
    Stream<DynamicNode> failuresReachEveryRankProcesses() {
        return SuiteRunner.run(CollectiveFailureSuite.class, Jobs.Launcher.MPI4JRUN, List.of(), null, 3);
    }

    /**
     * What the other ranks sent for failed calls is discarded where it arrives: after many
     * failed gathers and scatters, no rank holds an unreceived message.
     */
    @Test
    void messagesOfFailedCallsAreDiscarded() throws Exception {
        int n = 3;
        int[] left = new int[n];
        RankThreads.run(n, 60, (world, engine) -> {
            int rank = world.getRank(), root = 0;
            int[] big = new int[1 << 15]; // 128 KiB: rendezvous (RTS) on every transport
            for (int i = 0; i < 100; i++) {
                if (rank == root) {
                    Check.throwsMpi(MPI.ERR_BUFFER, () -> world.gather(new int[1], 1, MPI.INT, new int[1], 1, MPI.INT,
                            root), "recvbuf");
                    Check.throwsMpi(MPI.ERR_BUFFER, () -> world.gather(big, big.length, MPI.INT, new int[1],
                            big.length, MPI.INT, root), "recvbuf");
                } else {
                    Check.throwsMpi(MPI.ERR_OTHER, () -> world.gather(new int[1], 1, MPI.INT, null, 1, MPI.INT, root),
                            "rank 0");
                    Check.throwsMpi(MPI.ERR_OTHER, () -> world.gather(big, big.length, MPI.INT, null, big.length,
                            MPI.INT, root), "rank 0");
                }
            }
            int[] sum = new int[1];
            world.allReduce(new int[] {rank + 1}, sum, 1, MPI.INT, MPI.SUM);
            assertEquals(n * (n + 1) / 2, sum[0], "allReduce after the failed calls");
            world.barrier();
            // Count in turn, while no rank can have started its next collective yet: a token
            // passes from rank to rank (received before counting), then the last rank lets all go.
            int[] token = new int[1];
            if (rank > 0) world.recv(token, 1, MPI.INT, rank - 1, 9);
            left[rank] = engine.unexpectedCount();
            if (rank < n - 1) {
                world.send(token, 1, MPI.INT, rank + 1, 9);
                world.recv(token, 1, MPI.INT, n - 1, 10);
            } else {
                for (int r = 0; r < n - 1; r++) world.send(token, 1, MPI.INT, r, 10);
            }
        });
        for (int r = 0; r < n; r++) assertEquals(0, left[r], "messages left unreceived at rank " + r);
    }
}
