package mpi;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** Attribute keys of windows (MPI_Win_create_keyval): their own numbers, above the predefined WIN_* ones. */
final class WinKeyvals {
    private static final AtomicInteger NEXT = new AtomicInteger(1000);
    private static final Set<Integer> LIVE = ConcurrentHashMap.newKeySet();

    private WinKeyvals() {
    }

    static int create() {
        int k = NEXT.getAndIncrement();
        LIVE.add(k);
        return k;
    }

    static void free(int keyval) {
        if (!LIVE.remove(keyval)) {
            throw MPIException.of(MPI.ERR_KEYVAL, "Win.freeKeyval: keyval " + keyval
                    + " was not made by Win.createKeyval (or was freed)");
        }
    }

    static void check(String call, int keyval) {
        if (!LIVE.contains(keyval)) {
            throw MPIException.of(MPI.ERR_KEYVAL, call + ": keyval " + keyval + " is neither a window attribute "
                    + "(MPI.WIN_BASE, WIN_SIZE, WIN_DISP_UNIT, WIN_CREATE_FLAVOR, WIN_MODEL) nor a key from "
                    + "Win.createKeyval (or it was freed)");
        }
    }
}
