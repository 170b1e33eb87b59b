package io.github.mpi4j.api;

import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.RankTest;
import java.nio.file.Path;
import mpi.Datatype;
import mpi.File;
import mpi.Intracomm;
import mpi.MPI;

/**
 * SEEK_END through views whose filetype has holes (issue 11, FileSeekEndTest): the end of the
 * file as seen through the view, in etypes, counted from the view's data bytes before the end of
 * the file (an end inside a hole or inside an etype means the next etype: MPI as ROMIO implements
 * it). The reference walks the view element by element here: element k of the view is int
 * {@code OFFS[k % 3]} of tile {@code k / 3} (tiles of 6 ints from the displacement), and the end
 * is the number of elements whose first byte lies before the end of the file.
 */
public class FileSeekEndSuite {
    /** The view's ints within a tile of {@link #TILE} ints: two, a hole, one, two holes. */
    private static final int[] OFFS = {0, 1, 3};
    private static final int TILE = 6;
    /** File sizes tried, largest first (the file holds int i at byte 4i up to the largest). */
    private static final long[] SIZES = {256, 250, 243, 200, 131, 120, 100, 99, 57, 50, 33, 32, 8, 5, 0};

    private static Datatype filetype() {
        Datatype idx = Datatype.createIndexed(new int[] {2, 1}, new int[] {0, 3}, MPI.INT);
        Datatype t = Datatype.createResized(idx, 0, TILE * 4);
        t.commit();
        idx.free();
        return t;
    }

    private static long fileByte(long disp, long k) {
        return disp + (k / OFFS.length) * TILE * 4L + OFFS[(int) (k % OFFS.length)] * 4L;
    }

    /** Elements of the view (from {@code disp}) that start before byte {@code size}: the reference end. */
    private static long endOf(long disp, long size) {
        long k = 0;
        while (fileByte(disp, k) < size) k++;
        return k;
    }

    private static File fileOfInts(Intracomm comm, Path path) {
        File f = new File(comm, path.toString(), MPI.MODE_CREATE | MPI.MODE_RDWR);
        if (comm.getRank() == 0) {
            int[] v = new int[(int) (SIZES[0] / 4)];
            for (int i = 0; i < v.length; i++) v[i] = i;
            f.writeAt(0, v, v.length, MPI.INT);
        }
        f.sync();
        comm.barrier();
        f.sync();
        return f;
    }

    /** The individual pointer: every rank its own displacement (4 * rank + 4 bytes). */
    @RankTest
    public void seekEndThroughAViewWithHoles(Intracomm comm) {
        int rank = comm.getRank();
        Path dir = FileSuite.sharedDir(comm);
        File f = fileOfInts(comm, dir.resolve("seekend.dat"));
        Datatype ft = filetype();
        long disp = 4L * rank + 4;
        f.setView(disp, MPI.INT, ft, "native");
        for (long size : SIZES) {
            f.setSize(size);
            comm.barrier(); // setSize need not synchronize: every rank's truncation is done
            long end = endOf(disp, size);
            String at = "file of " + size + " bytes, view from byte " + disp;
            f.seek(0, MPI.SEEK_END);
            Check.equal(end, f.getPosition(), at + ": SEEK_END position (etypes)");
            if (end >= 2) {
                f.seek(-2, MPI.SEEK_END);
                Check.equal(end - 2, f.getPosition(), at + ": SEEK_END - 2");
                Check.equal(fileByte(disp, end - 2), f.getByteOffset(f.getPosition()), at + ": its byte offset");
            }
            if (end >= 1 && fileByte(disp, end - 1) + 4 <= size) {
                f.seek(-1, MPI.SEEK_END);
                int[] got = {-1};
                f.read(got, 1, MPI.INT);
                Check.equal(fileByte(disp, end - 1) / 4, got[0], at + ": the last whole int of the view");
            }
            f.seek(3, MPI.SEEK_END);
            Check.equal(end + 3, f.getPosition(), at + ": SEEK_END + 3 (past the end is allowed)");
            long before = -(end + 1);
            Check.throwsMpi(MPI.ERR_ARG, () -> f.seek(before, MPI.SEEK_END), "before the start");
            Check.equal(end + 3, f.getPosition(), at + ": a refused seek leaves the pointer");
            comm.barrier(); // every rank has read before the next size cuts the file
        }
        f.close();
        ft.free();
        FileSuite.removeDir(comm, dir);
    }

    /** The shared pointer (collective; the same view everywhere, as MPI requires for it). */
    @RankTest
    public void seekSharedEndThroughAViewWithHoles(Intracomm comm) {
        Path dir = FileSuite.sharedDir(comm);
        File f = fileOfInts(comm, dir.resolve("seekshared.dat"));
        Datatype ft = filetype();
        long disp = 8;
        f.setView(disp, MPI.INT, ft, "native");
        for (long size : SIZES) {
            f.setSize(size);
            comm.barrier();
            long end = endOf(disp, size);
            String at = "file of " + size + " bytes";
            f.seekShared(0, MPI.SEEK_END);
            Check.equal(end, f.getPositionShared(), at + ": seekShared SEEK_END position (etypes)");
            if (end >= 3) {
                f.seekShared(-3, MPI.SEEK_END);
                Check.equal(end - 3, f.getPositionShared(), at + ": seekShared SEEK_END - 3");
            }
            Check.throwsMpi(MPI.ERR_ARG, () -> f.seekShared(-(end + 1), MPI.SEEK_END), "before the start");
            comm.barrier();
        }
        f.close();
        ft.free();
        FileSuite.removeDir(comm, dir);
    }

    /** A contiguous view keeps its simple rule: (size - disp) / etype size, rounded up. */
    @RankTest
    public void seekEndThroughAContiguousView(Intracomm comm) {
        Path dir = FileSuite.sharedDir(comm);
        File f = fileOfInts(comm, dir.resolve("contig.dat"));
        f.setView(12, MPI.INT, MPI.INT, "native");
        for (long size : SIZES) {
            f.setSize(size);
            comm.barrier();
            f.seek(0, MPI.SEEK_END);
            Check.equal(Math.max(0, size - 12 + 3) / 4, f.getPosition(), "file of " + size + " bytes, view from 12");
            comm.barrier();
        }
        f.close();
        FileSuite.removeDir(comm, dir);
    }
}
