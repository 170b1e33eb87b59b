package io.github.mpi4j.api;

import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.RankTest;
import java.util.Arrays;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Prequest;
import mpi.Request;
import mpi.Status;

/**
 * Buffered and persistent sends written the way mpiJava / MPJ Express programs write them:
 * offsets into the arrays, an attached buffer of exactly {@code Pack_size} bytes (no
 * {@code BSEND_OVERHEAD}), the same persistent requests started round after round. Values come
 * from the round, the request and the index, so a stale or misplaced element shows.
 */
public class BufferedPersistentSuite {

    private static int value(int request, int round, int i) {
        return (request + 1) * 1_000_000 + round * 10_000 + i;
    }

    /** Values of {@code round} at {@code offset..offset+n-1}, {@code filler} before them. */
    private static int[] expected(int request, int round, int offset, int n, int filler) {
        int[] a = new int[offset + n];
        Arrays.fill(a, 0, offset, filler);
        for (int i = 0; i < n; i++) a[offset + i] = value(request, round, i);
        return a;
    }

    /**
     * A buffer of exactly Pack_size bytes holds one buffered message of that size; once the
     * message is received its space serves the next round (Ibsend and Bsend in turn).
     */
    @RankTest(minSize = 2, processOnly = true)
    public void bufferOfPackSizeHoldsItsMessage(Intracomm comm) {
        final int n = 1000;
        int rank = comm.Rank();
        int bytes = comm.Pack_size(n, MPI.INT);
        Check.equal(4L * n, bytes, "Pack_size(" + n + ", MPI.INT)");
        if (rank == 0) MPI.Buffer_attach(MPI.newByteBuffer(bytes));
        for (int round = 0; round < 4; round++) {
            String what = "round " + round;
            if (rank == 0) {
                int[] out = expected(0, round, 5, n, 0);
                if (round % 2 == 0) {
                    Request r = comm.Ibsend(out, 5, n, MPI.INT, 1, round);
                    r.Wait();
                } else {
                    comm.Bsend(out, 5, n, MPI.INT, 1, round);
                }
            } else if (rank == 1) {
                int[] in = new int[3 + n];
                Arrays.fill(in, -7);
                Status s = comm.Recv(in, 3, n, MPI.INT, 0, round);
                Check.arrays(expected(0, round, 3, n, -7), in, what + " data");
                Check.equal(0, s.source, what + " source");
                Check.equal(round, s.tag, what + " tag");
                Check.equal(n, s.Get_count(MPI.INT), what + " Get_count");
                Check.equal(n, s.Get_elements(MPI.INT), what + " Get_elements (basic elements, not bytes)");
            }
            comm.Barrier(); // the message has been received: its space in the buffer is free again
        }
        if (rank == 0) Check.equal(bytes, MPI.Buffer_detach().length, "detached buffer length");
    }

    /**
     * Send_init, Ssend_init, Bsend_init and Rsend_init against Recv_init, with offsets, started
     * three times: after Waitall each receive holds its round's values and nothing before the offset.
     */
    @RankTest(minSize = 2, processOnly = true)
    public void persistentSendModesRestart(Intracomm comm) {
        final int n = 100;
        final int offset = 2;
        final int tag = 20;
        int rank = comm.Rank();
        int[][] bufs = new int[4][offset + n];
        Prequest[] reqs = new Prequest[4];
        if (rank == 0) {
            MPI.Buffer_attach(MPI.newByteBuffer(comm.Pack_size(n, MPI.INT)));
            reqs[0] = comm.Send_init(bufs[0], offset, n, MPI.INT, 1, tag);
            reqs[1] = comm.Ssend_init(bufs[1], offset, n, MPI.INT, 1, tag + 1);
            reqs[2] = comm.Bsend_init(bufs[2], offset, n, MPI.INT, 1, tag + 2);
            reqs[3] = comm.Rsend_init(bufs[3], offset, n, MPI.INT, 1, tag + 3);
        } else if (rank == 1) {
            for (int k = 0; k < 4; k++) reqs[k] = comm.Recv_init(bufs[k], offset, n, MPI.INT, 0, tag + k);
        }
        for (int round = 0; round < 3; round++) {
            if (rank == 0) {
                for (int k = 0; k < 4; k++) bufs[k] = fillFrom(bufs[k], k, round, offset);
            } else if (rank == 1) {
                for (int[] b : bufs) Arrays.fill(b, -1);
                Prequest.Startall(reqs);
            }
            comm.Barrier(); // every receive is posted before the ready send starts
            if (rank == 0) {
                for (Prequest r : reqs) r.Start();
            }
            if (rank > 1) continue;
            Status[] st = Request.Waitall(reqs);
            if (rank == 1) {
                for (int k = 0; k < 4; k++) {
                    String what = "round " + round + ", request " + k;
                    Check.arrays(expected(k, round, offset, n, -1), bufs[k], what + " data");
                    Check.equal(0, st[k].source, what + " source");
                    Check.equal(tag + k, st[k].tag, what + " tag");
                    Check.equal(n, st[k].Get_count(MPI.INT), what + " count");
                }
            }
        }
        if (rank <= 1) {
            for (Prequest r : reqs) r.Free();
        }
        if (rank == 0) MPI.Buffer_detach();
    }

    /** Writes the round's values into {@code buf} in place (the persistent request holds that array). */
    private static int[] fillFrom(int[] buf, int request, int round, int offset) {
        for (int i = offset; i < buf.length; i++) buf[i] = value(request, round, i - offset);
        return buf;
    }
}
