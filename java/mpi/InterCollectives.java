package mpi;

import io.github.mpi4j.buffer.Buffers;
import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.BackendRequest;
import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.CollectiveOps;
import io.github.mpi4j.spi.Intercommunication;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.Predefined;
import io.github.mpi4j.spi.TypeDesc;

/**
 * The collectives of {@link Comm} on an intercommunicator, with MPI-3's semantics: the checks
 * and buffer sizes differ from an intracommunicator's, the data moves in the backend.
 *
 * <ul>
 *   <li>Rooted calls: the root passes {@code MPI.ROOT}, the other ranks of its group
 *       {@code MPI.PROC_NULL}, the ranks of the other group the root's rank in its group. Ranks
 *       passing {@code MPI.PROC_NULL} need no buffers.</li>
 *   <li>Blocks and counts arrays count the remote group (gather, scatter, all-gather,
 *       all-to-all); reduce-scatter's counts are the local group's.</li>
 *   <li>{@code MPI.IN_PLACE} is refused, as MPI defines no in-place forms on
 *       intercommunicators. {@code MPI.OBJECT} and types over it go to
 *       {@link ObjectInterCollectives} (issue 10).</li>
 *   <li>The blocking rooted calls first check that the roots agree across the two groups
 *       (three reductions of a few integers between the groups), so that a wrong root, or a
 *       bad argument at one rank, fails every rank with a message instead of hanging. The
 *       non-blocking ones check only locally: waiting for the other group there would make
 *       them block.</li>
 * </ul>
 */
final class InterCollectives {
    private InterCollectives() {
    }

    /** The intercommunicator capability of {@code comm}'s backend communicator. */
    static Intercommunication inter(Comm comm, String call) {
        return comm.capability(call, Intercommunication.class, "intercommunicators");
    }

    private interface Body {
        Request run(BackendComm c, CollectiveOps ops, int remote);
    }

    /** Runs {@code body} as one collective call of {@code comm}. */
    private static Request call(Comm comm, String call, boolean nb, Body body) {
        BackendComm c = comm.impl(call);
        CallErrors.begin(c, call, nb);
        Throwable failure = null;
        try {
            int remote = c.peerCount(); // the remote group's size
            // Derived types with gaps are packed at the edges (issue 10).
            return body.run(c, io.github.mpi4j.buffer.InterPacking.wrap(c, c.collectives(), remote), remote);
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            CallErrors.end(comm, c, failure);
        }
    }

    private static Request done(Comm comm, boolean nb, BackendRequest r, Object keep) {
        return nb ? comm.request(r, keep) : null;
    }

    private static TypeDesc type(String call, String arg, Datatype type) {
        TypeDesc t = Comm.type(call, arg, type);
        if (Comm.isObject(t)) {
            throw MPIException.of(MPI.ERR_TYPE, call + ": MPI.OBJECT is not supported on an intercommunicator ("
                    + arg + "); merge it into an intracommunicator first");
        }
        // Derived types with gaps are packed at the edges (io.github.mpi4j.buffer.InterPacking).
        return t;
    }

    private static void noInPlace(String call, String arg, Object buf) {
        if (buf == MPI.IN_PLACE) {
            throw MPIException.of(MPI.ERR_BUFFER, call + ": " + arg + " is MPI.IN_PLACE, which MPI does not allow on "
                    + "an intercommunicator");
        }
    }

    static void checkRoot(String call, int root, int remote) {
        if (root == MPI.ROOT || root == MPI.PROC_NULL) return;
        if (root < 0 || root >= remote) {
            throw MPIException.of(MPI.ERR_ROOT, call + ": root " + root + " is not MPI.ROOT, MPI.PROC_NULL or a rank "
                    + "of the remote group [0, " + remote + ")");
        }
    }

