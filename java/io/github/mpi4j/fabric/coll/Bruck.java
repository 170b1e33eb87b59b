package io.github.mpi4j.fabric.coll;

import io.github.mpi4j.buffer.BufAccess;
import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;

/**
 * Bruck's allgather(v), for any n in ceil(log2 n) steps. It works in a temporary that holds the
 * blocks of ranks me, me+1, ..., me+n-1 (mod n) back to back, so that "the first k blocks" is
 * always one contiguous range. In the step with distance d (1, 2, 4, ...) a rank holds its
 * first d blocks; it sends its first min(d, n-d) blocks to rank me-d and receives the same
 * number from rank me+d, which are exactly the blocks of ranks me+d, me+d+1, ... and land right
 * after the d it has. At the end the temporary is copied out block by block to the caller's
 * displacements (undoing the rotation).
 */
final class Bruck {
    private Bruck() {
    }

    /** {@code r} holds this rank's own block at its displacement; counts and displacements in elements of {@code ext} bytes. */
    static void allGatherv(CollChannel ch, Buf r, int[] rcounts, int[] displs, long ext, int tag) {
        int n = ch.size(), me = ch.rank();
        long[] at = new long[n + 1]; // byte offset of rotated block j (rank me+j) in the temporary
        for (int j = 0; j < n; j++) at[j + 1] = at[j] + (long) rcounts[(me + j) % n] * ext;
        Buf work = BufAccess.allocate(r.kind == BaseKind.OBJECT ? BaseKind.BYTE : r.kind, at[n], false);
        ch.copy(r, (long) displs[me] * ext, work, 0, at[1]);
        for (int d = 1; d < n; d <<= 1) {
            int blocks = Math.min(d, n - d);
            int to = (me - d + n) % n, from = (me + d) % n;
            // Rank me+d's first blocks are those of ranks me+d.. : sizes known from rcounts.
            long recvLen = 0;
            for (int j = 0; j < blocks; j++) recvLen += (long) rcounts[(from + j) % n] * ext;
            ch.sendRecv(to, work, 0, at[blocks], from, work, at[d], recvLen, tag);
        }
        for (int j = 1; j < n; j++) ch.copy(work, at[j], r, (long) displs[(me + j) % n] * ext, at[j + 1] - at[j]);
    }
}
