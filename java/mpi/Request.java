package mpi;

import io.github.mpi4j.runtime.Session;
import io.github.mpi4j.spi.BackendRequest;
import io.github.mpi4j.spi.StatusData;
import java.util.Arrays;

/**
 * A non-blocking operation. Holds the buffers of the operation so they stay reachable until it
 * completes. After completion a request is inactive ({@link #isNull()} is true); waiting on it
 * again returns an empty status at once.
 *
 * <p>Both API styles: Open MPI's {@link #waitFor()}, {@link #test()}, {@link #waitAll(Request[])}
 * and mpiJava's {@link #Wait()}, {@link #Test()}, {@link #Waitall(Request[])}.
 */
public class Request implements Freeable {
    /** Runs once when the operation completes (copies back, deserializes objects). */
    interface Completion {
        void complete(StatusData status);
    }

    final Session session;
    BackendRequest impl;
    /** Buffers and objects the operation uses; released at completion. */
    private Object keepAlive;
    private Completion completion;
    /** For persistent requests: whether started and not yet completed. */
    boolean active;
    /**
     * Set when the backend completed this request inside a testAll that found others still
     * running. MPI_Testall modifies no request unless all are complete, so the completion is
     * kept here and reported (with this status) by the next completion call on the request.
     */
    private StatusData parked;

    Request(Session session, BackendRequest impl, Object keepAlive, Completion completion) {
        this.session = session;
        this.impl = impl;
        this.keepAlive = keepAlive;
        this.completion = completion;
        this.active = impl != null;
    }

    /** An already completed request (operations that finished at once). */
    static Request completed(Session session) {
        return new Request(session, null, null, null);
    }

    /** The null request (MPI.REQUEST_NULL). */
    Request() {
        this(null, null, null, null);
    }

    // ---- Open MPI style ----------------------------------------------------------------

    /** Waits for completion. */
    public void waitFor() {
        waitStatus(false);
    }

    /** Waits for completion and returns the status. */
    public Status waitStatus() {
        return waitStatus(true);
    }

    /** True if complete (then the request is inactive). */
    public boolean test() {
        return testStatus(false) != null;
    }

    /** The status if complete, null otherwise. */
    public Status testStatus() {
        return testStatus(true);
    }

    /** Status of a completed request without freeing it (MPI_Request_get_status), or null. */
    public Status getStatus() {
        if (!isActive()) return emptyStatus();
        if (parked != null) return new Status(parked);
        session.check();
        StatusData d = new StatusData();
        if (!impl.test(d)) return null;
        parked = d; // done, but the request stays active until a wait or test reports it
        return new Status(d);
    }

    public void cancel() {
        if (isActive() && parked == null) {
            session.check();
            impl.cancel();
        }
    }

    @Override
    public void free() {
        if (impl != null) {
            session.check();
            impl.free();
            impl = null;
            active = false;
            parked = null;
        }
    }

    public boolean isNull() {
        return impl == null;
    }

    // ---- mpiJava 1.2 style -------------------------------------------------------------

    public Status Wait() {
        return waitStatus();
    }

    /** The status if complete, null otherwise. */
    public Status Test() {
        return testStatus();
    }

    public void Free() {
        free();
    }

    public void Cancel() {
        cancel();
    }

    public boolean Is_null() {
        return isNull();
    }

    // ---- single completion ---------------------------------------------------------------

    boolean isActive() {
        return impl != null && active;
    }

    private Status waitStatusBody(boolean wantStatus) {
        if (!isActive()) return wantStatus ? emptyStatus() : null;
        StatusData d = takeParked();
        if (d == null) {
            session.check();
            d = new StatusData();
            impl.waitFor(d);
        }
        finish(d);
        return wantStatus ? new Status(d) : null;
    }

    private Status testStatusBody(boolean wantStatus) {
        if (!isActive()) return emptyStatus();
        StatusData d = takeParked();
        if (d == null) {
            session.check();
            d = new StatusData();
            if (!impl.test(d)) return null;
        }
        finish(d);
        return wantStatus ? new Status(d) : EMPTY_MARKER;
    }

    private static final Status EMPTY_MARKER = new Status();

    /** The status of a completion the backend already reported, or null; clears it. */
    private StatusData takeParked() {
        StatusData d = parked;
        parked = null;
        return d;
    }

