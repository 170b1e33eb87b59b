package io.github.mpi4j.api;

import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.RankTest;
import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import mpi.Comm;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Message;
import mpi.Request;
import mpi.Status;
import mpi.Struct;
import mpi.Win;

/**
 * Behaviours that third-party test programs written for the Open MPI bindings and MPJ Express
 * rely on (issue 10), each checked against what MPI specifies or what Open MPI does: the
 * expected values are worked out by hand from the message sizes, the rank and the size.
 */
public class ThirdPartyBehavioursSuite {

    /** A (double, int) struct made with the Open MPI bindings' Struct helper. */
    static final class DoubleAndInt extends Struct {
        final int d = addDouble();
        final int i = addInt();

        @Override
        protected Data newData() {
            return new Data();
        }

        final class Data extends Struct.Data {
        }
    }

    /**
     * MPI_Get_elements: a message that ends inside a basic element has no whole number of them
     * (MPI.UNDEFINED); one that ends between basic elements inside an item counts them (MPI 3.1
     * example 4.12: count UNDEFINED, elements whole). Four (double, int) pairs per item: 12 data
     * bytes a pair.
     */
    @RankTest
    public void getElementsOfPartialMessages(Intracomm comm) {
        int me = comm.getRank();
        Datatype pair = new DoubleAndInt().getType();
        Datatype four = Datatype.createContiguous(4, pair);
        four.commit();
        try {
            byte[] out = new byte[200];
            for (int i = 0; i < out.length; i++) out[i] = (byte) i;
            ByteBuffer in = MPI.newByteBuffer(4 * 3 * 16 + 64);
            // bytes sent -> {elements, count}; 33 = 2 pairs + a double + 1 byte of an int.
            int[][] cases = {
                {33, MPI.UNDEFINED, MPI.UNDEFINED},
                {32, 5, MPI.UNDEFINED},
                {24, 4, MPI.UNDEFINED},
                {60, 10, MPI.UNDEFINED},
                {61, MPI.UNDEFINED, MPI.UNDEFINED},
                {96, 16, 2},
                {0, 0, 0},
            };
            for (int[] c : cases) {
                Status s = comm.sendRecv(out, c[0], MPI.BYTE, me, 71, in, 3, four, me, 71);
                Check.equal(c[1], s.getElements(four), c[0] + " bytes into 4x(double,int): getElements");
                Check.equal(c[2], s.getCount(four), c[0] + " bytes into 4x(double,int): getCount");
            }
            // The same rule for the predefined (value, int) pairs and the basic types.
            ByteBuffer pairs = MPI.newByteBuffer(64);
            int[][] doubleInt = {{12, 2, 1}, {20, 3, MPI.UNDEFINED}, {13, MPI.UNDEFINED, MPI.UNDEFINED},
                {22, MPI.UNDEFINED, MPI.UNDEFINED}, {24, 4, 2}};
            for (int[] c : doubleInt) {
                Status s = comm.sendRecv(out, c[0], MPI.BYTE, me, 72, pairs, 3, MPI.DOUBLE_INT, me, 72);
                Check.equal(c[1], s.getElements(MPI.DOUBLE_INT), c[0] + " bytes of DOUBLE_INT: getElements");
                Check.equal(c[2], s.getCount(MPI.DOUBLE_INT), c[0] + " bytes of DOUBLE_INT: getCount");
            }
            Status s = comm.sendRecv(out, 10, MPI.BYTE, me, 73, MPI.newIntBuffer(4), 4, MPI.INT, me, 73);
            Check.equal(MPI.UNDEFINED, s.getElements(MPI.INT), "10 bytes of MPI.INT: getElements");
            Check.equal(MPI.UNDEFINED, s.getCount(MPI.INT), "10 bytes of MPI.INT: getCount");
        } finally {
            four.free();
            pair.free();
        }
    }

    /**
     * MPI.INFO_ENV: the keys MPI defines and the ompi_* keys Open MPI adds, for a job of one
     * application: as many ranks as the world, starting at rank 0.
     */
    @RankTest(processOnly = true)
    public void infoEnvHasOpenMpiKeys(Intracomm comm) {
        int world = MPI.COMM_WORLD.getSize();
        Check.equal(Integer.toString(world), MPI.INFO_ENV.get("maxprocs"), "maxprocs");
        Check.equal(Integer.toString(world), MPI.INFO_ENV.get("ompi_np"), "ompi_np");
        Check.equal("1", MPI.INFO_ENV.get("ompi_num_apps"), "ompi_num_apps");
        Check.equal("0", MPI.INFO_ENV.get("ompi_first_rank"), "ompi_first_rank");
        // The launchers start ranks in the launch directory, with $PWD naming it.
        Check.equal(System.getProperty("user.dir"), MPI.INFO_ENV.get("wdir"), "wdir");
        Check.isTrue(MPI.INFO_ENV.get("command") != null && MPI.INFO_ENV.get("host") != null,
                "command and host are there");
    }

