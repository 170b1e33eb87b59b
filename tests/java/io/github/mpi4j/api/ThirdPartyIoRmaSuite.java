package io.github.mpi4j.api;

import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.RankTest;
import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import mpi.Info;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Win;

/**
 * One-sided behaviours that the ompi-java-test programs (issue 11: onesided, io, dynamic) rely
 * on, each checked against MPI's text or Open MPI's bindings: MPI.NO_OP ignores the origin
 * buffer, the {@code no_locks} info hint forbids passive-target epochs, and WIN_SIZE /
 * WIN_DISP_UNIT are Integers counted in bytes. Expected values come from rank and size.
 */
public class ThirdPartyIoRmaSuite {

    private static int value(int rank) {
        return 1000 + 7 * rank;
    }

    /** MPI 3.1 11.3.4: with MPI_NO_OP the origin arguments are ignored; an empty buffer is fine. */
    @RankTest
    public void noOpIgnoresTheOrigin(Intracomm comm) {
        int me = comm.getRank(), n = comm.getSize(), next = (me + 1) % n;
        IntBuffer mem = MPI.newIntBuffer(1);
        mem.put(0, value(me));
        Win win = new Win(mem, 1, 1, MPI.INFO_NULL, comm);
        try {
            win.setErrhandler(MPI.ERRORS_RETURN);
            IntBuffer empty = MPI.newIntBuffer(0), res = MPI.newIntBuffer(1), res2 = MPI.newIntBuffer(2);
            comm.barrier();
            win.lock(MPI.LOCK_SHARED, next, 0);
            res.put(0, -1);
            win.fetchAndOp(empty, res, MPI.INT, next, 0, MPI.NO_OP);
            win.unlock(next);
            Check.equal(value(next), res.get(0), "fetchAndOp NO_OP with an empty origin fetches rank " + next);
            win.lock(MPI.LOCK_SHARED, next, 0);
            res2.put(0, -1);
            win.getAccumulate(empty, 1, MPI.INT, res2, 1, MPI.INT, next, 0, 1, MPI.INT, MPI.NO_OP);
            win.unlock(next);
            Check.equal(value(next), res2.get(0), "getAccumulate NO_OP with an empty origin fetches rank " + next);
            // A real operation still checks its origin.
            win.lock(MPI.LOCK_SHARED, next, 0);
            try {
                Check.throwsMpi(MPI.ERR_BUFFER,
                        () -> win.fetchAndOp(empty, res, MPI.INT, next, 0, MPI.SUM), "origin");
            } finally {
                win.unlock(next);
            }
            comm.barrier();
            Check.equal(value(me), mem.get(0), "NO_OP left rank " + me + "'s window alone");
        } finally {
            win.free();
        }
    }

    /** MPI 3.1 11.2.1 no_locks: passive target is promised unused; lock and lockAll fail, fences work. */
    @RankTest
    public void noLocksHintRefusesPassiveTarget(Intracomm comm) {
        int me = comm.getRank(), n = comm.getSize(), next = (me + 1) % n, prev = (me + n - 1) % n;
        Info info = new Info();
        info.set("no_locks", "true");
        IntBuffer mem = MPI.newIntBuffer(1);
        Win win = new Win(mem, 1, 1, info, comm);
        info.free();
        try {
            win.setErrhandler(MPI.ERRORS_RETURN);
            Check.throwsMpi(MPI.ERR_RMA_SYNC, () -> win.lock(MPI.LOCK_SHARED, next, 0), "no_locks");
            Check.throwsMpi(MPI.ERR_RMA_SYNC, () -> win.lock(MPI.LOCK_EXCLUSIVE, me, 0), "no_locks");
            Check.throwsMpi(MPI.ERR_RMA_SYNC, () -> win.lockAll(0), "no_locks");
            IntBuffer out = MPI.newIntBuffer(1);
            out.put(0, value(me));
            win.fence(0);
            win.put(out, 1, MPI.INT, next, 0, 1, MPI.INT);
            win.fence(0);
            Check.equal(value(prev), mem.get(0), "a fence epoch still works on a no_locks window");
        } finally {
            win.free();
        }
        // Without the hint (and with no_locks=false) locking is allowed.
        Info off = new Info();
        off.set("no_locks", "false");
        Win plain = Win.allocate(4, 1, off, comm);
        off.free();
        try {
            plain.lock(MPI.LOCK_SHARED, next, 0);
            plain.unlock(next);
            plain.lockAll(0);
            plain.unlockAll();
        } finally {
            plain.free();
        }
    }

