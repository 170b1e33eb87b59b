package io.github.mpi4j.fileio;

import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.Predefined;

/**
 * The few collectives an open file needs (agreeing on outcomes, sharing the shared pointer's
 * base, ordering), over the file's own duplicate of the communicator so that they never mix
 * with the program's traffic. Each call is one bracketed collective of the backend.
 */
final class FileComm {
    final BackendComm comm;

    FileComm(BackendComm comm) {
        this.comm = comm;
    }

    int rank() {
        return comm.rank();
    }

    int size() {
        return comm.size();
    }

    void barrier(String call) {
        comm.beginCollective(call, false);
        Throwable failure = null;
        try {
            comm.collectives().barrier();
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            comm.endCollective(failure);
        }
    }

    /** Every rank's {@code value}, indexed by rank. */
    long[] allGather(String call, long value) {
        long[] all = new long[comm.size()];
        comm.beginCollective(call, false);
        Throwable failure = null;
        try {
            comm.collectives().allGather(new Buf(new long[] {value}, Predefined.T_LONG.arrayKind, 0, 1), 1,
                    Predefined.T_LONG, new Buf(all, Predefined.T_LONG.arrayKind, 0, all.length), 1, Predefined.T_LONG);
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            comm.endCollective(failure);
        }
        return all;
    }

    /** Rank 0's bytes on every rank (the others pass anything, null included). */
    byte[] bcastBytes(String call, byte[] fromRoot) {
        long n = allGather(call, comm.rank() == 0 ? fromRoot.length : 0)[0];
        byte[] data = comm.rank() == 0 ? fromRoot : new byte[(int) n];
        if (n == 0) return data;
        comm.beginCollective(call, false);
        Throwable failure = null;
        try {
            comm.collectives().bcast(new Buf(data, Predefined.T_BYTE.arrayKind, 0, data.length), data.length,
                    Predefined.T_BYTE, 0);
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            comm.endCollective(failure);
        }
        return data;
    }
}