    /**
     * Checks across the groups that exactly one rank of one group passed {@code MPI.ROOT}, the
     * others of that group {@code MPI.PROC_NULL}, and every rank of the other group that root's
     * rank. Every rank learns the verdict of all: the first reduction brings each group the
     * other's roots; the second each rank's failure to the other group; the third those counts
     * back, so both groups know of a failure anywhere. A rank whose own arguments failed their
     * checks ({@code local}) takes part all the same and throws that failure at the end, so
     * that the other ranks do not wait for it.
     */
    private static void agreeOnRoot(String call, BackendComm c, CollectiveOps ops, int root, int remote,
                                    MPIException local) {
        long role = root == MPI.ROOT ? 0 : root == MPI.PROC_NULL ? 1 : 2;
        long idx = role == 2 ? root : 0;
        long[] mine = {role == 0 ? 1 : 0, role == 1 ? 1 : 0, role == 2 ? 1 : 0, idx, idx * idx,
            role == 0 ? c.rank() + 1 : 0};
        long[] r = sum(call, ops, mine);
        long n = remote;
        String problem = null;
        if (role == 0) {
            long me = c.rank();
            if (r[2] != n || r[3] != n * me || r[4] != n * me * me) {
                problem = "this rank passed MPI.ROOT but not every rank of the remote group passed " + me
                        + " (this rank's rank in its group) as root";
            }
        } else if (role == 1) {
            long v = r[3] / n;
            if (r[2] != n || r[3] != n * v || r[4] != n * v * v) {
                problem = "the ranks of the remote group do not all pass the same root rank of this group";
            } else if (v == c.rank()) {
                problem = "the remote group names this rank (" + v + ") as root, but it passed MPI.PROC_NULL";
            }
        } else if (r[0] != 1 || r[1] != n - 1 || r[5] != root + 1) {
            problem = r[0] == 0 ? "no rank of the remote group passed MPI.ROOT"
                    : r[0] > 1 ? r[0] + " ranks of the remote group passed MPI.ROOT"
                    : r[5] != root + 1 ? "the remote group's root is its rank " + (r[5] - 1) + ", not " + root
                    : "the remote group's other ranks must pass MPI.PROC_NULL";
        }
        long fail = problem == null && local == null ? 0 : 1;
        long theirs = sum(call, ops, new long[] {fail})[0];
        long back = sum(call, ops, new long[] {fail + theirs})[0];
        if (local != null) throw local;
        if (problem != null) {
            throw MPIException.of(MPI.ERR_ROOT, call + ": root " + rootName(root) + " on an intercommunicator: " + problem);
        }
        if (theirs != 0 || back != 0) {
            throw MPIException.of(MPI.ERR_ROOT, call + ": another rank of the intercommunicator refused its arguments "
                    + "or the roots do not agree (that rank's exception says how); this rank passed " + rootName(root));
        }
    }

    private static String rootName(int root) {
        return root == MPI.ROOT ? "MPI.ROOT" : root == MPI.PROC_NULL ? "MPI.PROC_NULL" : Integer.toString(root);
    }

    /** Sum over the remote group of {@code v} (an intercommunicator all-reduce). */
    private static long[] sum(String call, CollectiveOps ops, long[] v) {
        long[] out = new long[v.length];
        OpDesc op = MPI.SUM.desc(call);
        ops.allReduce(new Buf(v, BaseKind.LONG, 0, v.length), new Buf(out, BaseKind.LONG, 0, out.length), v.length,
                Predefined.T_LONG, op);
        return out;
    }

    // ---- the calls ------------------------------------------------------------------------------

    static Request barrier(Comm comm, String call, boolean nb) {
        return call(comm, call, nb, (c, ops, remote) -> {
            if (nb) return comm.request(ops.iBarrier(), null);
            ops.barrier();
            return null;
        });
    }

    static Request bcast(Comm comm, String call, boolean nb, Object buf, int off, int count, Datatype type,
                         int root) {
        if (ObjectParts.involved(type)) {
            return ObjectInterCollectives.guarded(comm, () -> {
                Comm.noNegativeExtent(call, "intercommunicator collectives", type);
                return ObjectInterCollectives.bcast(comm, call, nb, buf, off, count, type, root);
            });
        }
        return call(comm, call, nb, (c, ops, remote) -> {
            Comm.noNegativeExtent(call, "intercommunicator collectives", type);
            TypeDesc t = Predefined.T_BYTE;
            Buf b = null;
            MPIException bad = null;
            try {
                checkRoot(call, root, remote);
                Comm.checkCount(call, "count", count);
                if (root != MPI.PROC_NULL) {
                    t = type(call, "datatype", type);
                    b = Buffers.resolve(call, "buf", buf, off, count, t, root != MPI.ROOT);
                }
            } catch (MPIException e) {
                if (nb) throw e;
                bad = e;
            }
            if (!nb) {
                agreeOnRoot(call, c, ops, root, remote, bad);
                ops.bcast(b, count, t, root);
                return null;
            }
            return done(comm, true, ops.iBcast(b, count, t, root), buf);
        });
    }

