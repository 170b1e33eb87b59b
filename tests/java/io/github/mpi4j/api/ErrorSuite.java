package io.github.mpi4j.api;

import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.RankTest;
import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Op;
import mpi.Request;
import mpi.Status;
import mpi.UserFunction;

/**
 * Bad input: every call throws an MPIException naming the argument, its value and the limit,
 * before any data moves; the JVM survives and MPI does not abort.
 */
public class ErrorSuite {

    @RankTest
    public void badBuffersAndCounts(Intracomm comm) {
        int self = comm.getRank();
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.send(null, 4, MPI.INT, self, 1), "buf is null", "4");
        Check.throwsMpi(MPI.ERR_COUNT, () -> comm.send(new int[4], -1, MPI.INT, self, 1), "count", "-1");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.send(new byte[16], 1024, MPI.BYTE, self, 1),
                "1024", "byte[16]");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.recv(new int[4], 5, MPI.INT, self, 1), "count 5", "int[4]");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.send(MPI.newIntBuffer(3), 4, MPI.INT, self, 1), "capacity", "3");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.iSend(MPI.newByteBuffer(7), 2, MPI.INT, self, 1), "8", "7");
        Check.throwsMpi(MPI.ERR_TYPE, () -> comm.send(new int[4], 4, MPI.DOUBLE, self, 1), "MPI.DOUBLE", "int[]");
        Check.throwsMpi(MPI.ERR_TYPE, () -> comm.send(MPI.newIntBuffer(4), 4, MPI.LONG, self, 1), "MPI.LONG");
        Check.throwsMpi(MPI.ERR_TYPE, () -> comm.send(new Object[1], 1, MPI.INT, self, 1), "MPI.INT");
        Check.throwsMpi(MPI.ERR_TYPE, () -> comm.send(new int[1], 1, MPI.OBJECT, self, 1), "MPI.OBJECT");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.recv(MPI.newIntBuffer(4).asReadOnlyBuffer(), 4, MPI.INT, self, 1),
                "read-only");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.send(ByteBuffer.allocate(16), 4, MPI.INT, self, 1),
                "heap ByteBuffer");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.Send(new int[4], -2, 1, MPI.INT, self, 1), "offset", "-2");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.Send(new int[4], 3, 2, MPI.INT, self, 1), "offset 3", "int[4]");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.send(MPI.IN_PLACE, 1, MPI.INT, self, 1), "IN_PLACE");
        Check.throwsMpi(MPI.ERR_TYPE, () -> comm.send(new int[1], 1, null, self, 1), "datatype is null");
        Check.throwsMpi(MPI.ERR_TYPE, () -> comm.send(new int[2], 1, MPI.DOUBLE_INT, self, 1), "MPI.DOUBLE_INT");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.iRecv(new long[2], 3, MPI.LONG, self, 1), "count 3");
    }

    /** The bucketed allReduce checks every array, length and bucket before any data moves. */
    @RankTest
    public void badBucketedAllReduce(Intracomm comm) {
        int[] a = new int[4], b = new int[4], c = new int[4];
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.allReduce(new Object[] {a}, null, new int[] {4}, MPI.INT, MPI.SUM),
                "recvbufs is null");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.allReduce((Object[]) null, new int[] {4}, MPI.INT, MPI.SUM),
                "bufs is null");
        Check.throwsMpi(MPI.ERR_ARG, () -> comm.allReduce(new Object[] {a}, new Object[] {b}, null, MPI.INT, MPI.SUM),
                "counts is null");
        Check.throwsMpi(MPI.ERR_ARG, () -> comm.allReduce(new Object[] {a}, new Object[] {b, c}, new int[] {4, 4},
                MPI.INT, MPI.SUM), "sendbufs has 1 entries", "counts has 2");
        Check.throwsMpi(MPI.ERR_ARG, () -> comm.allReduce(new Object[] {a, b}, new Object[] {c}, new int[] {4, 4},
                MPI.INT, MPI.SUM), "recvbufs has 1 entries", "counts has 2");
        Check.throwsMpi(MPI.ERR_COUNT, () -> comm.allReduce(new Object[] {a, b}, new Object[] {c, new int[4]},
                new int[] {4, -3}, MPI.INT, MPI.SUM), "counts[1] = -3");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.allReduce(new Object[] {a, b}, new Object[] {c, new int[2]},
                new int[] {4, 3}, MPI.INT, MPI.SUM), "recvbufs[1]", "count 3", "int[2]");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.allReduce(new Object[] {a, null}, new Object[] {c, new int[4]},
                new int[] {4, 2}, MPI.INT, MPI.SUM), "sendbufs[1] is null", "2");
        Check.throwsMpi(MPI.ERR_TYPE, () -> comm.allReduce(new Object[] {a, new double[4]},
                new Object[] {c, new int[4]}, new int[] {4, 4}, MPI.INT, MPI.SUM), "sendbufs[1]", "double[]");
        Check.throwsMpi(MPI.ERR_TYPE, () -> comm.allReduce(new Object[] {MPI.newIntBuffer(4)},
                new Object[] {MPI.newDoubleBuffer(4)}, new int[] {4}, MPI.INT, MPI.SUM), "recvbufs[0]");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.allReduce(new Object[] {a, b}, new Object[] {c, b},
                new int[] {4, 4}, MPI.INT, MPI.SUM), "sendbufs[1] and recvbufs[1] are the same", "IN_PLACE");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.allReduce(new Object[] {a, b}, new Object[] {c, c},
                new int[] {4, 4}, MPI.INT, MPI.SUM), "recvbufs[1] is the same array as recvbufs[0]");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.allReduce(new Object[] {a, c}, new Object[] {c, b},
                new int[] {4, 4}, MPI.INT, MPI.SUM), "sendbufs[1] is the same array as recvbufs[0]");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.allReduce(new Object[] {a}, new Object[] {MPI.IN_PLACE},
                new int[] {4}, MPI.INT, MPI.SUM), "recvbufs[0] is MPI.IN_PLACE");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.allReduce(new Object[] {a, new int[4]}, new int[] {4, 5},
                MPI.INT, MPI.SUM), "bufs[1]", "count 5");
        Check.throwsMpi(MPI.ERR_OP, () -> comm.allReduce(new Object[] {new double[1]}, new Object[] {new double[1]},
                new int[] {1}, MPI.DOUBLE, MPI.BAND), "BAND");
        Check.throwsMpi(MPI.ERR_TYPE, () -> comm.allReduce(new Object[] {a}, new Object[] {b}, new int[] {4}, null,
                MPI.SUM), "datatype is null");
        Check.throwsMpi(MPI.ERR_TYPE, () -> comm.allReduce(new Object[] {new Object[1]}, new Object[] {new Object[1]},
                new int[] {1}, MPI.OBJECT, MPI.SUM), "MPI.OBJECT");
    }

    /** The compatibility additions check their arguments too, and the unsupported parts say so. */
    @RankTest
    public void badPackAttributesAndUnsupported(Intracomm comm) {
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.pack(new int[4], 4, MPI.INT, new byte[15], 0), "16 bytes",
                "byte[15]");
        Check.throwsMpi(MPI.ERR_ARG, () -> comm.pack(new int[1], 1, MPI.INT, new byte[8], 9), "position 9");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.unpack(new byte[8], 0, new int[1], 2, MPI.INT), "count 2",
                "int[1]");
        Check.throwsMpi(MPI.ERR_TYPE, () -> comm.packSize(1, MPI.OBJECT), "MPI.OBJECT");
        Check.throwsMpi(MPI.ERR_COUNT, () -> comm.packSize(-1, MPI.INT), "-1");
        Check.throwsMpi(MPI.ERR_KEYVAL, () -> comm.setAttr(12345, "x"), "keyval 12345");
        Check.throwsMpi(MPI.ERR_KEYVAL, () -> mpi.Comm.freeKeyval(12345), "12345");
        Check.throwsMpi(MPI.ERR_TYPE, () -> comm.send(new byte[1], 1, MPI.DATATYPE_NULL, 0, 1), "DATATYPE_NULL");
        // Derived datatypes (issue 10; DatatypeSuite has the full battery).
        Check.throwsMpi(MPI.ERR_ARG, () -> Datatype.createContiguous(-4, MPI.INT), "createContiguous", "-4");
        Check.throwsMpi(MPI.ERR_TYPE, () -> comm.send(new int[4], 1, Datatype.Vector(2, 1, 2, MPI.INT), 0, 1),
                "not committed");
        Check.throwsMpi(MPI.ERR_INFO, () -> comm.setInfo(null), "info is null");
    }

    @RankTest
    public void badRanksTagsRoots(Intracomm comm) {
        int size = comm.getSize();
        Check.throwsMpi(MPI.ERR_RANK, () -> comm.send(new int[1], 1, MPI.INT, size, 1), "dest " + size,
                "size " + size);
        Check.throwsMpi(MPI.ERR_RANK, () -> comm.send(new int[1], 1, MPI.INT, -5, 1), "dest -5");
        Check.throwsMpi(MPI.ERR_RANK, () -> comm.recv(new int[1], 1, MPI.INT, size + 3, 1), "source " + (size + 3));
        Check.throwsMpi(MPI.ERR_RANK, () -> comm.iProbe(-7, 1), "source -7");
        Check.throwsMpi(MPI.ERR_TAG, () -> comm.send(new int[1], 1, MPI.INT, 0, -3), "tag -3");
        Check.throwsMpi(MPI.ERR_TAG, () -> comm.send(new int[1], 1, MPI.INT, 0, MPI.ANY_TAG), "tag -1");
        int ub = comm.getTagUpperBound();
        if (ub < Integer.MAX_VALUE) {
            Check.throwsMpi(MPI.ERR_TAG, () -> comm.send(new int[1], 1, MPI.INT, 0, ub + 1), "tag " + (ub + 1));
        }
        Check.throwsMpi(MPI.ERR_TAG, () -> comm.recv(new int[1], 1, MPI.INT, 0, -9), "tag -9");
        Check.throwsMpi(MPI.ERR_ROOT, () -> comm.bcast(new int[1], 1, MPI.INT, size), "root " + size);
        Check.throwsMpi(MPI.ERR_ROOT, () -> comm.reduce(new int[1], new int[1], 1, MPI.INT, MPI.SUM, -1), "root -1");
        Check.throwsMpi(MPI.ERR_ROOT, () -> comm.gather(new int[1], 1, MPI.INT, new int[size], 1, MPI.INT, size + 1),
                "root");
    }

    @RankTest
    public void badCollectiveArguments(Intracomm comm) {
        int size = comm.getSize();
        Check.throwsMpi(MPI.ERR_OP, () -> comm.allReduce(new boolean[1], new boolean[1], 1, MPI.BOOLEAN, MPI.SUM),
                "MPI.SUM", "MPI.BOOLEAN");
        Check.throwsMpi(MPI.ERR_OP, () -> comm.allReduce(new double[1], new double[1], 1, MPI.DOUBLE, MPI.BAND),
                "MPI.BAND");
        Check.throwsMpi(MPI.ERR_OP, () -> comm.allReduce(new int[2], new int[2], 1, MPI.INT, MPI.MINLOC), "MINLOC");
        Check.throwsMpi(MPI.ERR_OP, () -> comm.allReduce(new int[1], new int[1], 1, MPI.INT, MPI.REPLACE),
                "REPLACE");
        Check.throwsMpi(MPI.ERR_OP, () -> comm.allReduce(new int[1], new int[1], 1, MPI.INT, null), "op is null");
        int[] same = new int[4];
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.allReduce(same, same, 4, MPI.INT, MPI.SUM), "same", "IN_PLACE");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.allReduce(new int[4], new int[3], 4, MPI.INT, MPI.SUM),
                "recvbuf", "int[3]");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.allGather(new int[1], 1, MPI.INT, new int[size - 1 + 0 * size],
                1, MPI.INT), "recvbuf");
        Check.throwsMpi(MPI.ERR_ARG, () -> comm.allGatherv(new int[1], 1, MPI.INT, new int[size], new int[size - 1],
                new int[size], MPI.INT), "recvcounts", "entries");
        int[] negative = new int[size];
        negative[0] = -1;
        Check.throwsMpi(MPI.ERR_ARG, () -> comm.allGatherv(new int[1], 1, MPI.INT, new int[size], fillOnes(size),
                negative, MPI.INT), "displs[0] = -1");
        Check.throwsMpi(MPI.ERR_COUNT, () -> comm.allToAll(new int[1], 1, MPI.INT, new int[size], -1, MPI.INT),
                "recvcount", "-1");
        Check.throwsMpi(MPI.ERR_REQUEST, () -> Request.waitAll(null), "null");
    }

    private static int[] fillOnes(int n) {
        int[] a = new int[n];
        java.util.Arrays.fill(a, 1);
        return a;
    }

    @RankTest
    public void freedObjects(Intracomm comm) {
        Intracomm dup = comm.dup();
        dup.free();
        Check.throwsMpi(MPI.ERR_COMM, () -> dup.send(new int[1], 1, MPI.INT, 0, 1), "freed");
        Check.throwsMpi(MPI.ERR_COMM, dup::barrier, "freed");
        Op op = new Op(new UserFunction() {
            @Override
            public void call(Object in, Object inOut, int count, Datatype type) {
            }
        }, true);
        op.free();
        Check.throwsMpi(MPI.ERR_OP, () -> comm.allReduce(new int[1], new int[1], 1, MPI.INT, op), "freed");
        Datatype t = MPI.INT.dup();
        t.free();
        Check.throwsMpi(MPI.ERR_TYPE, () -> comm.send(new int[1], 1, t, 0, 1), "freed");
        Check.throwsMpi(MPI.ERR_TYPE, MPI.INT::free, "predefined");
    }

    /**
     * The old Open MPI bindings, given send(byte[16], count=1024), sent 1024 bytes of whatever
     * followed before failing. Here the call throws before anything moves: the peer's next
     * receive gets exactly the next valid message.
     */
    @RankTest(minSize = 2)
    public void nothingMovesOnError(Intracomm comm) {
        int rank = comm.getRank();
        if (rank == 0) {
            byte[] small = new byte[16];
            java.util.Arrays.fill(small, (byte) 0x55);
            Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.send(small, 1024, MPI.BYTE, 1, 3), "1024");
            Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.iSend(small, 1024, MPI.BYTE, 1, 3), "1024");
            Check.throwsMpi(MPI.ERR_TYPE, () -> comm.send(new int[4], 4, MPI.DOUBLE, 1, 3), "MPI.DOUBLE");
            byte[] good = {1, 2, 3};
            comm.send(good, 3, MPI.BYTE, 1, 3);
        } else if (rank == 1) {
            byte[] in = new byte[2048];
            Status s = comm.recv(in, 2048, MPI.BYTE, 0, 3);
            Check.equal(3, s.getCount(MPI.BYTE), "only the valid message arrived");
            Check.arrays(new byte[] {1, 2, 3}, java.util.Arrays.copyOf(in, 3), "its bytes");
            Check.equal(0, in[3], "nothing else written");
            Check.isTrue(comm.iProbe(0, MPI.ANY_TAG) == null, "no other message is waiting");
        }
        comm.barrier();
    }

    /** After MPI.Init, the JVM's own signals work: an NPE and a stack overflow stay exceptions. */
    @RankTest
    public void jvmSignalsStillWork(Intracomm comm) {
        Object nothing = null;
        for (int round = 0; round < 3; round++) {
            try {
                nothing.hashCode();
                throw new AssertionError("expected a NullPointerException");
            } catch (NullPointerException expected) {
                // the JVM's SIGSEGV handler turned the fault into an exception
            }
            try {
                recurse(0);
                throw new AssertionError("expected a StackOverflowError");
            } catch (StackOverflowError expected) {
                // stack banging and the guard pages still belong to the JVM
            }
            int[] a = new int[1];
            try {
                a[nothing == null ? 5 : 0] = 1;
            } catch (ArrayIndexOutOfBoundsException expected) {
                // fine
            }
            System.gc();
            comm.barrier();
        }
    }

    private static int recurse(int depth) {
        return recurse(depth + 1) + 1;
    }

    /** A too-short receive surfaces the library's error class as an exception. */
    @RankTest(minSize = 2)
    public void libraryErrorsAreExceptions(Intracomm comm) {
        if (comm.getRank() == 0) {
            comm.send(new long[10], 10, MPI.LONG, 1, 4);
        } else if (comm.getRank() == 1) {
            IntBuffer small = MPI.newIntBuffer(2);
            mpi.MPIException e = Check.throwsMpi(MPI.ERR_TRUNCATE, () -> comm.recv(small, 2, MPI.INT, 0, 4));
            Check.isTrue(e.getMessage().length() > 0, "message");
        }
        comm.barrier();
    }
}
