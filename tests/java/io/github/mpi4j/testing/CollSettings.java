package io.github.mpi4j.testing;

import mpi.Intracomm;

/**
 * A communicator whose fabric collectives follow forced schedule settings (mpi4j.allreduce,
 * mpi4j.bcast, mpi4j.allgather, mpi4j.coll.segment.kb; null leaves one at its default). The
 * settings are read when a communicator is made, and ranks that are threads share the system
 * properties: every rank sets them before anyone makes its communicator, and nobody clears them
 * before every rank has made it.
 */
public final class CollSettings {
    private CollSettings() {
    }

    public static Intracomm with(Intracomm comm, String allreduce, String bcast, String allgather, String segmentKb) {
        String[][] settings = {
            {"mpi4j.allreduce", allreduce}, {"mpi4j.bcast", bcast},
            {"mpi4j.allgather", allgather}, {"mpi4j.coll.segment.kb", segmentKb}};
        for (String[] s : settings) set(s[0], s[1]);
        comm.barrier();
        Intracomm c = comm.dup();
        comm.barrier();
        for (String[] s : settings) set(s[0], null);
        return c;
    }

    private static void set(String key, String value) {
        if (value == null) System.clearProperty(key);
        else System.setProperty(key, value);
    }
}