    static Request reduce(Comm comm, String call, boolean nb, Object sendbuf, int soff, Object recvbuf, int roff,
                          int count, Datatype type, Op op, int root) {
        if (ObjectParts.involved(type)) {
            return ObjectInterCollectives.guarded(comm, () -> {
                Comm.noNegativeExtent(call, "intercommunicator collectives", type);
                return ObjectInterCollectives.reduce(comm, call, nb, sendbuf, soff, recvbuf, roff, count, type, op,
                        root);
            });
        }
        return call(comm, call, nb, (c, ops, remote) -> {
            Comm.noNegativeExtent(call, "intercommunicator collectives", type);
            TypeDesc t = null;
            OpDesc o = null;
            Buf s = null, r = null;
            MPIException bad = null;
            try {
                checkRoot(call, root, remote);
                Comm.checkCount(call, "count", count);
                t = type(call, "datatype", type);
                o = Comm.op(call, op, t);
                noInPlace(call, "sendbuf", sendbuf);
                s = root >= 0 ? Buffers.resolve(call, "sendbuf", sendbuf, soff, count, t, false) : null;
                r = root == MPI.ROOT ? Buffers.resolve(call, "recvbuf", recvbuf, roff, count, t, true) : null;
            } catch (MPIException e) {
                if (nb) throw e;
                bad = e;
            }
            if (!nb) {
                agreeOnRoot(call, c, ops, root, remote, bad);
                ops.reduce(s, r, count, t, o, root);
                return null;
            }
            return done(comm, true, ops.iReduce(s, r, count, t, o, root), new Object[] {sendbuf, recvbuf});
        });
    }

    static Request allReduce(Comm comm, String call, boolean nb, Object sendbuf, int soff, Object recvbuf,
                             int roff, int count, Datatype type, Op op) {
        if (ObjectParts.involved(type)) {
            return ObjectInterCollectives.guarded(comm, () -> {
                Comm.noNegativeExtent(call, "intercommunicator collectives", type);
                return ObjectInterCollectives.allReduce(comm, call, nb, sendbuf, soff, recvbuf, roff, count, type, op);
            });
        }
        return call(comm, call, nb, (c, ops, remote) -> {
            Comm.noNegativeExtent(call, "intercommunicator collectives", type);
            Comm.checkCount(call, "count", count);
            TypeDesc t = type(call, "datatype", type);
            OpDesc o = Comm.op(call, op, t);
            noInPlace(call, "sendbuf", sendbuf);
            Comm.checkNotAliased(call, sendbuf, recvbuf);
            Buf s = Buffers.resolve(call, "sendbuf", sendbuf, soff, count, t, false);
            Buf r = Buffers.resolve(call, "recvbuf", recvbuf, roff, count, t, true);
            if (!nb) {
                ops.allReduce(s, r, count, t, o);
                return null;
            }
            return done(comm, true, ops.iAllReduce(s, r, count, t, o), new Object[] {sendbuf, recvbuf});
        });
    }

