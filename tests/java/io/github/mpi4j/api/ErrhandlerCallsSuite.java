package io.github.mpi4j.api;

import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.RankTest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import mpi.Comm;
import mpi.Errhandler;
import mpi.Group;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * Issue 10 item 7: a communicator's error handler applies to the errors of calls on it. A user
 * handler is called once per failed call, with the communicator and the error code, and the
 * call still throws; calls that succeed never reach it; new communicators inherit it.
 * ERRORS_ARE_FATAL in a failing call is checked in real processes (ErrhandlerCallsTest).
 */
public class ErrhandlerCallsSuite {

    /** What a user handler saw: the communicator and the code of each call. */
    private static final class Recorder {
        final List<Comm> comms = new ArrayList<>();
        final List<Integer> codes = new ArrayList<>();
        final Errhandler handler = Comm.createErrhandler((c, code) -> {
            comms.add(c);
            codes.add(code);
        });

        /** Exactly one call since the last check, on {@code comm}, with the code of {@code e}. */
        void calledOnce(Comm comm, MPIException e, String what) {
            Check.equal(1, codes.size(), what + ": handler calls");
            Check.isTrue(comms.get(0) == comm, what + ": handler got the communicator of the call");
            Check.equal(e.getErrorCode(), codes.get(0).intValue(), what + ": handler got the error code");
            comms.clear();
            codes.clear();
        }

        void notCalled(String what) {
            Check.equal(0, codes.size(), what + ": handler calls");
        }
    }

    @RankTest
    public void userHandlerGetsPointToPointErrors(Intracomm comm) {
        int self = comm.getRank(), size = comm.getSize();
        Intracomm dup = comm.dup();
        try {
            Recorder rec = new Recorder();
            dup.setErrhandler(rec.handler);
            MPIException e = Check.throwsMpi(MPI.ERR_RANK, () -> dup.send(new int[4], 4, MPI.INT, size, 1),
                    "dest " + size);
            rec.calledOnce(dup, e, "send to rank " + size);
            e = Check.throwsMpi(MPI.ERR_TAG, () -> dup.Isend(new int[4], 0, 4, MPI.INT, self, -3), "tag -3");
            rec.calledOnce(dup, e, "Isend with tag -3");
            // sendRecv runs a send and a receive inside: still one handler call.
            e = Check.throwsMpi(MPI.ERR_RANK, () -> dup.sendRecv(new int[1], 1, MPI.INT, self, 2, new int[1], 1,
                    MPI.INT, size + 5, 2), "source " + (size + 5));
            rec.calledOnce(dup, e, "sendRecv from rank " + (size + 5));
            e = Check.throwsMpi(MPI.ERR_BUFFER, () -> dup.recv(new int[2], 3, MPI.INT, self, 4), "count 3");
            rec.calledOnce(dup, e, "recv of 3 into int[2]");

            // Calls that succeed do not reach the handler; the message goes through.
            int[] got = new int[1];
            Request r = dup.iRecv(got, 1, MPI.INT, self, 5);
            dup.send(new int[] {1000 + self}, 1, MPI.INT, self, 5);
            r.waitFor();
            Check.equal(1000 + self, got[0], "self message after the errors");
            rec.notCalled("successful calls");

            // The parent keeps ERRORS_RETURN: its errors reach no handler.
            Check.throwsMpi(MPI.ERR_RANK, () -> comm.send(new int[1], 1, MPI.INT, size, 1), "dest");
            rec.notCalled("an error on the parent communicator");
        } finally {
            dup.free();
        }
    }

