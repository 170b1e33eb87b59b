package io.github.mpi4j.api;

import static io.github.mpi4j.api.FileSuite.intsOnDisk;
import static io.github.mpi4j.api.FileSuite.removeDir;
import static io.github.mpi4j.api.FileSuite.sharedDir;

import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.RankTest;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import mpi.Datatype;
import mpi.File;
import mpi.Info;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;
import mpi.Status;

/**
 * MPI-IO beyond the basics (issue 11, item 2): non-blocking accesses and split collectives that
 * go on after the call, collective buffering and its hints, the shared pointer under many
 * concurrent writers, atomic mode, and refusals. References are worked out here from rank and
 * size, and the file's bytes are read with plain java.nio.
 */
public class FileAsyncSuite {

    static boolean fabric() {
        return !"mpi".equals(io.github.mpi4j.Mpi4j.backendName());
    }

    /**
     * Whether atomic mode is checked for strictly: not on Open MPI, whose OMPIO (4.1, local file
     * systems) does not lock non-contiguous accesses and lets concurrent ones mix.
     */
    static boolean strictAtomicity() {
        return fabric() || !MPI.getLibVersion().contains("Open MPI");
    }

    static IntBuffer directInts(int n) {
        return ByteBuffer.allocateDirect(4 * n).order(ByteOrder.nativeOrder()).asIntBuffer();
    }