    static Request gather(Comm comm, String call, boolean nb, Object sendbuf, int soff, int sendcount,
                          Datatype sendtype, Object recvbuf, int roff, int recvcount, int[] recvcounts, int[] displs,
                          Datatype recvtype, int root) {
        if (ObjectParts.involved(sendtype, recvtype)) { // MPI.OBJECT and types over it (issue 10)
            return ObjectInterCollectives.guarded(comm, () -> {
                    Comm.noNegativeExtent(call, "intercommunicator collectives", sendtype, recvtype);
                    return ObjectInterCollectives.gather(comm, call, nb, sendbuf, soff, sendcount, sendtype, recvbuf,
                            roff,
                    recvcount, recvcounts, displs, recvtype, root);
                });
        }
        boolean v = recvcounts != null || displs != null;
        return call(comm, call, nb, (c, ops, remote) -> {
            Comm.noNegativeExtent(call, "intercommunicator collectives", sendtype, recvtype);
            Buf s = null, r = null;
            TypeDesc st = null, rt = null;
            MPIException bad = null;
            try {
                checkRoot(call, root, remote);
                noInPlace(call, "sendbuf", sendbuf);
                if (root == MPI.ROOT) {
                    rt = type(call, "recvtype", recvtype);
                    int items;
                    if (v) {
                        items = Comm.checkCountsDispls(call, "recvcounts", recvcounts, "displs", displs, remote);
                    } else {
                        Comm.checkCount(call, "recvcount", recvcount);
                        items = mul(call, recvcount, remote);
                    }
                    r = Buffers.resolve(call, "recvbuf", recvbuf, roff, items, rt, true);
                } else if (root >= 0) {
                    st = type(call, "sendtype", sendtype);
                    Comm.checkCount(call, "sendcount", sendcount);
                    s = Buffers.resolve(call, "sendbuf", sendbuf, soff, sendcount, st, false);
                }
            } catch (MPIException e) {
                if (nb) throw e;
                bad = e;
            }
            if (!nb) agreeOnRoot(call, c, ops, root, remote, bad);
            BackendRequest br;
            if (v) {
                if (!nb) {
                    ops.gatherv(s, sendcount, st, r, recvcounts, displs, rt, root);
                    return null;
                }
                br = ops.iGatherv(s, sendcount, st, r, recvcounts, displs, rt, root);
            } else {
                if (!nb) {
                    ops.gather(s, sendcount, st, r, recvcount, rt, root);
                    return null;
                }
                br = ops.iGather(s, sendcount, st, r, recvcount, rt, root);
            }
            return done(comm, true, br, new Object[] {sendbuf, recvbuf, recvcounts, displs});
        });
    }

    static Request scatter(Comm comm, String call, boolean nb, Object sendbuf, int soff, int sendcount,
                           int[] sendcounts, int[] displs, Datatype sendtype, Object recvbuf, int roff, int recvcount,
                           Datatype recvtype, int root) {
        if (ObjectParts.involved(sendtype, recvtype)) { // MPI.OBJECT and types over it (issue 10)
            return ObjectInterCollectives.guarded(comm, () -> {
                    Comm.noNegativeExtent(call, "intercommunicator collectives", sendtype, recvtype);
                    return ObjectInterCollectives.scatter(comm, call, nb, sendbuf, soff, sendcount, sendcounts, displs,
                    sendtype, recvbuf, roff, recvcount, recvtype, root);
                });
        }
        boolean v = sendcounts != null || displs != null;
        return call(comm, call, nb, (c, ops, remote) -> {
            Comm.noNegativeExtent(call, "intercommunicator collectives", sendtype, recvtype);
            Buf s = null, r = null;
            TypeDesc st = null, rt = null;
            MPIException bad = null;
            try {
                checkRoot(call, root, remote);
                noInPlace(call, "recvbuf", recvbuf);
                if (root == MPI.ROOT) {
                    st = type(call, "sendtype", sendtype);
                    int items;
                    if (v) {
                        items = Comm.checkCountsDispls(call, "sendcounts", sendcounts, "displs", displs, remote);
                    } else {
                        Comm.checkCount(call, "sendcount", sendcount);
                        items = mul(call, sendcount, remote);
                    }
                    s = Buffers.resolve(call, "sendbuf", sendbuf, soff, items, st, false);
                } else if (root >= 0) {
                    rt = type(call, "recvtype", recvtype);
                    Comm.checkCount(call, "recvcount", recvcount);
                    r = Buffers.resolve(call, "recvbuf", recvbuf, roff, recvcount, rt, true);
                }
            } catch (MPIException e) {
                if (nb) throw e;
                bad = e;
            }
            if (!nb) agreeOnRoot(call, c, ops, root, remote, bad);
            BackendRequest br;
            if (v) {
                if (!nb) {
                    ops.scatterv(s, sendcounts, displs, st, r, recvcount, rt, root);
                    return null;
                }
                br = ops.iScatterv(s, sendcounts, displs, st, r, recvcount, rt, root);
            } else {
                if (!nb) {
                    ops.scatter(s, sendcount, st, r, recvcount, rt, root);
                    return null;
                }
                br = ops.iScatter(s, sendcount, st, r, recvcount, rt, root);
            }
            return done(comm, true, br, new Object[] {sendbuf, recvbuf, sendcounts, displs});
        });
    }

