package io.github.mpi4j.nccl;

import io.github.mpi4j.buffer.Buffers;
import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.OpCode;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.Predefined;
import io.github.mpi4j.spi.TypeDesc;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The host-side communication of the NCCL classes, on a backend communicator
 * ({@code spi.BackendComm}): creation traffic (agreement on failures, the unique id, node
 * facts) and the inter-node steps of {@link HierarchicalEngine}. Every call is one collective
 * call of the backend, in its bracket ({@code beginCollective} / {@code endCollective}), as the
 * {@code mpi} layer would make it; inside a call the API opened already it is part of that call.
 */
final class BackendCalls {
    private static final OpDesc MIN = new OpDesc("MPI.MIN", OpCode.MIN, null, true);

    private BackendCalls() {
    }

    /** Runs {@code body} on {@code comm.collectives()} as the collective call {@code call}. */
    static <T> T collective(BackendComm comm, String call, Function<BackendComm, T> body) {
        comm.beginCollective(call, false);
        Throwable failure = null;
        try {
            return body.apply(comm);
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            comm.endCollective(failure);
        }
    }

    private static void run(BackendComm comm, String call, Consumer<BackendComm> body) {
        collective(comm, call, c -> {
            body.accept(c);
            return null;
        });
    }

    /** {@code buf}'s first {@code count} items of {@code type} as a Buf (as the API resolves it). */
    static Buf buf(String call, Object buf, int count, TypeDesc type) {
        return Buffers.resolve(call, "buf", buf, 0, count, type, true);
    }

    /**
     * The lowest rank whose {@code failure} is not null, or the size when every rank's is null:
     * the same answer on every rank, so that all throw or none does.
     */
    static int firstFailed(BackendComm comm, String call, Throwable failure) {
        int[] mine = {failure == null ? comm.size() : comm.rank()};
        int[] lowest = new int[1];
        run(comm, call, c -> c.collectives().allReduce(buf(call, mine, 1, Predefined.T_INT),
                buf(call, lowest, 1, Predefined.T_INT), 1, Predefined.T_INT, MIN));
        return lowest[0];
    }

    /**
     * Collective: returns when no rank's {@code failure} is set; otherwise, on every rank, runs
     * {@code undo} and throws this rank's own failure, or (on a rank that did not fail) an
     * {@link NcclException} for {@code call} naming the lowest rank that failed: "rank r of n
     * {@code why}". So a failure on one rank is an exception on all, never a hang.
     */
    static void agree(BackendComm comm, String call, RuntimeException failure, Runnable undo, String why) {
        int first = firstFailed(comm, "allReduce", failure);
        if (first == comm.size()) return;
        undo.run();
        if (failure != null) throw failure;
        throw NcclException.failed(call, "rank " + first + " of " + comm.size() + " " + why);
    }

    static void bcast(BackendComm comm, String call, Object buf, int count, TypeDesc type, int root) {
        run(comm, call, c -> c.collectives().bcast(buf(call, buf, count, type), count, type, root));
    }

    /** Every rank's {@code mine} (the same length everywhere), one after another in rank order. */
    static int[] allGather(BackendComm comm, String call, int[] mine) {
        int[] all = new int[mine.length * comm.size()];
        run(comm, call, c -> c.collectives().allGather(buf(call, mine, mine.length, Predefined.T_INT), mine.length,
                Predefined.T_INT, buf(call, all, all.length, Predefined.T_INT), mine.length, Predefined.T_INT));
        return all;
    }

    static void allReduce(BackendComm comm, String call, Object buf, int count, TypeDesc type, OpDesc op) {
        run(comm, call, c -> c.collectives().allReduce(Buf.IN_PLACE, buf(call, buf, count, type), count, type, op));
    }

    static void reduce(BackendComm comm, String call, Object buf, int count, TypeDesc type, OpDesc op, int root) {
        Buf b = buf(call, buf, count, type);
        boolean atRoot = comm.rank() == root;
        Buf send = atRoot ? Buf.IN_PLACE : b;
        Buf recv = atRoot ? b : null;
        run(comm, call, c -> c.collectives().reduce(send, recv, count, type, op, root));
    }

    /** In place: this rank's {@code count} bytes are at its block of {@code buf}, every rank's block comes back. */
    static void allGatherBytes(BackendComm comm, String call, Object buf, int count) {
        TypeDesc t = Predefined.T_BYTE;
        Buf b = buf(call, buf, count * comm.size(), t);
        run(comm, call, c -> c.collectives().allGather(Buf.IN_PLACE, count, t, b, count, t));
    }

    /** In place, with rank r's bytes {@code counts[r]} at {@code displs[r]}. */
    static void allGatherBytes(BackendComm comm, String call, Object buf, int[] counts, int[] displs) {
        TypeDesc t = Predefined.T_BYTE;
        int total = 0;
        for (int i = 0; i < counts.length; i++) total = Math.max(total, displs[i] + counts[i]);
        Buf b = buf(call, buf, total, t);
        run(comm, call, c -> c.collectives().allGatherv(Buf.IN_PLACE, counts[c.rank()], t, b, counts, displs, t));
    }

    /** In place: the reduction of the {@code size} blocks of {@code buf}, block {@code rank} into the first. */
    static void reduceScatterBlock(BackendComm comm, String call, Object buf, int count, TypeDesc type, OpDesc op) {
        run(comm, call, c -> c.collectives().reduceScatterBlock(Buf.IN_PLACE, buf(call, buf, count * c.size(), type),
                count, type, op));
    }

    static void barrier(BackendComm comm, String call) {
        run(comm, call, c -> c.collectives().barrier());
    }

    /** One communicator per node, ranks ordered by {@code key}. */
    static BackendComm splitShared(BackendComm comm, String call, int key) {
        return collective(comm, call, c -> c.splitShared(true, key));
    }

    static BackendComm split(BackendComm comm, String call, int color, int key) {
        return collective(comm, call, c -> c.split(color, key));
    }
}