    /** Bookkeeping after the backend reports completion. */
    void finish(StatusData d) {
        Completion c = completion;
        if (c != null) c.complete(d);
        if (impl != null && impl.isPersistent()) {
            active = false;
        } else {
            BackendRequest done = impl;
            impl = null;
            active = false;
            keepAlive = null;
            completion = null;
            if (done != null) done.released();  // nothing here reaches it any more
        }
    }

    static Status emptyStatus() {
        return new Status();
    }

    // ---- several requests ------------------------------------------------------------------

    private static Session sessionOf(Request[] requests, String call) {
        if (requests == null) throw MPIException.of(MPI.ERR_REQUEST, call + ": requests array is null");
        for (Request r : requests) {
            if (r != null && r.session != null) {
                r.session.check();
                return r.session;
            }
        }
        return null;
    }

    private static BackendRequest[] active(Request[] requests) {
        BackendRequest[] b = new BackendRequest[requests.length];
        fillActive(requests, b);
        return b;
    }

    private static void fillActive(Request[] requests, BackendRequest[] b) {
        for (int i = 0; i < requests.length; i++) {
            Request r = requests[i];
            // A parked request is complete in the backend already: nothing more to ask it.
            b[i] = r != null && r.isActive() && r.parked == null ? r.impl : null;
        }
    }

    /**
     * The backend requests of this thread's last {@link #waitAll(Request[])} without statuses,
     * emptied after each call: a loop that waits on windows of one size (osu_mbw_mr's) allocates
     * no array per window.
     */
    private static final ThreadLocal<BackendRequest[]> WAIT_ALL_SCRATCH = new ThreadLocal<>();

    private static void waitAllBody(Request[] requests) {
        Session s = sessionOf(requests, "Request.waitAll");
        if (s == null) return;
        receiveObjectsFirst(requests);
        BackendRequest[] b = WAIT_ALL_SCRATCH.get();
        if (b == null || b.length != requests.length) {
            b = new BackendRequest[requests.length];
            WAIT_ALL_SCRATCH.set(b);
        }
        try {
            fillActive(requests, b);
            s.backend().waitAll(b, null);
        } finally {
            Arrays.fill(b, null);  // keeps no request reachable
        }
        // The backend changed no Request: those it waited on are still active with nothing parked.
        for (Request r : requests) {
            StatusData p = r == null ? null : r.takeParked();
            if (p != null) r.finish(p);
            else if (r != null && r.isActive()) r.finishUnreported();
        }
    }

    /** {@link #finish} for a completion whose status nobody asked for (a status only if a completion reads it). */
    private void finishUnreported() {
        finish(completion == null ? null : new StatusData());
    }

    private static Status[] waitAllStatusBody(Request[] requests) {
        Session s = sessionOf(requests, "Request.waitAll");
        Status[] out = new Status[requests.length];
        if (s == null) {
            for (int i = 0; i < out.length; i++) out[i] = emptyStatus();
            return out;
        }
        receiveObjectsFirst(requests);
        BackendRequest[] b = active(requests);
        BackendRequest[] before = b.clone();
        StatusData[] d = newStatusData(b.length);
        s.backend().waitAll(b, d);
        return finishAll(requests, before, d);
    }

    /** After all active requests completed: reports each (parked or just completed) with its status. */
    private static Status[] finishAll(Request[] requests, BackendRequest[] before, StatusData[] d) {
        Status[] out = new Status[requests.length];
        for (int i = 0; i < requests.length; i++) {
            StatusData p = requests[i] == null ? null : requests[i].takeParked();
            if (p != null) d[i] = p;
            if (p != null || before[i] != null) {
                requests[i].finish(d[i]);
                out[i] = new Status(d[i], i);
            } else {
                out[i] = emptyStatus();
            }
        }
        return out;
    }

    /** Index of the completed request, or MPI.UNDEFINED if none was active. */
    public static int waitAny(Request[] requests) {
        return waitAnyStatus(requests).index;
    }

    private static Status waitAnyStatusBody(Request[] requests) {
        Session s = sessionOf(requests, "Request.waitAny");
        int p = firstParked(requests);
        if (p >= 0) return anyResult(requests, p, requests[p].takeParked());
        BackendRequest[] b = s == null ? new BackendRequest[0] : active(requests);
        StatusData d = new StatusData();
        int i = s == null ? -1 : s.backend().waitAny(b, d);
        return anyResult(requests, i, d);
    }

