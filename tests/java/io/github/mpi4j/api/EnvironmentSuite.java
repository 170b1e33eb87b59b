package io.github.mpi4j.api;

import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.RankTest;
import java.util.ArrayList;
import java.util.List;
import mpi.Comm;
import mpi.Count;
import mpi.Errhandler;
import mpi.Info;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Prequest;
import mpi.Request;
import mpi.Status;

/**
 * Environment and attribute semantics, issue 10 item 7: predefined attributes, MPI.INFO_ENV,
 * error handlers applied by callErrhandler, completion calls on empty and inactive request
 * arrays, Status setters. Abort and the library version before Init run as whole programs
 * (EnvironmentProgramsTest).
 */
public class EnvironmentSuite {

    /** Predefined attributes: present where MPI requires them, in range, and the same on every rank. */
    @RankTest
    public void predefinedAttributes(Intracomm comm) {
        int size = comm.getSize();
        Check.equal(comm.getTagUpperBound(), ((Integer) comm.getAttr(MPI.TAG_UB)).intValue(), "TAG_UB");
        Check.isTrue(comm.getTagUpperBound() >= 32767, "TAG_UB >= 32767 (MPI's minimum)");
        Integer host = (Integer) comm.getAttr(MPI.HOST);
        Check.isTrue(host != null && (host == MPI.PROC_NULL || host >= 0), "HOST is PROC_NULL or a rank: " + host);
        Integer io = (Integer) comm.getAttr(MPI.IO);
        Check.isTrue(io != null && (io == MPI.ANY_SOURCE || io == MPI.PROC_NULL || io >= 0),
                "IO is ANY_SOURCE, PROC_NULL or a rank: " + io);
        Integer global = (Integer) comm.getAttr(MPI.WTIME_IS_GLOBAL);
        Check.isTrue(global == null || global == 0 || global == 1, "WTIME_IS_GLOBAL is 0 or 1: " + global);
        Integer appnum = (Integer) comm.getAttr(MPI.APPNUM);
        Check.isTrue(appnum == null || appnum == 0, "APPNUM of a one-program job is 0 (or absent): " + appnum);
        Integer universe = (Integer) comm.getAttr(MPI.UNIVERSE_SIZE);
        Check.isTrue(universe == null || universe >= 1, "UNIVERSE_SIZE >= 1 (or absent): " + universe);
        Integer last = (Integer) comm.getAttr(MPI.LASTUSEDCODE);
        Check.isTrue(last != null && last >= MPI.ERR_OTHER, "LASTUSEDCODE is at least the predefined classes: " + last);

        int[] mine = {host, io, global == null ? -99 : global, universe == null ? -99 : universe, last};
        int[] all = new int[mine.length * size];
        comm.allGather(mine, mine.length, MPI.INT, all, mine.length, MPI.INT);
        for (int r = 0; r < size; r++) {
            for (int k = 0; k < mine.length; k++) {
                Check.equal(mine[k], all[r * mine.length + k], "attribute " + k + " of rank " + r);
            }
        }
        Check.isTrue(comm.getAttr(12345) == null, "an unknown keyval has no value");
    }

    /** MPI.INFO_ENV after Init: the keys MPI defines, with this program's values. */
    @RankTest(processOnly = true)
    public void infoEnv(Intracomm comm) {
        Info env = MPI.INFO_ENV;
        Check.equal(String.valueOf(MPI.COMM_WORLD.getSize()), env.get("maxprocs"), "maxprocs");
        Check.equal(System.getProperty("user.dir"), env.get("wdir"), "wdir");
        Check.equal(System.getProperty("os.arch"), env.get("arch"), "arch");
        Check.equal(MPI.getProcessorName(), env.get("host"), "host");
        String[] levels = {"MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED", "MPI_THREAD_SERIALIZED", "MPI_THREAD_MULTIPLE"};
        Check.equal(levels[MPI.queryThread()], env.get("thread_level"), "thread_level");
        Check.equal(io.github.mpi4j.testing.RankRunner.class.getName(), env.get("command"), "command");
        Check.isTrue(env.get("argv").contains(EnvironmentSuite.class.getName()), "argv: " + env.get("argv"));
    }

    /** The library version is one text, the same before and after Init; the MPI version is at least 3.1. */
    @RankTest
    public void versions(Intracomm comm) {
        String lib = MPI.getLibVersion();
        Check.isTrue(lib != null && !lib.isBlank(), "getLibVersion is not empty");
        Check.isTrue(MPI.getVersion().getVersion() >= 3, "MPI version >= 3");
    }

    /**
     * callErrhandler: with ERRORS_RETURN the handler does nothing and the call returns (as
     * MPI_Comm_call_errhandler returns MPI_SUCCESS, and as programs for the Open MPI bindings
     * expect); a user handler gets the communicator and the code.
     */
    @RankTest
    public void errorHandlers(Intracomm comm) {
        Intracomm dup = comm.dup();
        try {
            Check.isTrue(dup.getErrhandler() == MPI.ERRORS_RETURN, "ERRORS_RETURN is the default");
            dup.callErrhandler(MPI.ERR_OTHER);
            dup.callErrhandler(MPI.ERR_ARG);
            List<Object> calls = new ArrayList<>();
            Errhandler mine = Comm.createErrhandler((c, code) -> {
                calls.add(c);
                calls.add(code);
            });
            dup.setErrhandler(mine);
            Check.isTrue(dup.getErrhandler() == mine, "getErrhandler returns the user handler");
            dup.callErrhandler(MPI.ERR_TRUNCATE + comm.getRank());
            dup.Call_errhandler(MPI.ERR_COUNT);
            Check.equal(4, calls.size(), "two calls recorded");
            Check.isTrue(calls.get(0) == dup && calls.get(2) == dup, "handler got the communicator");
            Check.equal(MPI.ERR_TRUNCATE + comm.getRank(), ((Integer) calls.get(1)).intValue(), "first code");
            Check.equal(MPI.ERR_COUNT, ((Integer) calls.get(3)).intValue(), "second code");
            Check.isTrue(comm.getErrhandler() == MPI.ERRORS_RETURN, "the original communicator kept its handler");
            Check.throwsMpi(MPI.ERR_ARG, () -> Comm.createErrhandler(null), "function is null");
            Check.throwsMpi(MPI.ERR_ARG, () -> dup.setErrhandler(null), "errhandler is null");
        } finally {
            dup.free();
        }
    }