    static Request allGather(Comm comm, String call, boolean nb, Object sendbuf, int soff, int sendcount,
                             Datatype sendtype, Object recvbuf, int roff, int recvcount, int[] recvcounts,
                             int[] displs, Datatype recvtype) {
        if (ObjectParts.involved(sendtype, recvtype)) { // MPI.OBJECT and types over it (issue 10)
            return ObjectInterCollectives.guarded(comm, () -> {
                    Comm.noNegativeExtent(call, "intercommunicator collectives", sendtype, recvtype);
                    return ObjectInterCollectives.allGather(comm, call, nb, sendbuf, soff, sendcount, sendtype,
                            recvbuf, roff,
                    recvcount, recvcounts, displs, recvtype);
                });
        }
        boolean v = recvcounts != null || displs != null;
        return call(comm, call, nb, (c, ops, remote) -> {
            Comm.noNegativeExtent(call, "intercommunicator collectives", sendtype, recvtype);
            noInPlace(call, "sendbuf", sendbuf);
            Comm.checkNotAliased(call, sendbuf, recvbuf);
            TypeDesc st = type(call, "sendtype", sendtype);
            TypeDesc rt = type(call, "recvtype", recvtype);
            Comm.checkCount(call, "sendcount", sendcount);
            int items;
            if (v) {
                items = Comm.checkCountsDispls(call, "recvcounts", recvcounts, "displs", displs, remote);
            } else {
                Comm.checkCount(call, "recvcount", recvcount);
                items = mul(call, recvcount, remote);
            }
            Buf s = Buffers.resolve(call, "sendbuf", sendbuf, soff, sendcount, st, false);
            Buf r = Buffers.resolve(call, "recvbuf", recvbuf, roff, items, rt, true);
            BackendRequest br;
            if (v) {
                if (!nb) {
                    ops.allGatherv(s, sendcount, st, r, recvcounts, displs, rt);
                    return null;
                }
                br = ops.iAllGatherv(s, sendcount, st, r, recvcounts, displs, rt);
            } else {
                if (!nb) {
                    ops.allGather(s, sendcount, st, r, recvcount, rt);
                    return null;
                }
                br = ops.iAllGather(s, sendcount, st, r, recvcount, rt);
            }
            return done(comm, true, br, new Object[] {sendbuf, recvbuf, recvcounts, displs});
        });
    }

