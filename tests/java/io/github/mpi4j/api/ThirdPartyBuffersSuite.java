package io.github.mpi4j.api;

import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.RankTest;
import java.nio.ByteBuffer;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Status;

/**
 * Buffer behaviours third-party programs rely on (issue 11 scout): a slice made by
 * {@code MPI.slice} reaches its parent's bytes before it with a negative-lower-bound type (as an
 * Open MPI address does; ompi-java-test Bakstr), and a derived type without data goes with any
 * primitive array (MPJ dtyp.zero1). References are computed sequentially from the byte values.
 */
public class ThirdPartyBuffersSuite {

    private static final int MSZ = 96, HALF = 48;

    /** Byte offsets, relative to the buffer start, of the data of 2 items of vector(12, 1, -2, SHORT) at HALF. */
    private static int[] touched() {
        int extent = 46; // 11 x 4 bytes back + 2 bytes of the first short
        int[] at = new int[2 * 12 * 2];
        int n = 0;
        for (int k = 0; k < 2; k++) {
            for (int j = 0; j < 12; j++) {
                int start = HALF + k * extent - 4 * j;
                at[n++] = start;
                at[n++] = start + 1;
            }
        }
        return at;
    }

    @RankTest
    public void sliceReachesItsParentBelow(Intracomm comm) {
        int me = comm.getRank();
        Datatype back = Datatype.createVector(12, 1, -2, MPI.SHORT);
        back.commit();
        try {
            ByteBuffer src = MPI.newByteBuffer(MSZ), dst = MPI.newByteBuffer(MSZ);
            for (int i = 0; i < MSZ; i++) src.put(i, (byte) (i + 1 + me));
            int[] at = touched();
            byte[] expected = new byte[at.length];
            for (int i = 0; i < at.length; i++) expected[i] = src.get(at[i]);

            byte[] packed = new byte[at.length];
            int end = comm.pack(MPI.slice(src, HALF), 2, back, packed, 0);
            Check.equal(at.length, end, "pack position after 2 items");
            Check.arrays(expected, packed, "pack from MPI.slice(buf, 48) reads the parent's bytes before the slice");

            comm.unpack(packed, 0, MPI.slice(dst, HALF), 2, back);
            boolean[] hit = new boolean[MSZ];
            for (int a : at) hit[a] = true;
            for (int i = 0; i < MSZ; i++) {
                Check.equal(hit[i] ? src.get(i) : 0, dst.get(i), "unpack into MPI.slice(buf, 48): byte " + i);
            }

            // Through a real message too (the backend gets the parent and the offset).
            byte[] got = new byte[at.length];
            comm.sendRecv(MPI.slice(src, HALF), 2, back, me, 31, got, at.length, MPI.BYTE, me, 31);
            Check.arrays(expected, got, "send from MPI.slice(buf, 48)");

            // A Java slice of a buffer MPI.slice has cut from lies inside it, so it reaches into it too
            // (found by address where libmpi4j_dl is loaded, as it is in the tests; docs/datatypes.md).
            byte[] viaJava = new byte[at.length];
            comm.pack(src.duplicate().position(HALF).slice(), 2, back, viaJava, 0);
            Check.arrays(expected, viaJava, "pack from a Java slice of a buffer MPI.slice cut from");
            // A Java slice of a buffer never given to MPI.slice has no known parent: refused, nothing read.
            ByteBuffer fresh = MPI.newByteBuffer(MSZ);
            ByteBuffer plain = fresh.duplicate().position(HALF).slice();
            Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.pack(plain, 2, back, new byte[at.length], 0),
                    "before the offset");
        } finally {
            back.free();
        }
    }

    @RankTest
    public void emptyStructGoesWithAnyArray(Intracomm comm) {
        int me = comm.getRank(), n = comm.getSize();
        Datatype none = Datatype.createStruct(new int[0], new int[0], new Datatype[0]);
        none.commit();
        try {
            int[] out = {7 + me}, in = {-5};
            int to = (me + 1) % n, from = (me + n - 1) % n;
            Status s = comm.sendRecv(out, 100, none, to, 32, in, 100, none, from, 32);
            Check.equal(-5, in[0], "an empty struct moves nothing");
            // MPI 3.1 3.2.5: with a datatype of size zero the count is zero.
            Check.equal(0, s.getCount(none), "getCount of a zero-size type");
            Check.equal(0, s.getElements(none), "getElements of a zero-size type");
            Check.equal(from, s.getSource(), "source");
        } finally {
            none.free();
        }
    }
}