    /**
     * A probe from MPI.PROC_NULL gives the no-process message; MPI_Imrecv on it returns an
     * active request (not MPI_REQUEST_NULL) that completes as a receive from MPI_PROC_NULL,
     * leaving the buffer alone.
     */
    @RankTest
    public void matchedReceiveOfTheNoProcessMessage(Intracomm comm) {
        for (boolean blockingProbe : new boolean[] {true, false}) {
            String how = blockingProbe ? "mProbe" : "imProbe";
            Message msg = new Message();
            Status s1 = blockingProbe ? msg.mProbe(MPI.PROC_NULL, 5, comm) : msg.imProbe(MPI.PROC_NULL, 5, comm);
            Check.isTrue(s1 != null, how + " from PROC_NULL finds the no-process message");
            Check.isTrue(msg.isNoProc(), how + ": message is the no-process message");
            Check.equal(MPI.PROC_NULL, s1.getSource(), how + ": source");
            Check.equal(MPI.ANY_TAG, s1.getTag(), how + ": tag");
            Check.equal(0, s1.getCount(MPI.INT), how + ": count");
            IntBuffer buf = MPI.newIntBuffer(2);
            buf.put(0, 0x01234567).put(1, 0x7bcdef01);
            Request r = msg.imRecv(buf, 0, MPI.INT);
            Check.isTrue(!r.isNull(), how + ": imRecv returns an active request");
            Check.isTrue(msg.isNull(), how + ": the message is used up");
            Status s2 = blockingProbe ? r.waitStatus() : r.testStatus();
            Check.isTrue(s2 != null, how + ": the request is complete at once");
            r.free();
            Check.equal(MPI.PROC_NULL, s2.getSource(), how + ": status source");
            Check.equal(MPI.ANY_TAG, s2.getTag(), how + ": status tag");
            Check.equal(0, s2.getCount(MPI.INT), how + ": status count");
            Check.equal(0x01234567, buf.get(0), how + ": buffer untouched");
            Check.equal(0x7bcdef01, buf.get(1), how + ": buffer untouched");
        }
    }

    /**
     * Comm.getAttr with MPI.KEYVAL_INVALID is MPI_ERR_KEYVAL (Open MPI checks it); a made key
     * with nothing set, or a deleted value, reads null.
     */
    @RankTest
    public void commAttributeKeys(Intracomm comm) {
        Intracomm dup = comm.dup();
        try {
            Check.throwsMpi(MPI.ERR_KEYVAL, () -> dup.getAttr(MPI.KEYVAL_INVALID), "KEYVAL_INVALID");
            Check.throwsMpi(MPI.ERR_KEYVAL, () -> MPI.INT.getAttr(MPI.KEYVAL_INVALID), "keyval");
            Check.isTrue(dup.getAttr(MPI.TAG_UB) != null, "MPI.TAG_UB still answers");
            int key = Comm.createKeyval();
            Check.isTrue(dup.getAttr(key) == null, "a made key with nothing set reads null");
            Integer value = 700 + comm.getRank();
            dup.setAttr(key, value);
            Check.equal(value, dup.getAttr(key), "value set under a made key");
            dup.deleteAttr(key);
            Check.isTrue(dup.getAttr(key) == null, "deleted value reads null");
            Comm.freeKeyval(key);
        } finally {
            dup.free();
        }
    }

    /**
     * Buffered sends with no buffer attached: MPI makes them erroneous, but Open MPI sends a
     * small one eagerly and programs rely on it (one int to every rank, itself included, with
     * ibSend); a long one is refused with MPI.ERR_BUFFER on both backends.
     */
    @RankTest
    public void smallBufferedSendsWithoutAttachedBuffer(Intracomm comm) {
        int me = comm.getRank(), size = comm.getSize();
        IntBuffer out = MPI.newIntBuffer(size), in = MPI.newIntBuffer(size);
        Request[] reqs = new Request[2 * size];
        for (int i = 0; i < size; i++) {
            out.put(i, 1000 * me + i);
            in.put(i, -1);
        }
        for (int i = 0; i < size; i++) {
            reqs[2 * i] = comm.iRecv(MPI.slice(in, i), 1, MPI.INT, i, 81);
        }
        for (int i = 0; i < size; i++) {
            reqs[2 * i + 1] = comm.ibSend(MPI.slice(out, i), 1, MPI.INT, i, 81);
        }
        Request.waitAll(reqs);
        for (int i = 0; i < size; i++) {
            Check.equal(1000 * i + me, in.get(i), "int ibSent by rank " + i + " without a buffer");
        }
        int[] small = new int[16], got = new int[16];
        for (int k = 0; k < small.length; k++) small[k] = me * 31 + k;
        comm.bSend(small, small.length, MPI.INT, me, 82);
        comm.recv(got, got.length, MPI.INT, me, 82);
        Check.arrays(small, got, "16 ints bSent to self without a buffer");
        byte[] big = new byte[1 << 20];
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.bSend(big, big.length, MPI.BYTE, me, 83), "buffer");
        comm.barrier();
    }

    /**
     * Win.callErrhandler applies the window's handler: a new window starts with its communicator's
     * handler (mpi4j keeps ERRORS_RETURN as the default everywhere, docs/errors.md; Open MPI 4's
     * windows start with ERRORS_ARE_FATAL) and under MPI.ERRORS_RETURN the call returns, as
     * MPI_Win_call_errhandler does (a fatal one ends the job, which a suite cannot check).
     */
    @RankTest
    public void windowCallErrhandlerReturnsUnderErrorsReturn(Intracomm comm) {
        Win win = Win.allocate(4 * 4, 4, MPI.INFO_NULL, comm);
        try {
            Check.isTrue(win.getErrhandler() == comm.getErrhandler(), "a new window's handler is its communicator's");
            win.setErrhandler(MPI.ERRORS_RETURN);
            win.callErrhandler(MPI.ERR_WIN); // returns: nothing thrown, the job goes on
            Check.isTrue(win.getErrhandler() == MPI.ERRORS_RETURN, "handler kept");
            comm.barrier();
        } finally {
            win.free();
        }
    }
}