    /** True when all active requests are complete; otherwise false and no request is modified. */
    public static boolean testAll(Request[] requests) {
        return testAllStatus(requests) != null;
    }

    /**
     * Statuses if all are complete, null otherwise. As MPI_Testall: when not all are complete,
     * no request is completed or freed (those already done are reported by a later call).
     */
    private static Status[] testAllStatusBody(Request[] requests) {
        Session s = sessionOf(requests, "Request.testAll");
        if (s == null) {
            Status[] out = new Status[requests.length];
            for (int i = 0; i < out.length; i++) out[i] = emptyStatus();
            return out;
        }
        BackendRequest[] b = active(requests);
        BackendRequest[] before = b.clone();
        StatusData[] d = newStatusData(b.length);
        boolean all = s.backend().testAll(b, d);
        if (!all) {
            // The backend may have completed some one by one: keep them for the next call.
            for (int i = 0; i < requests.length; i++) {
                if (before[i] != null && b[i] == null) requests[i].parked = d[i];
            }
            return null;
        }
        return finishAll(requests, before, d);
    }

    /** Index of a completed request; MPI.UNDEFINED if none was active or none has completed yet. */
    public static int testAny(Request[] requests) {
        Status st = testAnyStatus(requests);
        return st == null ? MPI.UNDEFINED : st.index;
    }

    /**
     * Status of a completed request (its index in {@link Status#index}), null if none completed
     * yet, or an empty status with index MPI.UNDEFINED if none was active.
     */
    private static Status testAnyStatusBody(Request[] requests) {
        Session s = sessionOf(requests, "Request.testAny");
        int p = firstParked(requests);
        if (p >= 0) return anyResult(requests, p, requests[p].takeParked());
        BackendRequest[] b = s == null ? new BackendRequest[0] : active(requests);
        StatusData d = new StatusData();
        int i = s == null ? -1 : s.backend().testAny(b, d);
        if (i == Integer.MIN_VALUE) return null;
        return anyResult(requests, i, d);
    }

    /** Indices of the completed requests (at least one), or null if none was active. */
    public static int[] waitSome(Request[] requests) {
        return indices(waitSomeStatus(requests));
    }

    public static Status[] waitSomeStatus(Request[] requests) {
        return some(requests, "Request.waitSome", true);
    }

    /** Indices of the completed requests (possibly none), or null if none was active. */
    public static int[] testSome(Request[] requests) {
        return indices(testSomeStatus(requests));
    }

    public static Status[] testSomeStatus(Request[] requests) {
        return some(requests, "Request.testSome", false);
    }

    private static Status[] someBody(Request[] requests, String call, boolean blocking) {
        Session s = sessionOf(requests, call);
        if (s == null) return null;
        BackendRequest[] b = active(requests);
        StatusData[] d = newStatusData(b.length);
        int parkedCount = 0;
        for (Request r : requests) if (r != null && r.parked != null) parkedCount++;
        // With parked completions in hand there is no need to block for more.
        int[] done = blocking && parkedCount == 0 ? s.backend().waitSome(b, d) : s.backend().testSome(b, d);
        if (done == null && parkedCount == 0) return null;
        if (done == null) done = new int[0];
        Status[] out = new Status[parkedCount + done.length];
        int n = 0;
        for (int i = 0; i < requests.length; i++) {
            StatusData p = requests[i] == null ? null : requests[i].takeParked();
            if (p == null) continue;
            requests[i].finish(p);
            out[n++] = new Status(p, i);
        }
        for (int j = 0; j < done.length; j++) {
            requests[done[j]].finish(d[j]);
            out[n++] = new Status(d[j], done[j]);
        }
        return out;
    }

    private static int firstParked(Request[] requests) {
        if (requests == null) return -1;
        for (int i = 0; i < requests.length; i++) {
            if (requests[i] != null && requests[i].parked != null) return i;
        }
        return -1;
    }

    private static Status anyResult(Request[] requests, int i, StatusData d) {
        if (i < 0) {
            Status st = emptyStatus();
            st.index = MPI.UNDEFINED;
            return st;
        }
        requests[i].finish(d);
        return new Status(d, i);
    }

