package io.github.mpi4j.fabric;

import io.github.mpi4j.fabric.transport.ShmDir;
import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.Mpi;
import io.github.mpi4j.spi.OpCode;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.Predefined;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.Consumer;
import mpi.MPIException;

/**
 * The memory of a fabric window between processes of one node: one file per rank in
 * {@link ShmDir}, a 64-byte header and the rank's window bytes, mapped by every rank and unlinked
 * as soon as all have mapped it (so a crash leaves nothing behind). The header holds the
 * target's mutex word (atomic operations), its reader/writer lock word (passive target: -1
 * exclusive, n > 0 readers) and its displacement unit; both words change by compare-and-set on
 * the mapping, which is atomic between processes. Ranks on different nodes cannot map each
 * other's files: the window is refused at every rank alike.
 */
final class ShmWindow implements FabricWindow.Locks {
    private static final int HEADER = 64, MUTEX = 0, RW = 8, DISP_UNIT = 16;
    private static final VarHandle LONGS = MethodHandles.byteBufferViewVarHandle(long[].class,
            ByteOrder.nativeOrder());
    private static final OpDesc MIN = new OpDesc("MPI.MIN", OpCode.MIN, null, true);

    final Buf[] parts;
    final int[] dispUnits;
    private final MappedByteBuffer[] maps;
    private final double timeout;

    private ShmWindow(int n, double timeout) {
        parts = new Buf[n];
        dispUnits = new int[n];
        maps = new MappedByteBuffer[n];
        this.timeout = timeout;
    }

    private static Path path(long key, int rank) {
        return ShmDir.get().resolve("mpi4j-win-" + Long.toHexString(key) + "-" + rank);
    }

    /** Collective over {@code sync}: every rank makes its file, maps everyone's, and unlinks its own. */
    static ShmWindow open(BackendComm sync, long key, int bytes, int dispUnit, Consumer<String> barrier,
                          double timeout) {
        int rank = sync.rank(), n = sync.size();
        ShmWindow w = new ShmWindow(n, timeout);
        Path mine = path(key, rank);
        String problem = null;
        try (FileChannel f = FileChannel.open(mine, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            // Pages are written through the channel first: a full tmpfs then fails here with an
            // IOException instead of a SIGBUS on a later store into the mapping.
            ByteBuffer zeros = ByteBuffer.allocate(64 * 1024);
            long total = HEADER + (long) bytes;
            for (long at = 0; at < total; ) {
                zeros.clear().limit((int) Math.min(zeros.capacity(), total - at));
                at += f.write(zeros, at);
            }
            ByteBuffer unit = ByteBuffer.allocate(4).order(ByteOrder.nativeOrder()).putInt(0, dispUnit);
            f.write(unit, DISP_UNIT);
        } catch (IOException e) {
            problem = "cannot make " + mine + " (" + e.getMessage() + ")";
        }
        barrier.accept("Win");
        for (int r = 0; r < n && problem == null; r++) {
            Path p = path(key, r);
            try (FileChannel f = FileChannel.open(p, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                w.maps[r] = f.map(FileChannel.MapMode.READ_WRITE, 0, f.size());
                w.maps[r].order(ByteOrder.nativeOrder());
                w.dispUnits[r] = w.maps[r].getInt(DISP_UNIT);
                int len = (int) (f.size() - HEADER);
                w.parts[r] = new Buf(w.maps[r].slice(HEADER, len).order(ByteOrder.nativeOrder()), BaseKind.BYTE, 0,
                        len);
            } catch (IOException e) {
                problem = "rank " + r + "'s window file " + p + " cannot be mapped here (" + e.getMessage()
                        + "): is it on another node?";
            }
        }
        int[] ok = {problem == null ? 1 : 0}, all = new int[1];
        sync.beginCollective("Win", false);
        try {
            sync.collectives().allReduce(new Buf(ok, BaseKind.INT, 0, 1), new Buf(all, BaseKind.INT, 0, 1), 1,
                    Predefined.T_INT, MIN);
        } finally {
            sync.endCollective(null);
        }
        barrier.accept("Win");
        try {
            Files.deleteIfExists(mine);
        } catch (IOException ignored) {
            // the launcher removes a job's leftover files
        }
        if (all[0] == 0) {
            throw MPIException.of(Mpi.ERR_UNSUPPORTED_OPERATION, "Win.allocate: the fabric backend shares windows "
                    + "between processes only through the shared memory of one node, and "
                    + (problem != null ? problem : "another rank could not map every rank's window")
                    + "; windows across nodes are not supported yet");
        }
        return w;
    }

    static MPIException lockTimeout(int target, double timeout) {
        return MPIException.of(Mpi.ERR_OTHER, "Win.lock: rank " + target + "'s window stayed locked by another rank "
                + "for " + timeout + " s (MPI4J_TIMEOUT)");
    }

    /** Spins (then yields, then sleeps briefly) until {@code attempt} succeeds or the deadline passes. */
    private boolean spin(java.util.function.BooleanSupplier attempt) {
        long deadline = System.nanoTime() + (long) (timeout * 1e9);
        for (int i = 0; ; i++) {
            if (attempt.getAsBoolean()) return true;
            if (System.nanoTime() > deadline) return false;
            if (i < 100) {
                Thread.onSpinWait();
            } else if (i < 1000) {
                Thread.yield();
            } else {
                try {
                    Thread.sleep(0, 100_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw MPIException.of(Mpi.ERR_OTHER, "Win: interrupted while waiting for a window lock");
                }
            }
        }
    }

    @Override
    public void mutex(int target) {
        MappedByteBuffer m = maps[target];
        if (!spin(() -> LONGS.compareAndSet(m, MUTEX, 0L, 1L))) {
            throw MPIException.of(Mpi.ERR_OTHER, "Win: rank " + target + "'s window stayed busy with another "
                    + "rank's atomic operation for " + timeout + " s (MPI4J_TIMEOUT)");
        }
    }

    @Override
    public void unmutex(int target) {
        LONGS.setVolatile(maps[target], MUTEX, 0L);
    }

    @Override
    public long acquire(int target, boolean exclusive, double timeout) {
        MappedByteBuffer m = maps[target];
        boolean got = exclusive ? spin(() -> LONGS.compareAndSet(m, RW, 0L, -1L)) : spin(() -> {
            long v = (long) LONGS.getVolatile(m, RW);
            return v >= 0 && LONGS.compareAndSet(m, RW, v, v + 1);
        });
        if (!got) throw lockTimeout(target, timeout);
        return exclusive ? -1 : 1;
    }

    @Override
    public void release(int target, long stamp) {
        if (stamp < 0) {
            LONGS.setVolatile(maps[target], RW, 0L);
        } else {
            LONGS.getAndAdd(maps[target], RW, -1L);
        }
    }

    /** The mappings go with the garbage collector; the files are already unlinked. */
    void close() {
        VarHandle.fullFence();
    }
}
