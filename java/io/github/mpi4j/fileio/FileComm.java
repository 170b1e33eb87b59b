package io.github.mpi4j.fileio;

import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.Mpi;
import io.github.mpi4j.spi.Predefined;
import mpi.MPIException;

/**
 * The few collectives an open file needs (agreeing on outcomes, sharing the shared pointer's
 * base, ordering), over the file's own duplicate of the communicator so that they never mix
 * with the program's traffic. Each call is one bracketed collective of the backend. Used by the
 * Java implementation ({@link ChannelFile}) and by backends whose own collective file calls
 * cannot tell the other ranks of a failure.
 */
public final class FileComm {
    final BackendComm comm;

    /** Over {@code comm}, which the caller made for the file (a duplicate) and frees with {@link #free}. */
    public FileComm(BackendComm comm) {
        this.comm = comm;
    }

    int rank() {
        return comm.rank();
    }

    int size() {
        return comm.size();
    }

    void barrier(String call) {
        comm.bracketed(call, () -> comm.collectives().barrier());
    }

    /** Every rank's {@code value}, indexed by rank. */
    long[] allGather(String call, long value) {
        long[] all = new long[comm.size()];
        comm.bracketed(call, () -> comm.collectives().allGather(longs(new long[] {value}), 1, Predefined.T_LONG,
                longs(all), 1, Predefined.T_LONG));
        return all;
    }

    /** Rank 0's bytes on every rank (the others pass anything, null included). */
    byte[] bcastBytes(String call, byte[] fromRoot) {
        long n = allGather(call, comm.rank() == 0 ? fromRoot.length : 0)[0];
        byte[] data = comm.rank() == 0 ? fromRoot : new byte[(int) n];
        if (n == 0) return data;
        comm.bracketed(call, () -> comm.collectives().bcast(bytes(data), data.length, Predefined.T_BYTE, 0));
        return data;
    }

    /** Every rank's {@code values} (the same length at every rank), rank after rank. */
    long[] allGatherLongs(String call, long[] values) {
        long[] all = new long[comm.size() * values.length];
        comm.bracketed(call, () -> comm.collectives().allGather(longs(values), values.length, Predefined.T_LONG,
                longs(all), values.length, Predefined.T_LONG));
        return all;
    }

    /** One int to each rank ({@code send[r]} goes to rank r); returns what each rank sent here. */
    int[] allToAllInts(String call, int[] send) {
        int[] recv = new int[comm.size()];
        comm.bracketed(call, () -> comm.collectives().allToAll(ints(send), 1, Predefined.T_INT, ints(recv), 1,
                Predefined.T_INT));
        return recv;
    }

    /** Bytes to every rank: {@code sendCounts[r]} bytes of {@code send} (rank after rank) go to rank r. */
    byte[] allToAllv(String call, byte[] send, int[] sendCounts, int[] recvCounts) {
        int n = comm.size();
        int[] sd = new int[n], rd = new int[n];
        int total = 0;
        for (int r = 1; r < n; r++) sd[r] = sd[r - 1] + sendCounts[r - 1];
        for (int r = 0; r < n; r++) {
            rd[r] = total;
            total += recvCounts[r];
        }
        byte[] recv = new byte[total];
        comm.bracketed(call, () -> comm.collectives().allToAllv(bytes(send), sendCounts, sd, Predefined.T_BYTE,
                bytes(recv), recvCounts, rd, Predefined.T_BYTE));
        return recv;
    }

    public void free() {
        comm.free();
    }

    /**
     * Every rank learns whether any rank failed: a rank that failed throws its own exception,
     * the others one that names the first failing rank and its error class.
     */
    public void agree(String call, Throwable failure) {
        int mine = failure == null ? 0 : failure instanceof MPIException
                ? Math.max(1, ((MPIException) failure).getErrorClass()) : Mpi.ERR_IO;
        long[] all = allGather(call, mine);
        if (failure instanceof RuntimeException) throw (RuntimeException) failure;
        if (failure instanceof Error) throw (Error) failure;
        if (failure != null) throw MPIException.of(mine, call + ": " + failure);
        for (int r = 0; r < all.length; r++) {
            if (all[r] != 0) {
                long errorClass = Math.abs(all[r]);
                throw MPIException.of((int) errorClass, call + ": failed at rank " + r + " (error class " + errorClass
                        + "; that rank's exception says why)");
            }
        }
    }

    private static Buf longs(long[] a) {
        return new Buf(a, Predefined.T_LONG.arrayKind, 0, a.length);
    }

    private static Buf ints(int[] a) {
        return new Buf(a, Predefined.T_INT.arrayKind, 0, a.length);
    }

    private static Buf bytes(byte[] a) {
        return new Buf(a, Predefined.T_BYTE.arrayKind, 0, a.length);
    }
}