    @RankTest
    public void userHandlerGetsCollectiveErrors(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        Intracomm dup = comm.dup();
        try {
            Recorder rec = new Recorder();
            dup.setErrhandler(rec.handler);
            MPIException e = Check.throwsMpi(MPI.ERR_ROOT, () -> dup.bcast(new int[1], 1, MPI.INT, size),
                    "root " + size);
            rec.calledOnce(dup, e, "bcast with root " + size);
            e = Check.throwsMpi(MPI.ERR_OP, () -> dup.allReduce(new int[1], new int[1], 1, MPI.INT, null), "op");
            rec.calledOnce(dup, e, "allReduce with a null op");
            e = Check.throwsMpi(MPI.ERR_ROOT, () -> dup.iReduce(new int[1], new int[1], 1, MPI.INT, MPI.SUM, -4),
                    "root -4");
            rec.calledOnce(dup, e, "iReduce with root -4");
            e = Check.throwsMpi(MPI.ERR_ARG, () -> dup.split(-7, rank), "colour -7");
            rec.calledOnce(dup, e, "split with colour -7");

            // The communicator still works, and a good collective does not reach the handler.
            int[] sum = new int[1];
            dup.allReduce(new int[] {rank + 1}, sum, 1, MPI.INT, MPI.SUM);
            Check.equal((long) size * (size + 1) / 2, sum[0], "sum of rank+1 after the errors");
            rec.notCalled("successful collectives");
        } finally {
            dup.free();
        }
    }

    /** An error found when a request completes goes to the handler of the request's communicator. */
    @RankTest
    public void userHandlerGetsCompletionErrors(Intracomm comm) {
        int self = comm.getRank();
        Intracomm dup = comm.dup();
        try {
            Recorder rec = new Recorder();
            dup.setErrhandler(rec.handler);
            // Four objects into a receive of two: the receive finds the truncation when it completes
            // (object receives match their message in wait/test), alike on every backend.
            Request r = dup.iRecv(new Object[2], 2, MPI.OBJECT, self, 6);
            Request s = dup.iSend(new Object[] {"a", "b", "c", "d"}, 4, MPI.OBJECT, self, 6);
            MPIException e = Check.throwsMpi(MPI.ERR_TRUNCATE, r::waitFor, "4");
            rec.calledOnce(dup, e, "wait on a truncated receive");
            s.waitFor();
            rec.notCalled("the send's wait");

            // The same through the completion calls on several requests (waitAll, waitAny, testSome...).
            Request[] pair = {dup.iRecv(new Object[1], 1, MPI.OBJECT, self, 7),
                dup.iSend(new Object[] {"x", "y", "z"}, 3, MPI.OBJECT, self, 7)};
            MPIException all = Check.throwsMpi(MPI.ERR_TRUNCATE, () -> Request.waitAll(pair), "3");
            rec.calledOnce(dup, all, "waitAll on a truncated receive");
            pair[1].waitFor();
            Request[] one = {dup.iRecv(new Object[1], 1, MPI.OBJECT, self, 8),
                dup.iSend(new Object[] {"p", "q"}, 2, MPI.OBJECT, self, 8)};
            MPIException some = Check.throwsMpi(MPI.ERR_TRUNCATE, () -> Request.waitSome(new Request[] {one[0]}), "2");
            rec.calledOnce(dup, some, "waitSome on a truncated receive");
            one[1].waitFor();

            // A non-blocking collective's request carries its communicator too; a good one is quiet.
            int[] max = new int[1];
            Request c = dup.iAllReduce(new int[] {self}, max, 1, MPI.INT, MPI.MAX);
            c.waitFor();
            Check.equal(comm.getSize() - 1, max[0], "max of the ranks");
            rec.notCalled("successful completions");
        } finally {
            dup.free();
        }
    }

