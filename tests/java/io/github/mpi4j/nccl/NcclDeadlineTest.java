package io.github.mpi4j.nccl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * The poll loop of every NCCL wait ({@link NcclDeadline#await}), with scripted communicators.
 * The first test is the diagnosed cause of the disabled absent-rank flake: sync() returned
 * normally when the operation failed between the read of the communicator's state and the read
 * of the stream (the query itself finished the failed operation, as the fake does and as a GPU
 * does when NCCL ends a kernel after a peer's failure).
 */
class NcclDeadlineTest {
    private static final int REMOTE_ERROR = 6;

    /** An operation that is pending until the first query of the stream, which finds it failed. */
    private static final class FailsDuringQuery implements NcclDeadline.Probe {
        boolean failed;
        int polls;

        @Override
        public boolean open() {
            return true;
        }

        @Override
        public boolean done() {
            polls++;
            if (polls < 3) return false;
            failed = true; // the query ran the operation: the peer is gone, it completes without effect
            return true;
        }

        @Override
        public int asyncError() {
            return failed ? REMOTE_ERROR : NcclNative.SUCCESS;
        }
    }

    @Test
    void aFailureFoundByTheStreamQueryIsAnErrorNotSuccess() {
        long deadline = System.nanoTime() + 10_000_000_000L;
        assertEquals(REMOTE_ERROR, NcclDeadline.await(new FailsDuringQuery(), deadline));
    }

    @Test
    void anIdleStreamWhileTheCommunicatorIsStillInProgressIsNotSuccess() {
        // A non-blocking communicator that has not yet queued the operation: the stream is idle.
        int[] calls = {0};
        NcclDeadline.Probe p = new NcclDeadline.Probe() {
            @Override
            public boolean open() {
                return true;
            }

            @Override
            public boolean done() {
                return true;
            }

            @Override
            public int asyncError() {
                return ++calls[0] < 5 ? NcclNative.IN_PROGRESS : NcclNative.SUCCESS;
            }
        };
        assertEquals(NcclNative.SUCCESS, NcclDeadline.await(p, System.nanoTime() + 10_000_000_000L));
        assertEquals(5, calls[0], "success only once the communicator said so");
    }

    @Test
    void theDeadlineAndAStopEndTheWait() {
        NcclDeadline.Probe never = new NcclDeadline.Probe() {
            @Override
            public boolean open() {
                return true;
            }

            @Override
            public boolean done() {
                return false;
            }

            @Override
            public int asyncError() {
                return NcclNative.SUCCESS;
            }
        };
        assertEquals(NcclException.DEADLINE, NcclDeadline.await(never, System.nanoTime() + 50_000_000L));
        boolean[] open = {true};
        NcclDeadline.Probe stopped = new NcclDeadline.Probe() {
            @Override
            public boolean open() {
                return open[0];
            }

            @Override
            public boolean done() {
                open[0] = false; // another thread aborts while this one polls
                return false;
            }

            @Override
            public int asyncError() {
                return NcclNative.SUCCESS;
            }
        };
        assertEquals(NcclDeadline.STOPPED, NcclDeadline.await(stopped, System.nanoTime() + 10_000_000_000L));
    }
}
