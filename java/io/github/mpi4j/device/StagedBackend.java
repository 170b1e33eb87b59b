package io.github.mpi4j.device;

import io.github.mpi4j.spi.Backend;
import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.BackendRequest;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.StatusData;
import io.github.mpi4j.spi.TypeDesc;
import java.nio.ByteBuffer;

/**
 * The chosen backend with device buffers accepted on its communicators ({@link StagedComm}).
 * Everything else is the backend's own: name, reason, completion of requests (a staged request
 * copies back inside its own wait or test, so multi-completion works on any mix), lifecycles.
 */
final class StagedBackend implements Backend {
    final Backend inner;
    private final DeviceLayer layer;
    private final BackendComm world;
    private final BackendComm self;

    /**
     * @throws mpi.MPIException if {@code MPI4J_DEVICE_COLLECTIVES} has a bad value (every rank
     *         has the same environment, so every rank fails {@code MPI.Init} alike, after the
     *         backend was finished again)
     */
    StagedBackend(Backend inner) {
        this.inner = inner;
        try {
            this.layer = new DeviceLayer(inner.name(), System.getenv());
        } catch (RuntimeException e) {
            // The backend has started: finish it (every rank fails alike), so MPI.Init leaves nothing running.
            try {
                inner.finish();
            } catch (RuntimeException x) {
                e.addSuppressed(x);
            }
            throw e;
        }
        this.world = StagedComm.wrap(inner.world(), layer);
        this.self = StagedComm.wrap(inner.self(), layer);
    }

    @Override
    public String name() {
        return inner.name();
    }

    @Override
    public String reason() {
        return inner.reason();
    }

    @Override
    public int threadLevel() {
        return inner.threadLevel();
    }

    @Override
    public boolean isThreadMain() {
        return inner.isThreadMain();
    }

    @Override
    public BackendComm world() {
        return world;
    }

    @Override
    public BackendComm self() {
        return self;
    }

    @Override
    public double wtime() {
        return inner.wtime();
    }

    @Override
    public double wtick() {
        return inner.wtick();
    }

    @Override
    public String processorName() {
        return inner.processorName();
    }

    @Override
    public int[] version() {
        return inner.version();
    }

    @Override
    public String libVersion() {
        return inner.libVersion();
    }

    @Override
    public String errorString(int errorCode) {
        return inner.errorString(errorCode);
    }

    @Override
    public int errorClass(int errorCode) {
        return inner.errorClass(errorCode);
    }

    @Override
    public void commitType(TypeDesc type) {
        inner.commitType(type);
    }

    @Override
    public void freeType(TypeDesc type, Object handle) {
        inner.freeType(type, handle);
    }

    @Override
    public void freeOp(OpDesc op, Object handle) {
        inner.freeOp(op, handle);
    }

    @Override
    public int liveUserOps() {
        return inner.liveUserOps();
    }

    @Override
    public void abort(BackendComm comm, int code) {
        inner.abort(StagedComm.unwrap(comm), code);
    }

    @Override
    public void finish() {
        try {
            layer.finish(); // NCCL communicators first: their finalize may still need the peers
        } finally {
            inner.finish();
        }
    }

    @Override
    public void attachBuffer(ByteBuffer buffer) {
        inner.attachBuffer(buffer);
    }

    @Override
    public ByteBuffer detachBuffer() {
        return inner.detachBuffer();
    }

    @Override
    public void waitAll(BackendRequest[] requests, StatusData[] statuses) {
        inner.waitAll(requests, statuses);
    }

    @Override
    public int waitAny(BackendRequest[] requests, StatusData status) {
        return inner.waitAny(requests, status);
    }

    @Override
    public int testAny(BackendRequest[] requests, StatusData status) {
        return inner.testAny(requests, status);
    }

    @Override
    public boolean testAll(BackendRequest[] requests, StatusData[] statuses) {
        return inner.testAll(requests, statuses);
    }

    @Override
    public int[] waitSome(BackendRequest[] requests, StatusData[] statuses) {
        return inner.waitSome(requests, statuses);
    }

    @Override
    public int[] testSome(BackendRequest[] requests, StatusData[] statuses) {
        return inner.testSome(requests, statuses);
    }

    // ---- environment (issue 10) ----

    @Override
    public Integer predefinedAttribute(int key) {
        return inner.predefinedAttribute(key);
    }
}
