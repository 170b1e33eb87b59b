package io.github.mpi4j.fabric;

import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.Predefined;
import io.github.mpi4j.spi.SendMode;
import io.github.mpi4j.spi.StatusData;

/**
 * Generalized active-target synchronization (post/start/complete/wait) of a fabric window:
 * zero-byte messages on the window's own communicator. A post tells each origin it may start; a
 * complete tells each target that this origin's operations are done. Every window kind shares it;
 * what "done" means (flushed to the target, or already stored) is the window's business before
 * {@link #complete()}.
 */
final class PscwEpochs {
    private static final int TAG_POST = 1, TAG_DONE = 2;
    private static final Buf EMPTY = new Buf(new byte[0], BaseKind.BYTE, 0, 0);

    private final BackendComm sync;
    private int[] startGroup, postGroup;

    PscwEpochs(BackendComm sync) {
        this.sync = sync;
    }

    /** The targets of the open access epoch (start without complete yet); null when none. */
    int[] startGroup() {
        return startGroup;
    }

    void post(int[] origins) {
        for (int origin : origins) sync.send(EMPTY, 0, Predefined.T_BYTE, origin, TAG_POST, SendMode.STANDARD);
        postGroup = origins;
    }

    void start(int[] targets) {
        for (int target : targets) sync.recv(EMPTY, 0, Predefined.T_BYTE, target, TAG_POST, new StatusData());
        startGroup = targets;
    }

    void complete() {
        for (int target : startGroup) sync.send(EMPTY, 0, Predefined.T_BYTE, target, TAG_DONE, SendMode.STANDARD);
        startGroup = null;
    }

    void waitForExposure() {
        for (int origin : postGroup) sync.recv(EMPTY, 0, Predefined.T_BYTE, origin, TAG_DONE, new StatusData());
        postGroup = null;
    }

    boolean testExposure() {
        for (int origin : postGroup) {
            if (!sync.iprobe(origin, TAG_DONE, new StatusData())) return false;
        }
        waitForExposure();
        return true;
    }
}
