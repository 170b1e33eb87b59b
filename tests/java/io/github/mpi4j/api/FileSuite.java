package io.github.mpi4j.api;

import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.RankTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import mpi.Datatype;
import mpi.File;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;
import mpi.Status;

/**
 * MPI-IO (issue 11, item 2). Expectations come from sequential references worked out here from
 * ranks and sizes, and the bytes on disk are read with plain java.nio (native order, no header)
 * as well as through the API, so that a file written by one backend is the file the other reads.
 */
public class FileSuite {

    /** A fresh directory every rank sees: rank 0 makes it and sends its name. */
    static Path sharedDir(Intracomm comm) {
        byte[] name = new byte[4096];
        if (comm.getRank() == 0) {
            try {
                byte[] p = Files.createTempDirectory("mpi4j-file").toString().getBytes(StandardCharsets.UTF_8);
                System.arraycopy(p, 0, name, 0, p.length);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        comm.bcast(name, name.length, MPI.BYTE, 0);
        int n = 0;
        while (name[n] != 0) n++;
        return Paths.get(new String(name, 0, n, StandardCharsets.UTF_8));
    }

    /** Rank 0 removes the directory once every rank is done with it. */
    static void removeDir(Intracomm comm, Path dir) {
        comm.barrier();
        if (comm.getRank() != 0) return;
        try (var files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) Files.delete(p);
            Files.delete(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The file's ints as java.nio reads them: native order, from byte 0. */
    static int[] intsOnDisk(Path file) {
        try {
            ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.nativeOrder());
            int[] v = new int[b.remaining() / 4];
            b.asIntBuffer().get(v);
            return v;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The value the striped test stores at int index {@code i}: who wrote it and where. */
    static int stripedValue(int i, int block, int size) {
        int writer = (i / block) % size;
        return writer * 1_000_003 + i;
    }

    @RankTest
    public void stripedCollectiveWriteReadBackByOneRank(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        Path dir = sharedDir(comm);
        Path path = dir.resolve("striped.dat");
        int block = 5, stripes = 4;
        int total = block * stripes * size;
        File f = new File(comm, path.toString(), MPI.MODE_CREATE | MPI.MODE_WRONLY);
        f.setView(0, MPI.INT, MPI.INT, "native");
        // Stripe k of this rank starts at int (k * size + rank) * block.
        for (int k = 0; k < stripes; k++) {
            int start = (k * size + rank) * block;
            int[] data = new int[block];
            for (int j = 0; j < block; j++) data[j] = stripedValue(start + j, block, size);
            Status s = f.writeAtAll(start, data, block, MPI.INT);
            Check.equal(block, s.getCount(MPI.INT), "ints written in stripe " + k);
        }
        f.close();
        comm.barrier();

        int[] reference = new int[total];
        for (int i = 0; i < total; i++) reference[i] = stripedValue(i, block, size);
        if (rank == 0) {
            Check.arrays(reference, intsOnDisk(path), "file bytes (java.nio, native order) vs sequential reference");
        }
        // Read back through the API by one rank alone (a file opened on a one-rank communicator).
        Intracomm one = comm.split(rank == 0 ? 0 : MPI.UNDEFINED, 0);
        if (rank == 0) {
            File r = new File(one, path.toString(), MPI.MODE_RDONLY);
            Check.equal(4L * total, r.getSize(), "file size in bytes");
            int[] all = new int[total];
            Status s = r.read(all, total, MPI.INT);
            Check.equal(total, s.getCount(MPI.INT), "ints read");
            Check.arrays(reference, all, "read back by one rank vs sequential reference");
            r.close();
            one.free();
        }
        removeDir(comm, dir);
    }

    /**
     * The striped file of issue 11's item 4 through a derived filetype: each rank's view is a
     * vector that takes its block of every stripe, and one collective write of all its blocks
     * lands them in place; every rank then reads its blocks back through the view.
     */
    @RankTest
    public void stripedViewWithDerivedFiletype(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        Path dir = sharedDir(comm);
        Path path = dir.resolve("striped-view.dat");
        int block = 3, stripes = 5;
        int total = block * stripes * size;
        Datatype stripe = Datatype.createVector(stripes, block, block * size, MPI.INT);
        stripe.commit();
        File f = new File(comm, path.toString(), MPI.MODE_CREATE | MPI.MODE_RDWR);
        f.setView(4L * block * rank, MPI.INT, stripe, "native");
        int[] mine = new int[block * stripes];
        for (int k = 0; k < stripes; k++) {
            for (int j = 0; j < block; j++) mine[k * block + j] = stripedValue((k * size + rank) * block + j, block, size);
        }
        Status s = f.writeAll(mine, mine.length, MPI.INT);
        Check.equal(mine.length, s.getCount(MPI.INT), "ints written through the view");
        Check.equal(4L * ((size + rank) * block), f.getByteOffset(block), "byte offset of the second stripe's block");
        f.sync();
        comm.barrier();
        f.sync();
        if (rank == 0) {
            int[] reference = new int[total];
            for (int i = 0; i < total; i++) reference[i] = stripedValue(i, block, size);
            Check.arrays(reference, intsOnDisk(path), "file bytes (java.nio) vs sequential reference");
        }
        int[] back = new int[mine.length];
        f.readAtAll(0, back, back.length, MPI.INT);
        Check.arrays(mine, back, "own blocks read back through the view");
        f.close();
        stripe.free();
        removeDir(comm, dir);
    }

    @RankTest
    public void orderedAndSharedPointerWrites(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        Path dir = sharedDir(comm);
        Path path = dir.resolve("ordered.dat");
        File f = new File(comm, path.toString(), MPI.MODE_CREATE | MPI.MODE_RDWR);
        f.setView(0, MPI.INT, MPI.INT, "native");
        // Rank r writes r + 1 ints r * 100 + j; the file holds the pieces in rank order.
        int[] mine = new int[rank + 1];
        for (int j = 0; j <= rank; j++) mine[j] = rank * 100 + j;
        Status s = f.writeOrdered(mine, mine.length, MPI.INT);
        Check.equal(mine.length, s.getCount(MPI.INT), "ints written in order");
        int orderedTotal = size * (size + 1) / 2;
        Check.equal(orderedTotal, f.getPositionShared(), "shared pointer after writeOrdered");
        comm.barrier(); // every rank has looked before any moves the pointer again

        // Then one int per rank through the shared pointer, in whatever order ranks come.
        f.writeShared(new int[] {-1 - rank}, 1, MPI.INT);
        f.sync();
        comm.barrier();
        f.sync();
        Check.equal(orderedTotal + size, f.getPositionShared(), "shared pointer after one writeShared per rank");
        comm.barrier(); // MPI's seekShared below need not wait for every rank to have looked

        int[] expectedOrdered = new int[orderedTotal];
        int at = 0;
        for (int r = 0; r < size; r++) for (int j = 0; j <= r; j++) expectedOrdered[at++] = r * 100 + j;
        int[] disk = intsOnDisk(path);
        Check.equal(orderedTotal + size, disk.length, "ints on disk");
        Check.arrays(expectedOrdered, Arrays.copyOf(disk, orderedTotal), "ordered part on disk");
        int[] tail = Arrays.copyOfRange(disk, orderedTotal, disk.length);
        Arrays.sort(tail);
        int[] expectedTail = new int[size];
        for (int r = 0; r < size; r++) expectedTail[r] = -size + r;
        Check.arrays(expectedTail, tail, "each rank's writeShared exactly once");

        // readOrdered from the start gives every rank its own piece back.
        f.seekShared(0, MPI.SEEK_SET);
        int[] back = new int[rank + 1];
        f.readOrdered(back, back.length, MPI.INT);
        Check.arrays(mine, back, "readOrdered piece");
        f.close();
        removeDir(comm, dir);
    }

    @RankTest
    public void individualPointerViewsAndNonBlocking(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        Path dir = sharedDir(comm);
        Path path = dir.resolve("pointers.dat");
        File f = new File(comm, path.toString(), MPI.MODE_CREATE | MPI.MODE_RDWR | MPI.MODE_DELETE_ON_CLOSE);
        // Each rank's view starts at its own 8-double region after a 16-byte header region.
        long disp = 16 + 64L * rank;
        f.setView(disp, MPI.DOUBLE, MPI.DOUBLE, "native");
        Check.equal(0, f.getPosition(), "pointer after setView");
        Check.equal(disp + 3 * 8, f.getByteOffset(3), "byte offset of etype 3");
        double[] first = {rank + 0.5, rank + 1.5, rank + 2.5};
        f.write(first, 3, MPI.DOUBLE);
        Check.equal(3, f.getPosition(), "pointer after writing 3 doubles");
        ByteBuffer direct = ByteBuffer.allocateDirect(5 * 8).order(ByteOrder.nativeOrder());
        for (int j = 0; j < 5; j++) direct.putDouble(j * 8, rank * 10 + j);
        Request w = f.iWrite(direct.asDoubleBuffer(), 5, MPI.DOUBLE);
        Status ws = w.waitStatus();
        Check.equal(5, ws.getCount(MPI.DOUBLE), "iWrite count");
        Check.equal(8, f.getPosition(), "pointer after iWrite");
        f.sync();
        comm.barrier();
        f.sync();
        Check.equal(16 + 64L * size, f.getSize(), "file size: every rank's region");

        f.seek(-8, MPI.SEEK_CUR);
        double[] all = new double[8];
        f.readAll(all, 8, MPI.DOUBLE);
        double[] expected = {rank + 0.5, rank + 1.5, rank + 2.5, rank * 10, rank * 10 + 1, rank * 10 + 2,
                rank * 10 + 3, rank * 10 + 4};
        Check.arrays(expected, all, "own region read back");
        f.seek(2, MPI.SEEK_SET);
        java.nio.DoubleBuffer in = ByteBuffer.allocateDirect(8).order(ByteOrder.nativeOrder()).asDoubleBuffer();
        Status rs = f.iReadAt(6, in, 1, MPI.DOUBLE).waitStatus();
        Check.equal(1, rs.getCount(MPI.DOUBLE), "iReadAt count");
        Check.equal(expected[6], in.get(0), "iReadAt value");
        Check.equal(2, f.getPosition(), "explicit offsets leave the pointer alone");

        // Split collective: begin does the access, end reports it.
        double[] two = new double[2];
        f.readAtAllBegin(1, two, 2, MPI.DOUBLE);
        Status es = f.readAtAllEnd(two);
        Check.equal(2, es.getCount(MPI.DOUBLE), "split collective count");
        Check.arrays(new double[] {expected[1], expected[2]}, two, "split collective values");

        // Reading at the end gives count 0; across the end, what is there.
        f.setView(0, MPI.INT, MPI.INT, "native");
        int ints = (int) (f.getSize() / 4);
        Status past = f.readAt(ints + 10, new int[4], 4, MPI.INT);
        Check.equal(0, past.getCount(MPI.INT), "read past the end");
        Status across = f.readAt(ints - 1, new int[4], 4, MPI.INT);
        Check.equal(1, across.getCount(MPI.INT), "read across the end");
        f.seek(0, MPI.SEEK_END);
        Check.equal(ints, f.getPosition(), "SEEK_END");
        comm.barrier(); // every rank is done reading at the end before the size changes

        // Sizes: preallocate grows, setSize shrinks and grows.
        f.preallocate(4096);
        Check.equal(4096, f.getSize(), "size after preallocate");
        comm.barrier(); // every rank has looked before setSize shrinks it
        f.setSize(100);
        Check.equal(100, f.getSize(), "size after setSize(100)");
        f.setAtomicity(true);
        Check.isTrue(f.getAtomicity(), "atomicity set");
        f.writeAt(rank, new int[] {rank}, 1, MPI.INT);
        f.setAtomicity(false);
        comm.barrier();
        int[] firstInts = new int[size];
        f.readAt(0, firstInts, size, MPI.INT);
        for (int r = 0; r < size; r++) Check.equal(r, firstInts[r], "int " + r + " written in atomic mode");
        Check.equal(MPI.MODE_CREATE | MPI.MODE_RDWR | MPI.MODE_DELETE_ON_CLOSE, f.getAMode(), "amode");
        Check.equal(size, f.getGroup().getSize(), "group size");
        f.close();
        comm.barrier();
        Check.isTrue(!Files.exists(path), "MODE_DELETE_ON_CLOSE removed the file");
        removeDir(comm, dir);
    }

    @RankTest
    public void appendModeStartsPointersAtTheEnd(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        Path dir = sharedDir(comm);
        Path path = dir.resolve("append.dat");
        if (rank == 0) {
            try {
                Files.write(path, new byte[] {1, 2, 3, 4, 5, 6, 7});
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        comm.barrier();
        File f = new File(comm, path.toString(), MPI.MODE_WRONLY | MPI.MODE_APPEND);
        Check.equal(7, f.getPosition(), "individual pointer starts at the end");
        Check.equal(7, f.getPositionShared(), "shared pointer starts at the end");
        comm.barrier(); // every rank has looked before writeOrdered moves it
        f.writeOrdered(new byte[] {(byte) (10 + rank)}, 1, MPI.BYTE);
        f.close();
        if (rank == 0) {
            try {
                byte[] disk = Files.readAllBytes(path);
                byte[] expected = new byte[7 + size];
                for (int i = 0; i < 7; i++) expected[i] = (byte) (i + 1);
                for (int r = 0; r < size; r++) expected[7 + r] = (byte) (10 + r);
                Check.arrays(expected, disk, "appended in rank order after the old bytes");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        removeDir(comm, dir);
    }

    @RankTest
    public void badInputGivesClearExceptions(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        Path dir = sharedDir(comm);
        String name = dir.resolve("bad.dat").toString();
        // Access modes MPI forbids, refused before anything happens on disk.
        Check.throwsMpi(MPI.ERR_AMODE, () -> new File(comm, name, MPI.MODE_RDONLY | MPI.MODE_CREATE),
                "amode", name, "MODE_RDONLY");
        Check.throwsMpi(MPI.ERR_AMODE, () -> new File(comm, name, MPI.MODE_CREATE), "exactly one");
        Check.throwsMpi(MPI.ERR_AMODE, () -> new File(comm, name, MPI.MODE_RDWR | MPI.MODE_WRONLY), "exactly one");
        Check.throwsMpi(MPI.ERR_AMODE, () -> new File(comm, name, MPI.MODE_RDWR | MPI.MODE_SEQUENTIAL),
                "MODE_SEQUENTIAL");
        Check.throwsMpi(MPI.ERR_AMODE, () -> new File(comm, name, MPI.MODE_RDWR | 1 << 20), "bits");
        Check.isTrue(!Files.exists(Paths.get(name)), "no file made by refused opens");
        Check.throwsMpi(MPI.ERR_NO_SUCH_FILE, () -> new File(comm, name, MPI.MODE_RDONLY));

        File w = new File(comm, name, MPI.MODE_CREATE | MPI.MODE_EXCL | MPI.MODE_WRONLY);
        w.writeAt(rank * 4L, new int[] {rank}, 1, MPI.INT);
        Check.throwsMpi(MPI.ERR_ACCESS, () -> w.read(new int[1], 1, MPI.INT), name, "MODE_WRONLY");
        w.close();
        Check.throwsMpi(MPI.ERR_FILE, () -> w.getSize(), name, "closed");
        Check.throwsMpi(MPI.ERR_FILE_EXISTS, () -> new File(comm, name, MPI.MODE_CREATE | MPI.MODE_EXCL | MPI.MODE_RDWR));

        File r = new File(comm, name, MPI.MODE_RDONLY);
        long before = r.getSize();
        Check.equal(4L * size, before, "size before refused writes");
        Check.throwsMpi(MPI.ERR_READ_ONLY, () -> r.write(new int[] {7}, 1, MPI.INT), name, "MODE_RDONLY");
        Check.throwsMpi(MPI.ERR_READ_ONLY, () -> r.writeAt(0, new int[] {7}, 1, MPI.INT), name, "MODE_RDONLY");
        Check.throwsMpi(MPI.ERR_READ_ONLY, () -> r.setSize(0), name, "MODE_RDONLY");
        Check.throwsMpi(MPI.ERR_ARG, () -> r.readAt(-1, new int[1], 1, MPI.INT), "offset", "-1");
        Check.throwsMpi(MPI.ERR_ARG, () -> r.seek(0, 12345), "whence", "12345");
        Check.throwsMpi(MPI.ERR_ARG, () -> r.seek(-1, MPI.SEEK_SET), "before the start");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> r.read(new int[2], 3, MPI.INT));
        Check.throwsMpi(MPI.ERR_UNSUPPORTED_DATAREP, () -> r.setView(0, MPI.INT, MPI.INT, "external64"),
                "external64");
        Check.throwsMpi(MPI.ERR_TYPE, () -> r.setView(0, MPI.DOUBLE, MPI.INT, "native"), "etype");
        // A collective that fails its checks on the last rank only fails on every rank, without a hang.
        int bad = size - 1;
        Check.throwsMpi(MPI.ERR_COUNT, () -> r.readAtAll(0, new int[1], rank == bad ? -1 : 1, MPI.INT));
        // Reading everything back shows the refused writes left the file as it was.
        int[] back = new int[size];
        Status s = r.readAtAll(0, back, size, MPI.INT);
        Check.equal(size, s.getCount(MPI.INT), "count read");
        for (int q = 0; q < size; q++) Check.equal(q, back[q], "int " + q);
        Check.equal(before, r.getSize(), "size unchanged");
        r.close();
        removeDir(comm, dir);
    }

    /** File.delete is static: it reaches the backend through MPI.COMM_WORLD, so ranks are processes here. */
    @RankTest(processOnly = true)
    public void deleteRemovesOnlyExistingFiles(Intracomm comm) {
        Path dir = sharedDir(comm);
        String name = dir.resolve("gone.dat").toString();
        File f = new File(comm, name, MPI.MODE_CREATE | MPI.MODE_WRONLY);
        f.close();
        comm.barrier();
        if (comm.getRank() == 0) {
            Check.isTrue(Files.exists(Paths.get(name)), "file made by MODE_CREATE");
            File.delete(name);
            Check.isTrue(!Files.exists(Paths.get(name)), "file deleted");
            Check.throwsMpi(MPI.ERR_NO_SUCH_FILE, () -> File.delete(name), name);
        }
        removeDir(comm, dir);
    }
}
