package io.github.mpi4j.fileio;

import io.github.mpi4j.spi.TypeDesc;
import io.github.mpi4j.spi.TypeMap;

/**
 * Where the data of a file view lie: the view's data bytes (etypes one after another) map onto
 * the file through the filetype, tiled from the displacement every filetype extent. A
 * predefined (or contiguous) filetype is one run from the displacement.
 */
public final class ViewMap {
    /** Receives one run of file bytes: {@code length} bytes at file byte {@code filePos}, the {@code done}-th onwards of the access. */
    public interface Runs {
        /** Returns false to stop (a read that met the end of the file). */
        boolean run(long filePos, long done, long length) throws java.io.IOException;
    }

    private final long disp;
    /** The filetype's blocks, or null for one contiguous run. */
    private final TypeMap map;
    private final long tileBytes;
    private final long tileExtent;

    public ViewMap(long disp, TypeDesc filetype) {
        this.disp = disp;
        TypeMap m = filetype.derived instanceof TypeMap ? (TypeMap) filetype.derived : null;
        this.map = m == null || m.isContiguous() ? null : m;
        this.tileBytes = filetype.size;
        this.tileExtent = filetype.extent;
    }

    /**
     * Bytes a run of this view holds on average: the filetype's size over its blocks (blocks that
     * happen to touch count apart, so this errs low); unbounded for a contiguous view.
     */
    public long averageRun() {
        return map == null ? Long.MAX_VALUE : tileBytes / Math.max(1, map.blocks());
    }

    /** Whether the view is one run of bytes from the displacement. */
    public boolean isContiguous() {
        return map == null;
    }

    /** The file byte of view data byte {@code p}. */
    public long fileByte(long p) {
        long[] at = {disp + p};
        try {
            runs(p, 1, (filePos, done, length) -> {
                at[0] = filePos;
                return false;
            });
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
        return at[0];
    }

    /**
     * How many of view data bytes {@code [p, p + length)} a read gets from a file of
     * {@code fileSize} bytes: the runs in order, up to the first one the end of the file cuts.
     */
    public long readable(long p, long length, long fileSize) {
        long[] got = {0};
        try {
            runs(p, length, (filePos, done, n) -> {
                long here = Math.max(0, Math.min(n, fileSize - filePos));
                got[0] = done + here;
                return here == n;
            });
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
        return got[0];
    }

    /** Visits, in order, the file runs that hold view data bytes {@code [p, p + length)}. */
    public void runs(long p, long length, Runs visit) throws java.io.IOException {
        if (length == 0) return;
        if (map == null) {
            visit.run(disp + p, 0, length);
            return;
        }
        long tile = p / tileBytes;
        long within = p % tileBytes;
        long done = 0;
        while (done < length) {
            long base = disp + tile * tileExtent;
            long seen = 0;
            for (int i = 0; i < map.blocks() && done < length; i++) {
                long b = map.bytes(i);
                if (within >= seen + b) {
                    seen += b;
                    continue;
                }
                long skip = Math.max(0, within - seen);
                long n = Math.min(b - skip, length - done);
                if (!visit.run(base + map.disp(i) + skip, done, n)) return;
                done += n;
                seen += b;
            }
            tile++;
            within = 0;
        }
    }

    /**
     * How many of the view's data bytes lie before file byte {@code fileSize} (the end of the
     * file as seen through the view, issue 11): whole filetype tiles below it, then the parts of
     * the blocks of the tiles it cuts. SEEK_END positions count from here (in etypes, rounded up:
     * an end inside an etype or a hole means the next etype of the view).
     */
    public long dataBefore(long fileSize) {
        if (fileSize <= disp) return 0;
        if (map == null) return fileSize - disp;
        long room = fileSize - disp;
        if (tileExtent <= 0 || tileBytes == 0) return 0;
        long hi = map.trueLb + map.trueExtent; // every tile's data ends before tile start + hi
        // Tiles 0 .. whole-1 lie entirely before the end; the ones after may be cut by it.
        long whole = room >= hi ? (room - hi) / tileExtent + 1 : 0;
        long n = whole * tileBytes;
        for (long tile = whole; ; tile++) {
            long base = tile * tileExtent;
            if (base + map.trueLb >= room) break;
            for (int i = 0; i < map.blocks(); i++) {
                long start = base + map.disp(i);
                n += Math.max(0, Math.min(map.bytes(i), room - start));
            }
        }
        return n;
    }
}
