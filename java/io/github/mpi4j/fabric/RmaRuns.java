package io.github.mpi4j.fabric;

import io.github.mpi4j.buffer.BufAccess;
import io.github.mpi4j.buffer.Reductions;
import io.github.mpi4j.buffer.TypeMapCopy;
import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.Mpi;
import io.github.mpi4j.spi.OpCode;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.Predefined;
import io.github.mpi4j.spi.TypeDesc;
import io.github.mpi4j.spi.TypeMap;
import java.util.Arrays;
import mpi.MPIException;

/**
 * The target side of a fabric RMA operation as runs of bytes: {@code count} items of the target
 * datatype starting at a window offset become (offset, length) pairs, in type-map order, with
 * adjacent runs merged (a predefined or contiguous type is one run). The origin side is packed
 * with {@link TypeMapCopy}; packed bytes then go to (put), come from (get) or are reduced into
 * (accumulate) the runs. Every window kind of the fabric (ranks as threads, shared-memory files,
 * through the transport) moves data this way, so derived datatypes work on each.
 */
final class RmaRuns {
    private RmaRuns() {
    }

    /** Pairs {offset0, length0, offset1, length1, ...}, offsets from the first item's start. */
    static long[] of(TypeDesc t, int count) {
        if (count == 0) return new long[0];
        if (!(t.derived instanceof TypeMap) || ((TypeMap) t.derived).isContiguous()) {
            return new long[] {0, TypeMapCopy.packedBytes(count, t)};
        }
        TypeMap m = (TypeMap) t.derived;
        long[] out = new long[2 * Math.max(1, count * m.blocks())];
        int n = 0;
        for (long i = 0; i < count; i++) {
            for (int b = 0; b < m.blocks(); b++) {
                long at = i * t.extent + m.disp(b), len = m.bytes(b);
                if (len == 0) continue;
                if (n > 0 && out[n - 2] + out[n - 1] == at) {
                    out[n - 1] += len;
                } else {
                    if (n == out.length) out = Arrays.copyOf(out, 2 * out.length);
                    out[n++] = at;
                    out[n++] = len;
                }
            }
        }
        return Arrays.copyOf(out, n);
    }

    /** Bytes the runs hold together. */
    static long bytes(long[] runs) {
        long s = 0;
        for (int i = 1; i < runs.length; i += 2) s += runs[i];
        return s;
    }

    /** Past-the-end offset of the runs (relative to their start), for bounds checks at the target. */
    static long end(long[] runs) {
        long e = 0;
        for (int i = 0; i < runs.length; i += 2) e = Math.max(e, runs[i] + runs[i + 1]);
        return e;
    }

    /** The predefined type accumulates apply element by element (MPI: one predefined type per operation). */
    static TypeDesc leaf(String call, String arg, TypeDesc t) {
        if (!(t.derived instanceof TypeMap)) return t;
        TypeDesc u = ((TypeMap) t.derived).uniformLeaf;
        if (u == null) {
            throw MPIException.of(Mpi.ERR_TYPE, call + ": " + arg + " " + t.name + " mixes predefined types; "
                    + "accumulate operations need a datatype built from one predefined type");
        }
        return u;
    }

    /** The element type of an accumulate: the origin's and the target's leaf must agree. */
    static TypeDesc accumulateLeaf(String call, TypeDesc origin, TypeDesc target) {
        TypeDesc t = leaf(call, "targetType", target);
        if (origin != null) {
            TypeDesc o = leaf(call, "orgType", origin);
            if (o.predefinedId != t.predefinedId) {
                throw MPIException.of(Mpi.ERR_TYPE, call + ": orgType is built from " + o.name + " but targetType from "
                        + t.name + "; accumulate needs the same predefined type on both sides");
            }
        }
        return t;
    }

    /** Packs {@code count} items of {@code t} from {@code user} into a new heap buffer. */
    static Buf pack(Buf user, TypeDesc t, int count) {
        long n = TypeMapCopy.packedBytes(count, t);
        Buf out = new Buf(new byte[(int) n], BaseKind.BYTE, 0, (int) n);
        if (n > 0) TypeMapCopy.pack(user, t, count, out, 0);
        return out;
    }

    /** Unpacks {@code packed} from byte {@code at} into {@code count} items of {@code t} in {@code user}. */
    static void unpack(Buf packed, long at, Buf user, TypeDesc t, int count) {
        long n = TypeMapCopy.packedBytes(count, t);
        if (n > 0) TypeMapCopy.unpack(packed, at, user, t, count, n);
    }

    /** Writes packed bytes (from {@code at}) into the runs of {@code mem} starting at {@code start}. */
    static void scatter(Buf packed, long at, Buf mem, long start, long[] runs) {
        for (int i = 0; i < runs.length; i += 2) {
            BufAccess.copy(packed, at, mem, start + runs[i], runs[i + 1]);
            at += runs[i + 1];
        }
    }

    /** Reads the runs of {@code mem} starting at {@code start} into packed bytes (from {@code at}). */
    static void gather(Buf mem, long start, long[] runs, Buf packed, long at) {
        for (int i = 0; i < runs.length; i += 2) {
            BufAccess.copy(mem, start + runs[i], packed, at, runs[i + 1]);
            at += runs[i + 1];
        }
    }

    /** mem[runs] = mem[runs] op packed, element by element in {@code leaf}; REPLACE stores, NO_OP leaves. */
    static void reduce(OpDesc op, TypeDesc leaf, Buf packed, long at, Buf mem, long start, long[] runs) {
        if (op.code == OpCode.NO_OP) return;
        if (op.code == OpCode.REPLACE) {
            scatter(packed, at, mem, start, runs);
            return;
        }
        for (int i = 0; i < runs.length; i += 2) {
            int items = (int) (runs[i + 1] / leaf.size);
            Reductions.reduce(op, leaf, packed, at, mem, start + runs[i], items);
            at += runs[i + 1];
        }
    }

    /** A predefined operation by its code (what travels between ranks). */
    static OpDesc op(int code) {
        OpCode[] all = OpCode.values();
        if (code < 0 || code >= all.length || all[code] == OpCode.USER) {
            throw MPIException.of(Mpi.ERR_OP, "RMA: operation code " + code + " is not a predefined operation");
        }
        return new OpDesc("MPI." + all[code].name(), all[code], null, true);
    }

    /** A predefined datatype by its id (what travels between ranks). */
    static TypeDesc type(int id) {
        TypeDesc t = id >= 0 && id < Predefined.ALL.length ? Predefined.ALL[id] : null;
        if (t == null) throw MPIException.of(Mpi.ERR_TYPE, "RMA: datatype id " + id + " is not predefined");
        return t;
    }
}