    static Request allToAll(Comm comm, String call, boolean nb, Object sendbuf, int soff, int sendcount,
                            int[] sendcounts, int[] sdispls, Datatype sendtype, Object recvbuf, int roff,
                            int recvcount, int[] recvcounts, int[] rdispls, Datatype recvtype) {
        if (ObjectParts.involved(sendtype, recvtype)) { // MPI.OBJECT and types over it (issue 10)
            return ObjectInterCollectives.guarded(comm, () -> {
                    Comm.noNegativeExtent(call, "intercommunicator collectives", sendtype, recvtype);
                    return ObjectInterCollectives.allToAll(comm, call, nb, sendbuf, soff, sendcount, sendcounts,
                            sdispls,
                    sendtype, recvbuf, roff, recvcount, recvcounts, rdispls, recvtype);
                });
        }
        boolean v = sendcounts != null || recvcounts != null;
        return call(comm, call, nb, (c, ops, remote) -> {
            Comm.noNegativeExtent(call, "intercommunicator collectives", sendtype, recvtype);
            noInPlace(call, "sendbuf", sendbuf);
            Comm.checkNotAliased(call, sendbuf, recvbuf);
            TypeDesc st = type(call, "sendtype", sendtype);
            TypeDesc rt = type(call, "recvtype", recvtype);
            int sItems, rItems;
            if (v) {
                sItems = Comm.checkCountsDispls(call, "sendcounts", sendcounts, "sdispls", sdispls, remote);
                rItems = Comm.checkCountsDispls(call, "recvcounts", recvcounts, "rdispls", rdispls, remote);
            } else {
                Comm.checkCount(call, "sendcount", sendcount);
                Comm.checkCount(call, "recvcount", recvcount);
                sItems = mul(call, sendcount, remote);
                rItems = mul(call, recvcount, remote);
            }
            Buf s = Buffers.resolve(call, "sendbuf", sendbuf, soff, sItems, st, false);
            Buf r = Buffers.resolve(call, "recvbuf", recvbuf, roff, rItems, rt, true);
            BackendRequest br;
            if (v) {
                if (!nb) {
                    ops.allToAllv(s, sendcounts, sdispls, st, r, recvcounts, rdispls, rt);
                    return null;
                }
                br = ops.iAllToAllv(s, sendcounts, sdispls, st, r, recvcounts, rdispls, rt);
            } else {
                if (!nb) {
                    ops.allToAll(s, sendcount, st, r, recvcount, rt);
                    return null;
                }
                br = ops.iAllToAll(s, sendcount, st, r, recvcount, rt);
            }
            return done(comm, true, br, new Object[] {sendbuf, recvbuf, sendcounts, sdispls, recvcounts, rdispls});
        });
    }

    /** reduceScatter ({@code recvcounts}) and reduceScatterBlock ({@code recvcounts == null}). */
    static Request reduceScatter(Comm comm, String call, boolean nb, Object sendbuf, int soff, Object recvbuf,
                                 int roff, int recvcount, int[] recvcounts, Datatype type, Op op) {
        if (ObjectParts.involved(type)) { // MPI.OBJECT and types over it (issue 10)
            return ObjectInterCollectives.guarded(comm, () -> {
                    Comm.noNegativeExtent(call, "intercommunicator collectives", type);
                    return ObjectInterCollectives.reduceScatter(comm, call, nb, sendbuf, soff, recvbuf, roff, recvcount,
                    recvcounts, type, op);
                });
        }
        return call(comm, call, nb, (c, ops, remote) -> {
            Comm.noNegativeExtent(call, "intercommunicator collectives", type);
            TypeDesc t = type(call, "datatype", type);
            OpDesc o = Comm.op(call, op, t);
            noInPlace(call, "sendbuf", sendbuf);
            Comm.checkNotAliased(call, sendbuf, recvbuf);
            int total, mine;
            if (recvcounts != null) {
                total = Comm.checkCounts(call, "recvcounts", recvcounts, c.size());
                mine = recvcounts[c.rank()];
            } else {
                Comm.checkCount(call, "recvcount", recvcount);
                total = mul(call, recvcount, c.size());
                mine = recvcount;
            }
            Buf s = Buffers.resolve(call, "sendbuf", sendbuf, soff, total, t, false);
            Buf r = Buffers.resolve(call, "recvbuf", recvbuf, roff, mine, t, true);
            BackendRequest br;
            if (recvcounts != null) {
                if (!nb) {
                    ops.reduceScatter(s, r, recvcounts, t, o);
                    return null;
                }
                br = ops.iReduceScatter(s, r, recvcounts, t, o);
            } else {
                if (!nb) {
                    ops.reduceScatterBlock(s, r, recvcount, t, o);
                    return null;
                }
                br = ops.iReduceScatterBlock(s, r, recvcount, t, o);
            }
            return done(comm, true, br, new Object[] {sendbuf, recvbuf, recvcounts});
        });
    }

    private static int mul(String call, int count, int n) {
        long v = (long) count * n;
        if (v > Integer.MAX_VALUE) {
            throw MPIException.of(MPI.ERR_COUNT, call + ": count " + count + " x " + n + " remote ranks exceeds "
                    + Integer.MAX_VALUE + " items");
        }
        return (int) v;
    }
}