    /** Completion calls on empty and all-inactive arrays: MPI.UNDEFINED (null / empty for the *some forms). */
    @RankTest
    public void completionOfInactiveRequests(Intracomm comm) {
        Request[] none = new Request[0];
        Check.equal(MPI.UNDEFINED, Request.waitAny(none), "waitAny of none");
        Check.equal(MPI.UNDEFINED, Request.testAny(none), "testAny of none");
        Check.equal(MPI.UNDEFINED, Request.waitAnyStatus(none).getIndex(), "waitAnyStatus of none");
        Check.equal(MPI.UNDEFINED, Request.testAnyStatus(none).getIndex(), "testAnyStatus of none");
        Check.isTrue(Request.waitSome(none) == null, "waitSome of none is null (outcount MPI_UNDEFINED)");
        Check.isTrue(Request.testSome(none) == null, "testSome of none is null");
        Check.isTrue(Request.waitSomeStatus(none) == null, "waitSomeStatus of none is null");
        Check.isTrue(Request.testSomeStatus(none) == null, "testSomeStatus of none is null");
        Check.equal(0, Request.Waitsome(none).length, "mpiJava Waitsome of none is empty");
        Check.equal(MPI.UNDEFINED, Request.Waitany(none).index, "mpiJava Waitany of none");
        Check.isTrue(Request.testAll(none), "testAll of none");

        // Inactive: the null request, a completed request, a persistent request never started.
        int rank = comm.getRank();
        int[] buf = new int[1];
        Request done = comm.iSend(new int[] {rank}, 1, MPI.INT, rank, 31);
        comm.recv(buf, 1, MPI.INT, rank, 31);
        done.waitFor();
        Prequest idle = comm.recvInit(new int[1], 1, MPI.INT, rank, 32);
        Request[] inactive = {MPI.REQUEST_NULL, done, idle, null};
        Check.equal(MPI.UNDEFINED, Request.waitAny(inactive), "waitAny of inactive");
        Check.equal(MPI.UNDEFINED, Request.testAny(inactive), "testAny of inactive");
        Check.equal(MPI.UNDEFINED, Request.waitAnyStatus(inactive).getIndex(), "waitAnyStatus of inactive");
        Check.isTrue(Request.waitSome(inactive) == null, "waitSome of inactive is null");
        Check.isTrue(Request.testSome(inactive) == null, "testSome of inactive is null");
        Check.equal(0, Request.Testsome(inactive).length, "mpiJava Testsome of inactive is empty");
        Status[] all = Request.waitAllStatus(inactive);
        Check.equal(MPI.PROC_NULL, all[0].getSource(), "empty status for an inactive request");
        idle.free();
    }

    /** Status setters round-trip through the getters, for every kind of type. */
    @RankTest
    public void statusSetters(Intracomm comm) {
        Status s = new Status();
        Check.isTrue(!s.isCancelled(), "a new status is not cancelled");
        s.setCancelled(true);
        Check.isTrue(s.isCancelled() && s.Test_cancelled(), "setCancelled(true)");
        s.setCancelled(false);
        Check.isTrue(!s.isCancelled(), "setCancelled(false)");
        int k = 5 + comm.getRank();
        s.setElements(MPI.INT, k);
        Check.equal(k, s.getElements(MPI.INT), "elements of MPI.INT");
        Check.equal(k, s.getCount(MPI.INT), "count of MPI.INT");
        Check.equal(4L * k, s.getCount(MPI.BYTE), "the same bytes as MPI.BYTE");
        s.setElements(MPI.DOUBLE2, 2 * k);
        Check.equal(2 * k, s.getElements(MPI.DOUBLE2), "elements of MPI.DOUBLE2");
        Check.equal(k, s.getCount(MPI.DOUBLE2), "count of MPI.DOUBLE2 pairs");
        s.setElementsX(MPI.SHORT, new Count(3L * k));
        Check.equal(3L * k, s.getElementsX(MPI.SHORT).getCount(), "getElementsX after setElementsX");
        s.setElements(MPI.OBJECT, k);
        Check.equal(k, s.getCount(MPI.OBJECT), "count of MPI.OBJECT");
        s.setElements(MPI.BYTE, 0);
        Check.equal(0, s.getCount(MPI.BYTE), "zero elements");
        Check.throwsMpi(MPI.ERR_TYPE, () -> s.setElements(null, 1), "datatype is null");
        Check.throwsMpi(MPI.ERR_COUNT, () -> s.setElements(MPI.INT, -2), "-2");
        Check.throwsMpi(MPI.ERR_ARG, () -> s.setElementsX(MPI.INT, null), "count is null");
    }
}