    /**
     * Threads that fail calls at the same time each get one handler call per failed call: every
     * thread keeps its own count of open calls (CallErrors caches the last caller's), so no
     * thread's call is taken for another's nested one. The calls fail their argument checks,
     * before any backend, so this holds at every thread level.
     */
    @RankTest
    public void everyThreadsFailedCallsReachTheHandlerOnceEach(Intracomm comm) throws InterruptedException {
        int size = comm.getSize();
        Intracomm dup = comm.dup();
        try {
            AtomicInteger calls = new AtomicInteger();
            AtomicInteger wrongCode = new AtomicInteger();
            dup.setErrhandler(Comm.createErrhandler((c, code) -> {
                if (code != MPI.ERR_RANK && code != MPI.ERR_TAG && code != MPI.ERR_BUFFER) wrongCode.incrementAndGet();
                calls.incrementAndGet();
            }));
            int threads = 3, rounds = 4_000;
            AtomicInteger thrown = new AtomicInteger();
            AtomicReference<Throwable> unexpected = new AtomicReference<>();
            Thread[] workers = new Thread[threads];
            for (int t = 0; t < threads; t++) {
                int id = t;
                workers[t] = new Thread(() -> {
                    for (int i = 0; i < rounds; i++) {
                        try {
                            switch ((i + id) % 3) {
                                case 0: dup.iSend(new int[1], 1, MPI.INT, size + i, 1); break;
                                case 1: dup.iRecv(new int[1], 1, MPI.INT, 0, -2 - i); break;
                                default: dup.recv(new int[2], 3, MPI.INT, 0, 4); break;
                            }
                            unexpected.compareAndSet(null, new AssertionError("round " + i + " did not fail"));
                        } catch (MPIException e) {
                            thrown.incrementAndGet();
                        } catch (Throwable e) {
                            unexpected.compareAndSet(null, e);
                        }
                    }
                }, "failing-calls-" + t);
                workers[t].start();
            }
            for (Thread w : workers) w.join(60_000);
            for (Thread w : workers) Check.isTrue(!w.isAlive(), w.getName() + " finished within 60 s");
            Check.isTrue(unexpected.get() == null, "only MPIExceptions: " + unexpected.get());
            Check.equal(threads * rounds, thrown.get(), "failed calls");
            Check.equal(threads * rounds, calls.get(), "handler calls, one per failed call");
            Check.equal(0, wrongCode.get(), "handler calls with a code other than the calls' own");
        } finally {
            dup.free();
        }
    }

    /** New communicators start with their parent's handler (MPI's rule; COMM_WORLD's default is checked by ErrhandlerCallsProgram). */
    @RankTest
    public void newCommunicatorsInheritTheHandler(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        Intracomm parent = comm.dup();
        Check.isTrue(parent.getErrhandler() == comm.getErrhandler(), "dup of the suite's communicator");
        List<Comm> made = new ArrayList<>();
        try {
            Recorder rec = new Recorder();
            parent.setErrhandler(rec.handler);
            Intracomm dup = parent.dup();
            made.add(dup);
            Intracomm split = parent.split(rank % 2, -rank);
            made.add(split);
            Group firstHalf = parent.getGroup().incl(range((size + 1) / 2));
            Intracomm created = parent.create(firstHalf);
            if (!created.isNull()) made.add(created);
            Check.equal(rank < (size + 1) / 2, !created.isNull(), "create: member of the first half");
            Intracomm cart = parent.createCart(new int[] {size}, new boolean[] {false}, false);
            made.add(cart);
            Intracomm grandchild = split.dup();
            made.add(grandchild);
            for (Comm c : made) {
                Check.isTrue(c.getErrhandler() == rec.handler, c.getName() + " inherited the user handler");
            }
            // The inherited handler is applied with the child communicator.
            MPIException e = Check.throwsMpi(MPI.ERR_RANK, () -> split.send(new int[1], 1, MPI.INT,
                    split.getSize(), 1), "dest");
            rec.calledOnce(split, e, "send on the split communicator");

            // A child keeps the handler it was given, whatever the parent does later.
            parent.setErrhandler(MPI.ERRORS_RETURN);
            Check.isTrue(dup.getErrhandler() == rec.handler, "the dup keeps the inherited handler");
            Intracomm later = parent.dup();
            made.add(later);
            Check.isTrue(later.getErrhandler() == MPI.ERRORS_RETURN, "a dup made later inherits ERRORS_RETURN");
        } finally {
            for (Comm c : made) c.free();
            parent.free();
        }
    }

    private static int[] range(int n) {
        int[] r = new int[n];
        for (int i = 0; i < n; i++) r[i] = i;
        return r;
    }
}
