package io.github.mpi4j.fabric;

import io.github.mpi4j.buffer.ProcessCopy;
import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

/**
 * A rank program for {@link SingleCopyTest} (2 ranks as processes): rank 0 sends rank 1 large
 * messages from direct buffers (read by a single copy where it can be) and from arrays (never),
 * into arrays, direct buffers, a slice at an odd offset, a synchronous send, one receive too
 * small (truncated) and four non-blocking ones matched out of order; rank 1 sends the first one
 * back. Every value is computed from the case and the index, and checked. Prints
 * <pre>SINGLECOPY rank reads OK|WRONG what</pre>
 * where reads is how many messages this process read out of its peer's memory.
 */
public final class SingleCopyProgram {
    private static final int N = 300_000;

    private static double value(int c, int i) {
        return c * 1_000_003.0 + i;
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        Intracomm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        String wrong = null;
        if (rank == 0) {
            DoubleBuffer d = MPI.newDoubleBuffer(N);
            for (int i = 0; i < N; i++) d.put(i, value(1, i));
            w.send(d, N, MPI.DOUBLE, 1, 1);                       // direct -> array
            ByteBuffer b = MPI.newByteBuffer(100_000 + 4099);
            for (int i = 0; i < b.capacity(); i++) b.put(i, (byte) (i * 7 + 2));
            w.send(b, 100_000, MPI.BYTE, 1, 2);                   // direct -> direct
            double[] a = new double[N / 3];
            for (int i = 0; i < a.length; i++) a[i] = value(3, i);
            w.send(a, a.length, MPI.DOUBLE, 1, 3);                // array -> direct (two copies)
            IntBuffer s = MPI.newIntBuffer(50_000);
            for (int i = 0; i < 50_000; i++) s.put(i, 4 * 1000 + i);
            w.sSend(s, 50_000, MPI.INT, 1, 4);                    // synchronous direct -> array
            b.position(4099);
            w.send(b.slice(), 100_000, MPI.BYTE, 1, 5);            // a slice at an odd offset
            w.send(s, 50_000, MPI.INT, 1, 6);                     // truncated at the receiver
            DoubleBuffer[] many = new DoubleBuffer[4];
            Request[] sends = new Request[4];
            for (int k = 0; k < 4; k++) {
                many[k] = MPI.newDoubleBuffer(20_000 + k);
                for (int i = 0; i < 20_000 + k; i++) many[k].put(i, value(10 + k, i));
                sends[k] = w.iSend(many[k], 20_000 + k, MPI.DOUBLE, 1, 10 + k);
            }
            Request.waitAll(sends);
            double[] back = new double[N];
            w.recv(back, N, MPI.DOUBLE, 1, 20);                   // the first one, sent back
            for (int i = 0; i < N && wrong == null; i++) if (back[i] != value(1, i)) wrong = "echo[" + i + "]";
        } else {
            double[] first = new double[N];
            w.recv(first, N, MPI.DOUBLE, 0, 1);
            for (int i = 0; i < N && wrong == null; i++) if (first[i] != value(1, i)) wrong = "case 1 [" + i + "]";
            ByteBuffer b = MPI.newByteBuffer(100_000);
            w.recv(b, 100_000, MPI.BYTE, 0, 2);
            for (int i = 0; i < 100_000 && wrong == null; i++) if (b.get(i) != (byte) (i * 7 + 2)) wrong = "case 2 [" + i + "]";
            DoubleBuffer d = MPI.newDoubleBuffer(N / 3);
            w.recv(d, N / 3, MPI.DOUBLE, 0, 3);
            for (int i = 0; i < N / 3 && wrong == null; i++) if (d.get(i) != value(3, i)) wrong = "case 3 [" + i + "]";
            int[] s = new int[50_000];
            w.recv(s, 50_000, MPI.INT, 0, 4);
            for (int i = 0; i < 50_000 && wrong == null; i++) if (s[i] != 4 * 1000 + i) wrong = "case 4 [" + i + "]";
            byte[] sl = new byte[100_000];
            w.recv(sl, 100_000, MPI.BYTE, 0, 5);
            for (int i = 0; i < 100_000 && wrong == null; i++) {
                if (sl[i] != (byte) ((i + 4099) * 7 + 2)) wrong = "case 5 [" + i + "]";
            }
            int[] part = new int[30_000 + 1];
            part[30_000] = -1;  // the element after the receive: must stay as it is
            try {
                w.recv(part, 30_000, MPI.INT, 0, 6);
                wrong = wrong != null ? wrong : "case 6: no truncation error";
            } catch (MPIException e) {
                if (e.getErrorClass() != MPI.ERR_TRUNCATE) wrong = "case 6: " + e.getMessage();
            }
            for (int i = 0; i < 30_000 && wrong == null; i++) if (part[i] != 4 * 1000 + i) wrong = "case 6 [" + i + "]";
            if (part[30_000] != -1 && wrong == null) wrong = "case 6 wrote past the receive";
            double[][] many = new double[4][];
            Request[] recvs = new Request[4];
            for (int k = 3; k >= 0; k--) {
                many[k] = new double[20_000 + k];
                recvs[k] = w.iRecv(many[k], 20_000 + k, MPI.DOUBLE, 0, 10 + k);
            }
            Request.waitAll(recvs);
            for (int k = 0; k < 4; k++) {
                for (int i = 0; i < 20_000 + k && wrong == null; i++) {
                    if (many[k][i] != value(10 + k, i)) wrong = "case " + (10 + k) + " [" + i + "]";
                }
            }
            DoubleBuffer echo = MPI.newDoubleBuffer(N);
            echo.put(first).flip();
            w.send(echo, N, MPI.DOUBLE, 0, 20);
        }
        w.barrier();
        System.out.println("SINGLECOPY " + rank + " " + ProcessCopy.READS.get() + " " + (wrong == null ? "OK -" : "WRONG " + wrong));
        MPI.Finalize();
    }
}