    /** Open MPI's bindings: WIN_SIZE and WIN_DISP_UNIT are Integers in bytes; WIN_BASE is set. */
    @RankTest
    public void windowAttributesAsTheOpenMpiBindings(Intracomm comm) {
        int me = comm.getRank();
        IntBuffer mem = MPI.newIntBuffer(25);
        for (int elems : new int[] {1, 25}) {
            Win win = new Win(mem, elems, 1, MPI.INFO_NULL, comm);
            try {
                Object base = win.getAttr(MPI.WIN_BASE);
                Check.isTrue(base instanceof IntBuffer, "WIN_BASE of a window over an IntBuffer is that buffer, got "
                        + base);
                Object size = win.getAttr(MPI.WIN_SIZE);
                Check.equal(Integer.valueOf(4 * elems), size, "WIN_SIZE of " + elems + " ints on rank " + me);
                Check.equal(Integer.valueOf(4), win.getAttr(MPI.WIN_DISP_UNIT), "WIN_DISP_UNIT of dispUnit 1 int");
            } finally {
                win.free();
            }
        }
        Win alloc = Win.allocate(8 * (me + 1), 8, MPI.INFO_NULL, comm);
        try {
            Object base = alloc.getAttr(MPI.WIN_BASE);
            Check.isTrue(base instanceof ByteBuffer, "WIN_BASE of an allocated window is a ByteBuffer, got " + base);
            Check.equal(8L * (me + 1), ((ByteBuffer) base).capacity(), "allocated WIN_BASE capacity");
            Check.equal(Integer.valueOf(8 * (me + 1)), alloc.getAttr(MPI.WIN_SIZE), "allocated WIN_SIZE");
            Check.equal(Integer.valueOf(8), alloc.getAttr(MPI.WIN_DISP_UNIT), "allocated WIN_DISP_UNIT");
        } finally {
            alloc.free();
        }
    }

    /** Open MPI's allocate constructor with FLAVOR_PRIVATE is MPI_Win_allocate: base only gives the element kind. */
    @RankTest
    public void privateFlavorAllocates(Intracomm comm) {
        int me = comm.getRank(), n = comm.getSize(), next = (me + 1) % n, prev = (me + n - 1) % n;
        int elems = 8 + me;
        Win win = new Win(elems, 1, MPI.INFO_NULL, comm, MPI.newCharBuffer(0), Win.FLAVOR_PRIVATE);
        try {
            Check.equal(Integer.valueOf(MPI.WIN_FLAVOR_ALLOCATE), win.getAttr(MPI.WIN_CREATE_FLAVOR), "flavor");
            Check.equal(Integer.valueOf(2 * elems), win.getAttr(MPI.WIN_SIZE), "WIN_SIZE of " + elems + " chars");
            Check.equal(Integer.valueOf(2), win.getAttr(MPI.WIN_DISP_UNIT), "WIN_DISP_UNIT of one char");
            ByteBuffer mem = win.getBase();
            Check.equal(2L * elems, mem.capacity(), "allocated memory");
            java.nio.CharBuffer out = MPI.newCharBuffer(1);
            out.put(0, (char) ('A' + me));
            win.fence(0);
            win.put(out, 1, MPI.CHAR, next, 7, 1, MPI.CHAR);
            win.fence(0);
            Check.equal('A' + prev, mem.asCharBuffer().get(7), "char 7 put by rank " + prev);
        } finally {
            win.free();
        }
    }
}