    /** Waits by testing, with a deadline: a request that never completes fails the test instead of hanging. */
    static Status testUntilDone(Request r, String what) {
        long end = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < end) {
            Status s = r.testStatus();
            if (s != null) return s;
            Thread.onSpinWait();
        }
        throw new AssertionError(what + ": request not complete after 60 s");
    }

    /**
     * Interleaved file with holes: stripe k holds every rank's {@code block} ints in rank order,
     * then {@code gap} ints nobody writes. The int at {@code i} is {@code value(writer, i)} or 0.
     */
    static int holeyValue(int i, int block, int gap, int size) {
        int stride = block * size + gap;
        int j = i % stride;
        return j < block * size ? (j / block) * 1_000_003 + i + 1 : 0;
    }

    /** Each rank's filetype: its block of every stripe, resized so that stripes tile. */
    static Datatype holeyFiletype(int stripes, int block, int gap, int size) {
        Datatype v = Datatype.createVector(stripes, block, block * size + gap, MPI.INT);
        v.commit();
        return v;
    }

    @RankTest
    public void nonBlockingAccessesGoOnAfterTheCall(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        Path dir = sharedDir(comm);
        Path path = dir.resolve("nb.dat");
        File f = new File(comm, path.toString(), MPI.MODE_CREATE | MPI.MODE_RDWR);
        f.setView(0, MPI.INT, MPI.INT, "native");
        // Four independent writes outstanding at once: rank r's quarter q is ints [(r*4+q)*8, +8).
        Request[] w = new Request[4];
        IntBuffer[] bufs = new IntBuffer[4];
        for (int q = 0; q < 4; q++) {
            bufs[q] = directInts(8);
            for (int j = 0; j < 8; j++) bufs[q].put(j, 100 * rank + 10 * q + j);
            w[q] = f.iWriteAt((rank * 4L + q) * 8, bufs[q], 8, MPI.INT);
        }
        for (int q = 0; q < 4; q++) {
            Status s = q % 2 == 0 ? w[q].waitStatus() : testUntilDone(w[q], "iWriteAt " + q);
            Check.equal(8, s.getCount(MPI.INT), "iWriteAt " + q + " count");
        }
        // A collective one: every rank's 8 ints after the independent part.
        int base = size * 32;
        IntBuffer all = directInts(8);
        for (int j = 0; j < 8; j++) all.put(j, -(rank * 8 + j) - 1);
        Request c = f.iWriteAtAll(base + rank * 8L, all, 8, MPI.INT);
        Check.equal(8, c.waitStatus().getCount(MPI.INT), "iWriteAtAll count");
        f.sync();
        comm.barrier();
        f.sync();
        int[] disk = intsOnDisk(path);
        Check.equal(size * 40, disk.length, "ints on disk");
        for (int r = 0; r < size; r++) {
            for (int q = 0; q < 4; q++) {
                for (int j = 0; j < 8; j++) {
                    Check.equal(100 * r + 10 * q + j, disk[(r * 4 + q) * 8 + j], "independent int of rank " + r);
                }
            }
            for (int j = 0; j < 8; j++) Check.equal(-(r * 8 + j) - 1, disk[base + r * 8 + j], "collective int of " + r);
        }
        // Reads: the neighbour's quarters back, non-blocking, through the individual pointer and collectively.
        int next = (rank + 1) % size;
        f.seek(next * 32L, MPI.SEEK_SET);
        IntBuffer in = directInts(16);
        Request r1 = f.iRead(in, 16, MPI.INT);
        Check.equal(next * 32L + 16, f.getPosition(), "the pointer moves at the call");
        IntBuffer in2 = directInts(8);
        Request r2 = f.iReadAtAll(base + next * 8L, in2, 8, MPI.INT);
        Check.equal(16, r1.waitStatus().getCount(MPI.INT), "iRead count");
        Check.equal(8, r2.waitStatus().getCount(MPI.INT), "iReadAtAll count");
        for (int j = 0; j < 16; j++) Check.equal(100 * next + 10 * (j / 8) + j % 8, in.get(j), "iRead int " + j);
        for (int j = 0; j < 8; j++) Check.equal(-(next * 8 + j) - 1, in2.get(j), "iReadAtAll int " + j);
        IntBuffer in3 = directInts(8);
        f.seek(base + next * 8L, MPI.SEEK_SET);
        Check.equal(8, f.iReadAll(in3, 8, MPI.INT).waitStatus().getCount(MPI.INT), "iReadAll count");
        for (int j = 0; j < 8; j++) Check.equal(-(next * 8 + j) - 1, in3.get(j), "iReadAll int " + j);
        // Past the end: count 0, and a request that reads across the end gets what is there.
        IntBuffer tail = directInts(4);
        Check.equal(0, f.iReadAt(size * 40L + 5, tail, 4, MPI.INT).waitStatus().getCount(MPI.INT), "past the end");
        Check.equal(2, f.iReadAt(size * 40L - 2, tail, 4, MPI.INT).waitStatus().getCount(MPI.INT), "across the end");
        // Non-blocking accesses take direct buffers only (they go on after the call).
        Check.throwsMpi(MPI.ERR_BUFFER, () -> f.iWriteAt(0, IntBuffer.allocate(4), 4, MPI.INT), "direct");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> f.iReadAll(IntBuffer.allocate(4), 4, MPI.INT), "direct");
        comm.barrier();
        Check.equal(size * 160L, f.getSize(), "refused accesses wrote nothing");
        f.close();
        removeDir(comm, dir);
    }

    @RankTest
    public void cancelledWriteLeavesItsRegionAlone(Intracomm comm) {
        int rank = comm.getRank();
        Path dir = sharedDir(comm);
        Path path = dir.resolve("cancel.dat");
        File f = new File(comm, path.toString(), MPI.MODE_CREATE | MPI.MODE_RDWR);
        int n = 16;
        Request[] w = new Request[n];
        for (int q = 0; q < n; q++) {
            IntBuffer b = directInts(256);
            for (int j = 0; j < 256; j++) b.put(j, q + 1);
            w[q] = f.iWriteAt((rank * (long) n + q) * 1024, b, 256, MPI.INT);
        }
        w[n - 1].cancel();
        boolean[] cancelled = new boolean[n];
        for (int q = 0; q < n; q++) {
            Status s = w[q].waitStatus();
            cancelled[q] = s.isCancelled();
            Check.equal(cancelled[q] ? 0 : 256, s.getCount(MPI.INT), "count of write " + q);
        }
        for (int q = 0; q < n - 1; q++) Check.isTrue(!cancelled[q], "write " + q + " was not cancelled");
        // Whatever happened to the cancelled one, the file says the same.
        IntBuffer back = directInts(256);
        Status s = f.iReadAt((rank * (long) n + n - 1) * 1024, back, 256, MPI.INT).waitStatus();
        if (cancelled[n - 1]) {
            boolean zeros = true;
            for (int j = 0; j < s.getCount(MPI.INT); j++) zeros &= back.get(j) == 0;
            Check.isTrue(zeros, "a cancelled write wrote nothing");
        } else {
            Check.equal(256, s.getCount(MPI.INT), "the write that completed is there");
            for (int j = 0; j < 256; j++) Check.equal(n, back.get(j), "int " + j);
        }
        f.close();
        removeDir(comm, dir);
    }

    @RankTest
    public void splitCollectivesGoOnUntilTheirEnd(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        Path dir = sharedDir(comm);
        Path path = dir.resolve("split.dat");
        File f = new File(comm, path.toString(), MPI.MODE_CREATE | MPI.MODE_RDWR);
        f.setView(0, MPI.INT, MPI.INT, "native");
        int[] mine = {rank * 10, rank * 10 + 1, rank * 10 + 2};
        f.writeAtAllBegin(rank * 3L, mine, 3, MPI.INT);
        Check.throwsMpi(MPI.ERR_OTHER, () -> f.readAllBegin(new int[1], 1, MPI.INT), "still active");
        Check.equal(3, f.writeAtAllEnd(mine).getCount(MPI.INT), "writeAtAllEnd count");
        Check.throwsMpi(MPI.ERR_OTHER, () -> f.writeAtAllEnd(mine), "no writeAtAllBegin");
        // Direct buffers too, through the individual pointer.
        IntBuffer d = directInts(3);
        for (int j = 0; j < 3; j++) d.put(j, -rank * 10 - j - 1);
        f.seek(size * 3L + rank * 3L, MPI.SEEK_SET);
        f.writeAllBegin(d, 3, MPI.INT);
        Check.equal(3, f.writeAllEnd(d).getCount(MPI.INT), "writeAllEnd count");
        Check.equal(size * 3L + rank * 3L + 3, f.getPosition(), "pointer after the split write");
        // Ordered: rank r writes r + 1 ints after everything above.
        f.seekShared(size * 6L, MPI.SEEK_SET);
        int[] ord = new int[rank + 1];
        Arrays.fill(ord, 7000 + rank);
        f.writeOrderedBegin(ord, ord.length, MPI.INT);
        Check.equal(rank + 1, f.writeOrderedEnd(ord).getCount(MPI.INT), "writeOrderedEnd count");
        f.sync();
        comm.barrier();
        f.sync();
        int[] disk = intsOnDisk(path);
        int orderedTotal = size * (size + 1) / 2;
        Check.equal(size * 6 + orderedTotal, disk.length, "ints on disk");
        int at = size * 6;
        for (int r = 0; r < size; r++) {
            for (int j = 0; j < 3; j++) {
                Check.equal(r * 10 + j, disk[r * 3 + j], "split explicit-offset int");
                Check.equal(-r * 10 - j - 1, disk[size * 3 + r * 3 + j], "split individual-pointer int");
            }
            for (int j = 0; j <= r; j++) Check.equal(7000 + r, disk[at++], "ordered int of rank " + r);
        }
        // Reading back: the neighbour's ints through split reads.
        int next = (rank + 1) % size;
        int[] back = new int[3];
        f.readAtAllBegin(next * 3L, back, 3, MPI.INT);
        Check.equal(3, f.readAtAllEnd(back).getCount(MPI.INT), "readAtAllEnd count");
        Check.arrays(new int[] {next * 10, next * 10 + 1, next * 10 + 2}, back, "readAtAll split values");
        comm.barrier(); // every rank is done with the shared pointer before it moves
        f.seekShared(size * 6L, MPI.SEEK_SET);
        int[] ordBack = new int[rank + 1];
        f.readOrderedBegin(ordBack, ordBack.length, MPI.INT);
        Check.equal(rank + 1, f.readOrderedEnd(ordBack).getCount(MPI.INT), "readOrderedEnd count");
        Check.arrays(ord, ordBack, "readOrdered split values");
        f.close();
        removeDir(comm, dir);
    }

    /**
     * Collective writes and reads through interleaved views with holes under several hint sets:
     * the fabric's two-phase path (one aggregator, small buffers that take many rounds, every
     * rank, disabled) and MPI's own must all give the sequential reference on disk.
     */
    @RankTest
    public void collectiveBufferingHintsGiveTheSameFile(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        String[][] hintSets = {
            {},
            {"cb_nodes", "1", "cb_buffer_size", "40"},
            {"cb_nodes", "2", "cb_buffer_size", "7", "romio_cb_read", "enable"},
            {"romio_cb_write", "disable", "romio_cb_read", "disable"},
            {"romio_cb_write", "enable", "romio_cb_read", "enable", "cb_buffer_size", "4096"},
        };
        int stripes = 6, block = 3, gap = 2;
        int stride = block * size + gap;
        int total = (stripes - 1) * stride + block * size;
        Datatype ft = holeyFiletype(stripes, block, gap, size);
        for (int h = 0; h < hintSets.length; h++) {
            Path dir = sharedDir(comm);
            Path path = dir.resolve("cb" + h + ".dat");
            Info info = new Info();
            for (int k = 0; k < hintSets[h].length; k += 2) info.set(hintSets[h][k], hintSets[h][k + 1]);
            File f = new File(comm, path.toString(), MPI.MODE_CREATE | MPI.MODE_RDWR, info);
            Info inEffect = f.getInfo();
            Check.isTrue(inEffect != null, "getInfo");
            if (fabric()) {
                String nodes = info.get("cb_nodes");
                int expect = nodes == null ? size : Math.min(size, Integer.parseInt(nodes));
                Check.equal(Integer.toString(expect), inEffect.get("cb_nodes"), "cb_nodes in effect (set " + h + ")");
                String buf = info.get("cb_buffer_size");
                Check.equal(buf == null ? Integer.toString(16 << 20) : buf, inEffect.get("cb_buffer_size"),
                        "cb_buffer_size in effect");
                String w = info.get("romio_cb_write");
                Check.equal(w == null ? "automatic" : w, inEffect.get("romio_cb_write"), "romio_cb_write in effect");
            }
            f.setView(4L * block * rank, MPI.INT, ft, "native");
            int[] mine = new int[stripes * block];
            for (int k = 0; k < stripes; k++) {
                for (int j = 0; j < block; j++) mine[k * block + j] = holeyValue(k * stride + rank * block + j, block, gap, size);
            }
            Status s = f.writeAll(mine, mine.length, MPI.INT);
            Check.equal(mine.length, s.getCount(MPI.INT), "ints written collectively (hints " + h + ")");
            f.sync();
            comm.barrier();
            f.sync();
            if (rank == 0) {
                int[] reference = new int[total];
                for (int i = 0; i < total; i++) reference[i] = holeyValue(i, block, gap, size);
                int[] disk = intsOnDisk(path);
                if (!fabric()) {
                    // MPI leaves bytes nobody wrote undefined (ROMIO's read-modify-write fills
                    // the gaps of a new file with whatever its buffer held): compare data only.
                    for (int i = 0; i < total && i < disk.length; i++) if (reference[i] == 0) disk[i] = 0;
                }
                Check.arrays(reference, disk, "file vs sequential reference (hints " + h + ")");
            }
            // Collective read of the next rank's blocks through its view.
            int next = (rank + 1) % size;
            f.setView(4L * block * next, MPI.INT, ft, "native");
            int[] back = new int[mine.length];
            Status rs = f.readAll(back, back.length, MPI.INT);
            Check.equal(back.length, rs.getCount(MPI.INT), "ints read collectively (hints " + h + ")");
            for (int k = 0; k < stripes; k++) {
                for (int j = 0; j < block; j++) {
                    Check.equal(holeyValue(k * stride + next * block + j, block, gap, size), back[k * block + j],
                            "neighbour's int (hints " + h + ")");
                }
            }
            // Reading on past the end: the count stops where the file does. Checked on the
            // fabric: ROMIO and Open MPI 4.1's OMPIO report the requested count for collective
            // reads across or past the end (MPICH issue 1085, Open MPI issue 14015).
            f.setView(0, MPI.INT, MPI.INT, "native");
            int[] more = new int[4];
            Status across = f.readAtAll(total - 2 + (rank == 0 ? 0 : 1), more, 4, MPI.INT);
            Check.equal(holeyValue(total - 1, block, gap, size), more[rank == 0 ? 1 : 0], "last int of the file");
            Status past = f.readAtAll(total + 3L + rank, more, 4, MPI.INT);
            if (fabric()) {
                Check.equal(rank == 0 ? 2 : 1, across.getCount(MPI.INT), "collective read across the end (hints " + h
                        + ")");
                Check.equal(0, past.getCount(MPI.INT), "collective read past the end (hints " + h + ")");
            }
            f.close();
            removeDir(comm, dir);
        }
        ft.free();
    }

    @RankTest
    public void sharedPointerUnderManyWriters(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        Path dir = sharedDir(comm);
        Path path = dir.resolve("shared.dat");
        File f = new File(comm, path.toString(), MPI.MODE_CREATE | MPI.MODE_RDWR);
        f.setView(0, MPI.INT, MPI.INT, "native");
        int k = 25;
        Request[] pending = new Request[k];
        for (int j = 0; j < k; j++) {
            // Pairs (rank, j): blocking and non-blocking alternately.
            if (j % 2 == 0) {
                f.writeShared(new int[] {rank, j}, 2, MPI.INT);
            } else {
                IntBuffer b = directInts(2);
                b.put(0, rank).put(1, j);
                pending[j] = f.iWriteShared(b, 2, MPI.INT);
            }
        }
        for (Request r : pending) if (r != null) Check.equal(2, r.waitStatus().getCount(MPI.INT), "iWriteShared count");
        f.sync();
        comm.barrier();
        f.sync();
        Check.equal(2L * k * size, f.getPositionShared(), "shared pointer after every write");
        int[] disk = intsOnDisk(path);
        Check.equal(2 * k * size, disk.length, "ints on disk");
        boolean[][] seen = new boolean[size][k];
        for (int i = 0; i < disk.length; i += 2) {
            int r = disk[i], j = disk[i + 1];
            Check.isTrue(r >= 0 && r < size && j >= 0 && j < k, "pair (" + r + ", " + j + ") is one that was written");
            Check.isTrue(!seen[r][j], "pair (" + r + ", " + j + ") once");
            seen[r][j] = true;
        }
        // Reading through the shared pointer: every rank gets distinct pairs, all of them together.
        comm.barrier();
        f.seekShared(0, MPI.SEEK_SET);
        int got = 0;
        int[] pair = new int[2];
        long sum = 0;
        while (true) {
            Status s = f.readShared(pair, 2, MPI.INT);
            if (s.getCount(MPI.INT) == 0) break;
            got++;
            sum += pair[0] * 1000L + pair[1];
        }
        long[] totals = new long[2];
        comm.allReduce(new long[] {got, sum}, totals, 2, MPI.LONG, MPI.SUM);
        long expectSum = 0;
        for (int r = 0; r < size; r++) for (int j = 0; j < k; j++) expectSum += r * 1000L + j;
        Check.equal((long) k * size, totals[0], "pairs read through the shared pointer, all ranks");
        Check.equal(expectSum, totals[1], "each pair read once");
        f.close();
        removeDir(comm, dir);
    }

    /** In atomic mode, concurrent writes of the same interleaved region never mix: one rank's data wins whole. */
    @RankTest
    public void atomicModeKeepsOverlappingWritesWhole(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        Path dir = sharedDir(comm);
        Path path = dir.resolve("atomic.dat");
        File f = new File(comm, path.toString(), MPI.MODE_CREATE | MPI.MODE_RDWR);
        Check.isTrue(!f.getAtomicity(), "atomicity is off at open");
        f.setAtomicity(true);
        Check.isTrue(f.getAtomicity(), "atomicity set");
        // Every rank writes the same 64 runs of 2 ints (every other pair), many times over.
        Datatype pairs = Datatype.createVector(64, 2, 4, MPI.INT);
        pairs.commit();
        f.setView(0, MPI.INT, pairs, "native");
        int[] data = new int[128];
        for (int round = 0; round < 20; round++) {
            Arrays.fill(data, rank * 1000 + round);
            f.writeAt(0, data, data.length, MPI.INT);
            int[] back = new int[128];
            f.readAt(0, back, back.length, MPI.INT);
            for (int i = 1; strictAtomicity() && i < back.length; i++) {
                Check.equal(back[0], back[i], "an atomic read sees one write whole (round " + round + ", int " + i + ")");
            }
        }
        f.sync();
        comm.barrier();
        f.sync();
        if (rank == 0 && strictAtomicity()) {
            int[] disk = intsOnDisk(path);
            int first = disk[0];
            Check.isTrue(first % 1000 == 19, "the last round's value stayed: " + first);
            for (int i = 0; i < 64; i++) {
                Check.equal(first, disk[4 * i], "pair " + i);
                Check.equal(first, disk[4 * i + 1], "pair " + i);
            }
        }
        comm.barrier();
        f.setAtomicity(false);
        Check.isTrue(!f.getAtomicity(), "atomicity off again");
        f.close();
        pairs.free();
        removeDir(comm, dir);
    }

    @RankTest
    public void refusalsWriteNothing(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        Path dir = sharedDir(comm);
        String name = dir.resolve("ro.dat").toString();
        File w = new File(comm, name, MPI.MODE_CREATE | MPI.MODE_WRONLY);
        w.writeAt(rank * 4L, new int[] {rank + 1}, 1, MPI.INT);
        w.close();
        Check.throwsMpi(MPI.ERR_FILE, () -> w.read(new int[1], 1, MPI.INT), "closed");
        Check.throwsMpi(MPI.ERR_FILE, () -> w.iWriteAt(0, directInts(1), 1, MPI.INT), "closed");
        Check.throwsMpi(MPI.ERR_FILE, () -> w.close(), "closed");
        Check.throwsMpi(MPI.ERR_FILE, () -> w.writeAllBegin(new int[1], 1, MPI.INT), "closed");
        comm.barrier();
        byte[] before = readAll(Path.of(name));
        File r = new File(comm, name, MPI.MODE_RDONLY);
        Check.throwsMpi(MPI.ERR_READ_ONLY, () -> r.iWriteAt(0, directInts(1), 1, MPI.INT), "MODE_RDONLY");
        Check.throwsMpi(MPI.ERR_READ_ONLY, () -> r.writeShared(new int[] {9}, 1, MPI.INT), "MODE_RDONLY");
        Check.throwsMpi(MPI.ERR_READ_ONLY, () -> r.writeAll(new int[] {9}, 1, MPI.INT), "MODE_RDONLY");
        Check.throwsMpi(MPI.ERR_READ_ONLY, () -> r.iWriteAll(directInts(1), 1, MPI.INT), "MODE_RDONLY");
        Check.throwsMpi(MPI.ERR_READ_ONLY, () -> r.writeAtAllBegin(0, new int[1], 1, MPI.INT), "MODE_RDONLY");
        Check.throwsMpi(MPI.ERR_READ_ONLY, () -> r.preallocate(1 << 20), "MODE_RDONLY");
        Check.throwsMpi(MPI.ERR_ARG, () -> r.seekShared(-1, MPI.SEEK_SET), "-1");
        Check.throwsMpi(MPI.ERR_ARG, () -> r.seek(-5, MPI.SEEK_CUR), "before the start");
        Check.throwsMpi(MPI.ERR_ARG, () -> r.iReadAt(-2, directInts(1), 1, MPI.INT), "-2");
        // A failed begin leaves no split collective active: a new one works.
        int[] all = new int[size];
        r.readAtAllBegin(0, all, size, MPI.INT);
        Check.equal(size, r.readAtAllEnd(all).getCount(MPI.INT), "split read after refusals");
        for (int q = 0; q < size; q++) Check.equal(q + 1, all[q], "int " + q);
        comm.barrier();
        Check.isTrue(Arrays.equals(before, readAll(Path.of(name))), "the file's bytes are unchanged");
        r.close();
        // Access modes MPI forbids, on the non-blocking path's file too.
        Check.throwsMpi(MPI.ERR_AMODE, () -> new File(comm, name, MPI.MODE_WRONLY | MPI.MODE_RDONLY), "exactly one");
        Check.throwsMpi(MPI.ERR_AMODE, () -> new File(comm, name, MPI.MODE_RDONLY | MPI.MODE_EXCL), "MODE_EXCL");
        removeDir(comm, dir);
    }

    private static byte[] readAll(Path p) {
        try {
            return Files.readAllBytes(p);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