    private static int[] indices(Status[] st) {
        if (st == null) return null;
        int[] idx = new int[st.length];
        for (int i = 0; i < st.length; i++) idx[i] = st[i].index;
        return idx;
    }

    private static StatusData[] newStatusData(int n) {
        StatusData[] d = new StatusData[n];
        for (int i = 0; i < n; i++) d[i] = new StatusData();
        return d;
    }

    // ---- mpiJava 1.2 static names ---------------------------------------------------------

    public static Status[] Waitall(Request[] requests) {
        return waitAllStatus(requests);
    }

    public static Status Waitany(Request[] requests) {
        return waitAnyStatus(requests);
    }

    /** mpiJava 1.2: the completed requests' statuses; an empty array (never null) if none was active. */
    public static Status[] Waitsome(Request[] requests) {
        Status[] st = waitSomeStatus(requests);
        return st == null ? new Status[0] : st;
    }

    /** mpiJava 1.2: all statuses if all completed, otherwise null and no request is modified. */
    public static Status[] Testall(Request[] requests) {
        return testAllStatus(requests);
    }

    /** mpiJava 1.2: the status of a completed request, or null if none completed. */
    public static Status Testany(Request[] requests) {
        return testAnyStatus(requests);
    }

    /** mpiJava 1.2: the completed requests' statuses; an empty array (never null) if none completed. */
    public static Status[] Testsome(Request[] requests) {
        Status[] st = testSomeStatus(requests);
        return st == null ? new Status[0] : st;
    }

    // ---- MPI.OBJECT receives (issue 10 item 8) -----------------------------------------------

    /** Completes the lazily matched object receives before a wait on all (see ObjectRequests.receivesLater). */
    private static void receiveObjectsFirst(Request[] requests) {
        for (Request r : requests) {
            if (r != null && r.isActive() && r.parked == null && ObjectRequests.receivesLater(r.impl)) {
                StatusData d = new StatusData();
                r.impl.waitFor(d);
                r.parked = d;
            }
        }
    }

    // ---- error handlers (issue 10 item 7; see CallErrors) ----

    /** The communicator whose error handler gets this request's errors (null: none, they are thrown). */
    Comm comm;

    /** Marks this request as one of {@code c}'s operations; returns it. */
    Request on(Comm c) {
        comm = c;
        return this;
    }

    private Status waitStatus(boolean wantStatus) {
        Throwable failure = null;
        int[] depth = CallErrors.enter();
        try {
            return waitStatusBody(wantStatus);
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            CallErrors.leave(depth, comm, failure);
        }
    }

    private Status testStatus(boolean wantStatus) {
        Throwable failure = null;
        int[] depth = CallErrors.enter();
        try {
            return testStatusBody(wantStatus);
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            CallErrors.leave(depth, comm, failure);
        }
    }

    // The completion calls on several requests: a failure goes to the error handler of the
    // communicator of the first request that has one (MPI names the failing request's; mpi4j
    // reports a failure of the call as a whole, so requests of one communicator, the usual case,
    // get exactly MPI's behaviour).

    private static Comm commOf(Request[] requests) {
        if (requests == null) return null;
        for (Request r : requests) if (r != null && r.comm != null) return r.comm;
        return null;
    }

    private static <T> T completing(Request[] requests, java.util.function.Supplier<T> body) {
        Throwable failure = null;
        int[] depth = CallErrors.enter();
        try {
            return body.get();
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            CallErrors.leave(depth, commOf(requests), failure);
        }
    }

    public static void waitAll(Request[] requests) {
        completing(requests, () -> {
            waitAllBody(requests);
            return null;
        });
    }

    public static Status[] waitAllStatus(Request[] requests) {
        return completing(requests, () -> waitAllStatusBody(requests));
    }

    public static Status waitAnyStatus(Request[] requests) {
        return completing(requests, () -> waitAnyStatusBody(requests));
    }

    public static Status[] testAllStatus(Request[] requests) {
        return completing(requests, () -> testAllStatusBody(requests));
    }

    public static Status testAnyStatus(Request[] requests) {
        return completing(requests, () -> testAnyStatusBody(requests));
    }

    private static Status[] some(Request[] requests, String call, boolean blocking) {
        return completing(requests, () -> someBody(requests, call, blocking));
    }
}
