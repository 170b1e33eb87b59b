package io.github.mpi4j.api;

import io.github.mpi4j.buffer.TypeRules;
import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.RankTest;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.IntBuffer;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;
import mpi.Status;

/**
 * Buffer/type rules (issue 10 item 3, docs/buffers.md): MPI.BYTE, MPI.PACKED and MPI.CHAR take
 * any primitive array or direct buffer as raw memory, counted in bytes or 16-bit units, with
 * partial elements at either end; numeric types still need their own element kind unless
 * -Dmpi4j.rawBuffers=true. References are the native-order bytes of the values, computed here
 * with a ByteBuffer independently of the library.
 */
public class BufferRulesSuite {
    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();

    /** A value that differs in every byte by rank and index, so a misplaced byte shows. */
    private static int value(int rank, int i) {
        return 0x01020304 * (rank + 1) + 0x10203 * i + 0x55;
    }

    private static int[] ints(int rank, int n) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) a[i] = value(rank, i);
        return a;
    }

    /** The native-order bytes of {@code a}. */
    private static byte[] bytesOf(int[] a) {
        ByteBuffer b = ByteBuffer.allocate(4 * a.length).order(NATIVE);
        b.asIntBuffer().put(a);
        return b.array();
    }

    private static byte[] bytesOf(long[] a) {
        ByteBuffer b = ByteBuffer.allocate(8 * a.length).order(NATIVE);
        b.asLongBuffer().put(a);
        return b.array();
    }

    private static byte[] bytesOf(short[] a) {
        ByteBuffer b = ByteBuffer.allocate(2 * a.length).order(NATIVE);
        b.asShortBuffer().put(a);
        return b.array();
    }

    /** {@code n} bytes of {@code src} from {@code from}, the rest of a {@code len}-byte image filled with {@code fill}. */
    private static byte[] image(byte[] src, int from, int n, int len, byte fill) {
        byte[] out = new byte[len];
        java.util.Arrays.fill(out, fill);
        System.arraycopy(src, from, out, 0, n);
        return out;
    }

    /** An int[] sent as MPI.BYTE with an odd count lands in a long[]: partial elements at the end, untouched rest. */
    @RankTest
    public void bytesOfIntArrayIntoLongArray(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        int right = (rank + 1) % size, left = (rank + size - 1) % size;
        for (int n : new int[] {1, 3, 257, 3001}) {
            int count = 4 * n - 1;
            int[] send = ints(rank, n);
            long[] recv = new long[(count + 7) / 8 + 1];
            java.util.Arrays.fill(recv, -1L);
            Request r = comm.iRecv(recv, count, MPI.BYTE, left, 7);
            comm.send(send, count, MPI.BYTE, right, 7);
            Status s = r.waitStatus();
            Check.equal(count, s.getCount(MPI.BYTE), "received bytes, n=" + n);
            byte[] expect = image(bytesOf(ints(left, n)), 0, count, 8 * recv.length, (byte) -1);
            Check.arrays(expect, bytesOf(recv), "long[] holding the bytes of rank " + left + "'s int[" + n + "]");
        }
    }

    /** A direct CharBuffer and an IntBuffer as MPI.BYTE (OSU-style), blocking and not. */
    @RankTest
    public void bytesOfTypedDirectBuffers(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        int right = (rank + 1) % size, left = (rank + size - 1) % size;
        int n = 101, count = 4 * n - 3;
        IntBuffer send = MPI.newIntBuffer(n);
        send.put(0, ints(rank, n));
        CharBuffer recv = MPI.newCharBuffer(2 * n);
        for (int i = 0; i < 2 * n; i++) recv.put(i, '\uffff');
        Request sr = comm.iSend(send, count, MPI.BYTE, right, 8);
        comm.recv(recv, count, MPI.BYTE, left, 8);
        sr.waitFor();
        char[] got = new char[2 * n];
        recv.get(0, got);
        ByteBuffer gotBytes = ByteBuffer.allocate(4 * n).order(NATIVE);
        gotBytes.asCharBuffer().put(got);
        Check.arrays(image(bytesOf(ints(left, n)), 0, count, 4 * n, (byte) -1), gotBytes.array(),
                "CharBuffer holding IntBuffer bytes");
    }

    /** MPI.CHAR counts 16-bit units over an int[]; mpiJava offsets stay in the array's own elements. */
    @RankTest
    public void charsOfIntArrayWithOffsets(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        int right = (rank + 1) % size, left = (rank + size - 1) % size;
        int n = 40, offset = 3, units = 2 * (n - offset) - 1;
        int[] send = ints(rank, n);
        short[] recv = new short[units + 5];
        java.util.Arrays.fill(recv, (short) 0x7777);
        Status s = comm.Sendrecv(send, offset, units, MPI.CHAR, right, 9, recv, 2, units, MPI.CHAR, left, 9);
        Check.equal(units, s.getCount(MPI.CHAR), "16-bit units received");
        short[] expect = new short[recv.length];
        java.util.Arrays.fill(expect, (short) 0x7777);
        ByteBuffer src = ByteBuffer.wrap(bytesOf(ints(left, n))).order(NATIVE);
        for (int u = 0; u < units; u++) expect[2 + u] = src.getShort(4 * offset + 2 * u);
        Check.arrays(expect, recv, "short[] from offset 2 holding int[] chars from int offset " + offset);
        Check.arrays(bytesOf(ints(rank, n)), bytesOf(send), "send buffer unchanged");
    }

    /** Collectives with MPI.BYTE over typed arrays: bcast with an odd count, allToAll with 3-byte blocks. */
    @RankTest
    public void collectivesWithBytesOfTypedArrays(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        int root = size - 1;
        int n = 65, count = 4 * n - 1;
        int[] b = rank == root ? ints(root, n) : new int[n];
        comm.bcast(b, count, MPI.BYTE, root);
        byte[] expect = bytesOf(ints(root, n));
        if (rank != root) expect[4 * n - 1] = 0;
        Check.arrays(expect, bytesOf(b), "bcast of int[] as " + count + " bytes");

        // allToAll: 3 bytes per peer from a short[] into a long[], blocks straddle elements.
        int block = 3;
        short[] send = new short[(block * size + 1) / 2];
        for (int i = 0; i < send.length; i++) send[i] = (short) (rank * 1000 + i * 7 + 1);
        long[] recv = new long[(block * size + 7) / 8];
        comm.allToAll(send, block, MPI.BYTE, recv, block, MPI.BYTE);
        byte[] got = bytesOf(recv);
        for (int p = 0; p < size; p++) {
            short[] theirs = new short[send.length];
            for (int i = 0; i < theirs.length; i++) theirs[i] = (short) (p * 1000 + i * 7 + 1);
            byte[] tb = bytesOf(theirs);
            for (int j = 0; j < block; j++) {
                Check.equal(tb[rank * block + j], got[p * block + j], "allToAll byte " + j + " from rank " + p);
            }
        }

        // allReduce BXOR of MPI.BYTE over int[]: byte-wise xor of every rank's bytes.
        int m = 33, bytes = 4 * m - 2;
        int[] mine = ints(rank, m), out = new int[m];
        comm.allReduce(mine, out, bytes, MPI.BYTE, MPI.BXOR);
        byte[] ref = new byte[4 * m];
        for (int p = 0; p < size; p++) {
            byte[] pb = bytesOf(ints(p, m));
            for (int i = 0; i < bytes; i++) ref[i] ^= pb[i];
        }
        Check.arrays(ref, bytesOf(out), "allReduce BXOR of " + bytes + " bytes over int[]");
    }

    /** Numeric types keep their element kinds; sizes count in bytes against the buffer's byte size. */
    @RankTest
    public void badTypedUses(Intracomm comm) {
        int self = comm.getRank();
        Check.throwsMpi(MPI.ERR_TYPE, () -> comm.send(new int[4], 2, MPI.DOUBLE, self, 1), "MPI.DOUBLE", "int[]",
                "mpi4j.rawBuffers");
        Check.throwsMpi(MPI.ERR_TYPE, () -> comm.iSend(MPI.newLongBuffer(4), 2, MPI.FLOAT, self, 1), "MPI.FLOAT");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.send(new int[3], 13, MPI.BYTE, self, 1), "13", "int[3]");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.recv(new long[2], 9, MPI.CHAR, self, 1), "9", "long[2]");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.Send(new int[4], 2, 9, MPI.BYTE, self, 1), "offset 2", "9");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.iRecv(MPI.newIntBuffer(2), 5, MPI.CHAR, self, 1), "capacity",
                "2");
        Check.throwsMpi(MPI.ERR_TYPE, () -> comm.send(new Object[2], 2, MPI.BYTE, self, 1), "MPI.BYTE");
        Check.throwsMpi(MPI.ERR_TYPE, () -> comm.send(new int[2], 2, MPI.OBJECT, self, 1), "MPI.OBJECT");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.bcast(new short[1], 3, MPI.BYTE, 0), "3", "short[1]");
    }

    /** -Dmpi4j.rawBuffers=true: every predefined type reads any primitive buffer as raw memory. */
    @RankTest
    public void rawBuffersSwitch(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        int right = (rank + 1) % size, left = (rank + size - 1) % size;
        comm.barrier();
        System.setProperty(TypeRules.RAW_PROPERTY, "true");
        TypeRules.rereadSwitch();
        comm.barrier();
        try {
            int n = 17;
            int[] send = ints(rank, n);
            float[] recv = new float[n];
            Request r = comm.iRecv(recv, n, MPI.FLOAT, left, 11);
            comm.send(send, n, MPI.FLOAT, right, 11);
            r.waitFor();
            int[] back = new int[n];
            for (int i = 0; i < n; i++) back[i] = Float.floatToRawIntBits(recv[i]);
            Check.arrays(ints(left, n), back, "int bits through MPI.FLOAT");
            // Longs as doubles, 8 bytes each: a long[] of 3 holds 3 doubles, 4 do not fit.
            long[] l = new long[] {rank, -rank, 1L << 40};
            double[] d = new double[3];
            comm.sendRecv(l, 3, MPI.DOUBLE, right, 12, d, 3, MPI.DOUBLE, left, 12);
            long[] lb = new long[3];
            for (int i = 0; i < 3; i++) lb[i] = Double.doubleToRawLongBits(d[i]);
            Check.arrays(new long[] {left, -left, 1L << 40}, lb, "long bits through MPI.DOUBLE");
            Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.send(new long[3], 4, MPI.DOUBLE, right, 13), "4", "long[3]");
            Check.throwsMpi(MPI.ERR_TYPE, () -> comm.send(new Object[1], 1, MPI.INT, right, 13), "MPI.INT");
        } finally {
            comm.barrier();
            System.clearProperty(TypeRules.RAW_PROPERTY);
            TypeRules.rereadSwitch();
            comm.barrier();
        }
        Check.throwsMpi(MPI.ERR_TYPE, () -> comm.send(new int[2], 2, MPI.FLOAT, right, 13), "MPI.FLOAT");
    }
}
