package io.github.mpi4j.api;

import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.RankTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import mpi.Datatype;
import mpi.File;
import mpi.FloatInt;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;
import mpi.Status;

/**
 * Files in the "external32" representation (issue 11, FileExternal32Test): every element on disk
 * big-endian in Java's sizes, whichever backend wrote it. The references are independent of
 * mpi4j: the file's bytes are read with java.nio and compared with the values (computed from
 * rank and index) encoded by a big-endian {@link ByteBuffer}; reads through the view must give
 * the values back, reads through a native view their byte-reversed forms.
 */
public class FileExternal32Suite {
    private static final int N = 12;

    private static int intValue(int rank, int i) {
        return 0x01020304 * (rank + 1) + 977 * i - 5000;
    }

    private static long longValue(int rank, int i) {
        return 0x0102030405060708L * (rank + 1) - 31L * i;
    }

    private static double doubleValue(int rank, int i) {
        return (rank + 1) * 1.5e-3 - i * 7.25;
    }

    private static byte[] fileBytes(Path p) {
        try {
            return Files.readAllBytes(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void remove(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ByteBuffer bigEndian(byte[] b) {
        return ByteBuffer.wrap(b).order(ByteOrder.BIG_ENDIAN);
    }

    /** A communicator of this rank alone (MPI.COMM_SELF is the process's, and thread ranks share a process). */
    private static Intracomm self(Intracomm comm) {
        return comm.split(comm.getRank(), 0);
    }

    private static File open(Intracomm comm, Path p) {
        return new File(comm, p.toString(), MPI.MODE_CREATE | MPI.MODE_RDWR);
    }

    /** Each rank's ints in its own block, written collectively from an array; the bytes on disk are big-endian. */
    @RankTest
    public void intsFromArraysAreBigEndianOnDisk(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        Path p = FileSuite.sharedDir(comm).resolve("ints.e32");
        File f = open(comm, p);
        f.setView(0, MPI.INT, MPI.INT, "external32");
        Check.equal("external32", f.getView().getDataRep(), "getView's datarep");
        int[] mine = new int[N];
        for (int i = 0; i < N; i++) mine[i] = intValue(rank, i);
        f.writeAtAll((long) rank * N, mine, N, MPI.INT);
        f.sync();
        comm.barrier();
        f.sync();
        if (rank == 0) {
            ByteBuffer disk = bigEndian(fileBytes(p));
            Check.equal(4L * N * size, disk.capacity(), "file size");
            for (int r = 0; r < size; r++) {
                for (int i = 0; i < N; i++) {
                    Check.equal(intValue(r, i), disk.getInt(4 * (r * N + i)), "int " + i + " of rank " + r + " on disk");
                }
            }
        }
        int[] back = new int[N];
        Status s = f.readAtAll((long) ((rank + 1) % size) * N, back, N, MPI.INT);
        Check.equal(N, s.getCount(MPI.INT), "ints read back");
        for (int i = 0; i < N; i++) Check.equal(intValue((rank + 1) % size, i), back[i], "int " + i + " read back");
        // The same file through a native view: each int's bytes reversed (on a little-endian machine).
        f.setView(0, MPI.INT, MPI.INT, "native");
        int[] raw = new int[N];
        f.readAt((long) rank * N, raw, N, MPI.INT);
        boolean little = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;
        for (int i = 0; i < N; i++) {
            int v = intValue(rank, i);
            Check.equal(little ? Integer.reverseBytes(v) : v, raw[i], "int " + i + " through a native view");
        }
        f.close();
    }

    /** Longs and doubles from direct buffers, striped among the ranks by a vector filetype. */
    @RankTest
    public void stripedLongsAndDoublesFromDirectBuffers(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        Path dir = FileSuite.sharedDir(comm);
        Path pl = dir.resolve("longs.e32"), pd = dir.resolve("doubles.e32");
        // Element i of rank r goes to slot i * size + r of the file.
        Datatype longStripe = Datatype.createResized(MPI.LONG, 0, 8 * size);
        longStripe.commit();
        Datatype doubleStripe = Datatype.createResized(MPI.DOUBLE, 0, 8 * size);
        doubleStripe.commit();
        File fl = open(comm, pl);
        File fd = open(comm, pd);
        fl.setView(8L * rank, MPI.LONG, longStripe, "external32");
        fd.setView(8L * rank, MPI.DOUBLE, doubleStripe, "external32");
        ByteBuffer lb = MPI.newByteBuffer(8 * N), db = MPI.newByteBuffer(8 * N);
        for (int i = 0; i < N; i++) {
            lb.putLong(8 * i, longValue(rank, i));
            db.putDouble(8 * i, doubleValue(rank, i));
        }
        fl.writeAll(lb, N, MPI.LONG);
        fd.writeAll(db, N, MPI.DOUBLE);
        for (int i = 0; i < N; i++) {
            Check.equal(longValue(rank, i), lb.getLong(8 * i), "the user's long " + i + " is left as it was");
        }
        fl.sync();
        fd.sync();
        comm.barrier();
        fl.sync();
        fd.sync();
        if (rank == size - 1) {
            ByteBuffer dl = bigEndian(fileBytes(pl)), dd = bigEndian(fileBytes(pd));
            for (int i = 0; i < N; i++) {
                for (int r = 0; r < size; r++) {
                    int slot = i * size + r;
                    Check.equal(longValue(r, i), dl.getLong(8 * slot), "long " + i + " of rank " + r + " on disk");
                    Check.equal(Double.doubleToRawLongBits(doubleValue(r, i)), Double.doubleToRawLongBits(dd.getDouble(8 * slot)),
                            "double " + i + " of rank " + r + " on disk");
                }
            }
        }
        long[] la = new long[N];
        double[] da = new double[N];
        fl.seek(0, MPI.SEEK_SET);
        fd.seek(0, MPI.SEEK_SET);
        fl.readAll(la, N, MPI.LONG);
        fd.readAll(da, N, MPI.DOUBLE);
        for (int i = 0; i < N; i++) {
            Check.equal(longValue(rank, i), la[i], "long " + i + " read back into an array");
            Check.equal(Double.doubleToRawLongBits(doubleValue(rank, i)), Double.doubleToRawLongBits(da[i]),
                    "double " + i + " read back into an array");
        }
        fl.close();
        fd.close();
        longStripe.free();
        doubleStripe.free();
    }

    /** Shorts, chars, floats and booleans: 2, 2, 4 and 1 bytes per element, big-endian. */
    @RankTest
    public void smallerTypes(Intracomm comm) {
        int rank = comm.getRank();
        Path p = FileSuite.sharedDir(comm).resolve("rank" + rank + ".e32");
        File f = new File(self(comm), p.toString(), MPI.MODE_CREATE | MPI.MODE_RDWR);
        short[] sh = new short[N];
        char[] ch = new char[N];
        float[] fl = new float[N];
        boolean[] bo = new boolean[N];
        for (int i = 0; i < N; i++) {
            sh[i] = (short) (0x1234 * (rank + 1) - 99 * i);
            ch[i] = (char) (0xA1B2 + 7 * i + rank);
            fl[i] = (rank - 2.5f) * i + 0.125f;
            bo[i] = (i + rank) % 3 == 0;
        }
        f.setView(0, MPI.BYTE, MPI.BYTE, "external32");
        f.writeAt(0, sh, N, MPI.SHORT);
        f.writeAt(2 * N, ch, N, MPI.CHAR);
        f.writeAt(4 * N, fl, N, MPI.FLOAT);
        f.writeAt(8 * N, bo, N, MPI.BOOLEAN);
        f.sync();
        ByteBuffer disk = bigEndian(fileBytes(p));
        Check.equal(9L * N, disk.capacity(), "file size");
        for (int i = 0; i < N; i++) {
            Check.equal(sh[i], disk.getShort(2 * i), "short " + i);
            Check.equal(ch[i], disk.getChar(2 * N + 2 * i), "char " + i);
            Check.equal(Float.floatToRawIntBits(fl[i]), disk.getInt(4 * N + 4 * i), "float " + i);
            Check.equal(bo[i] ? 1 : 0, disk.get(8 * N + i), "boolean " + i);
        }
        short[] sh2 = new short[N];
        char[] ch2 = new char[N];
        float[] fl2 = new float[N];
        boolean[] bo2 = new boolean[N];
        f.readAt(0, sh2, N, MPI.SHORT);
        f.readAt(2 * N, ch2, N, MPI.CHAR);
        f.readAt(4 * N, fl2, N, MPI.FLOAT);
        f.readAt(8 * N, bo2, N, MPI.BOOLEAN);
        Check.arrays(sh, sh2, "shorts read back");
        Check.arrays(ch, ch2, "chars read back");
        Check.arrays(fl, fl2, "floats read back");
        Check.arrays(bo, bo2, "booleans read back");
        f.close();
        remove(p);
    }

    /**
     * A memory type with gaps (every other int of the array): only the data elements are
     * converted and filled; a short read at the end of the file fills the ints it got and leaves
     * the rest of the buffer as it was.
     */
    @RankTest
    public void gapsAndShortReadsLeaveTheRestAlone(Intracomm comm) {
        int rank = comm.getRank();
        Path p = FileSuite.sharedDir(comm).resolve("gaps" + rank + ".e32");
        File f = new File(self(comm), p.toString(), MPI.MODE_CREATE | MPI.MODE_RDWR);
        f.setView(0, MPI.INT, MPI.INT, "external32");
        Datatype everyOther = Datatype.createVector(N, 1, 2, MPI.INT);
        everyOther.commit();
        int[] src = new int[2 * N];
        for (int i = 0; i < 2 * N; i++) src[i] = i % 2 == 0 ? intValue(rank, i / 2) : -1;
        f.writeAt(0, src, 1, everyOther);
        f.sync();
        ByteBuffer disk = bigEndian(fileBytes(p));
        Check.equal(4L * N, disk.capacity(), "only the data went to the file");
        for (int i = 0; i < N; i++) Check.equal(intValue(rank, i), disk.getInt(4 * i), "int " + i + " on disk");

        int sentinel = 0x5A5A5A5A;
        int[] dst = new int[2 * N];
        java.util.Arrays.fill(dst, sentinel);
        int from = N - 5; // 5 ints left before the end of the file
        Status s = f.readAt(from, dst, 1, everyOther);
        String lib = MPI.getLibVersion();
        if (lib == null || !lib.contains("MPICH")) {
            // ROMIO in MPICH 4.0 reports the whole count for a short read into a non-contiguous memory type.
            Check.equal(5, s.getElements(MPI.INT), "ints read before the end of the file");
        }
        for (int i = 0; i < 2 * N; i++) {
            int want = i % 2 == 0 && i / 2 < 5 ? intValue(rank, from + i / 2) : sentinel;
            Check.equal(want, dst[i], "element " + i + " after a short read through a vector");
        }
        everyOther.free();
        f.close();
        remove(p);
    }

    /** Non-blocking and split collective accesses convert too (the read when it completes). */
    @RankTest
    public void nonBlockingAndSplitAccesses(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        Path p = FileSuite.sharedDir(comm).resolve("nb.e32");
        File f = open(comm, p);
        f.setView(0, MPI.INT, MPI.INT, "external32");
        IntBuffer out = MPI.newIntBuffer(N);
        for (int i = 0; i < N; i++) out.put(i, intValue(rank, i));
        Request w = f.iWriteAt((long) rank * N, out, N, MPI.INT);
        w.waitFor();
        f.sync();
        comm.barrier();
        f.sync();
        int peer = (rank + size - 1) % size;
        IntBuffer in = MPI.newIntBuffer(N);
        Request r = f.iReadAt((long) peer * N, in, N, MPI.INT);
        Status s = r.waitStatus();
        Check.equal(N, s.getCount(MPI.INT), "ints of the non-blocking read");
        for (int i = 0; i < N; i++) Check.equal(intValue(peer, i), in.get(i), "int " + i + " of iReadAt");
        int[] split = new int[N];
        f.readAtAllBegin((long) peer * N, split, N, MPI.INT);
        f.readAtAllEnd(split);
        for (int i = 0; i < N; i++) Check.equal(intValue(peer, i), split[i], "int " + i + " of readAtAllBegin/End");
        if (rank == 0) {
            ByteBuffer disk = bigEndian(fileBytes(p));
            for (int i = 0; i < N; i++) Check.equal(intValue(size - 1, i), disk.getInt(4 * ((size - 1) * N + i)),
                    "int " + i + " of the last rank on disk");
        }
        f.close();
    }

    /** MPI.FLOAT_INT has no padding: a big-endian float and a big-endian int per item. */
    @RankTest
    public void floatIntPairs(Intracomm comm) {
        int rank = comm.getRank();
        Path p = FileSuite.sharedDir(comm).resolve("pairs" + rank + ".e32");
        File f = new File(self(comm), p.toString(), MPI.MODE_CREATE | MPI.MODE_RDWR);
        f.setView(0, MPI.FLOAT_INT, MPI.FLOAT_INT, "external32");
        FloatInt fi = MPI.floatInt;
        ByteBuffer out = MPI.newByteBuffer(8 * N);
        for (int i = 0; i < N; i++) {
            FloatInt.Data d = fi.getData(out, i);
            d.putValue(i * 0.5f - rank);
            d.putIndex(1000 * rank + i);
        }
        f.writeAt(0, out, N, MPI.FLOAT_INT);
        f.sync();
        ByteBuffer disk = bigEndian(fileBytes(p));
        for (int i = 0; i < N; i++) {
            Check.equal(Float.floatToRawIntBits(i * 0.5f - rank), disk.getInt(8 * i), "value " + i + " on disk");
            Check.equal(1000 * rank + i, disk.getInt(8 * i + 4), "index " + i + " on disk");
        }
        ByteBuffer in = MPI.newByteBuffer(8 * N);
        f.readAt(0, in, N, MPI.FLOAT_INT);
        for (int i = 0; i < N; i++) {
            FloatInt.Data d = fi.getData(in, i);
            Check.equal(Float.floatToRawIntBits(i * 0.5f - rank), Float.floatToRawIntBits(d.getValue()), "value " + i);
            Check.equal(1000 * rank + i, d.getIndex(), "index " + i);
        }
        f.close();
        remove(p);
    }

    /** Padded types and unknown representations are refused, naming the argument. */
    @RankTest
    public void refusals(Intracomm comm) {
        int rank = comm.getRank();
        Path p = FileSuite.sharedDir(comm).resolve("bad" + rank + ".e32");
        File f = new File(self(comm), p.toString(), MPI.MODE_CREATE | MPI.MODE_RDWR);
        Check.throwsMpi(MPI.ERR_UNSUPPORTED_DATAREP, () -> f.setView(0, MPI.DOUBLE_INT, MPI.DOUBLE_INT, "external32"),
                "etype", "padding");
        Check.throwsMpi(MPI.ERR_UNSUPPORTED_DATAREP, () -> f.setView(0, MPI.INT, MPI.INT, "external64"),
                "external64");
        f.setView(0, MPI.BYTE, MPI.BYTE, "external32");
        ByteBuffer b = MPI.newByteBuffer(64);
        Check.throwsMpi(MPI.ERR_UNSUPPORTED_DATAREP, () -> f.writeAt(0, b, 2, MPI.SHORT_INT), "datatype", "padding");
        Check.equal(0L, f.getSize(), "nothing was written by the refused call");
        f.close();
        remove(p);
    }
}
