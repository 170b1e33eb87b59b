package io.github.mpi4j.spi;

import java.util.Arrays;

/**
 * The description of a derived datatype ({@link TypeDesc#derived} of a {@link Layout#DERIVED}
 * type): its type map compiled to blocks, each a run of {@code count} consecutive items of one
 * predefined leaf type starting {@code disp} bytes from the item's start, in type-map order
 * (the order pack and unpack follow). Adjacent runs of the same leaf are merged when built, so a
 * vector of ints has one block per vector block and a contiguous type has one block in all.
 *
 * <p>Backends build from this: the MPI backend an MPI datatype with these blocks and bounds;
 * the fabric packs the blocks into contiguous bytes and unpacks them at the other end. Bounds
 * are in bytes and follow MPI: {@link #lb}/{@link #extent} may be set by
 * {@code createResized} or the {@code MPI.LB}/{@code MPI.UB} markers of mpiJava's Struct;
 * {@link #trueLb}/{@link #trueExtent} span the data alone.
 */
public final class TypeMap {
    private final long[] disp;
    private final int[] count;
    private final TypeDesc[] leaf;

    /** Bytes of data in one item (the sum of the blocks). */
    public final long size;
    public final long lb;
    public final long extent;
    public final long trueLb;
    public final long trueExtent;
    /** The leaf every block has, or null when the blocks mix leaf types (or there are none). */
    public final TypeDesc uniformLeaf;
    /** Items of the leaf types one item holds (the basic elements of MPI_Get_elements). */
    public final long leafItems;
    /** Largest power of two dividing every block displacement and the extent: the alignment items keep. */
    public final long granularity;
    /** An explicit lower / upper bound (createResized, MPI.LB, MPI.UB): carried into types built from this one. */
    final boolean lbMarked;
    final boolean ubMarked;

    private TypeMap(long[] disp, int[] count, TypeDesc[] leaf, long lb, long extent, boolean lbMarked,
                    boolean ubMarked) {
        this.disp = disp;
        this.count = count;
        this.leaf = leaf;
        this.lb = lb;
        this.extent = extent;
        this.lbMarked = lbMarked;
        this.ubMarked = ubMarked;
        long s = 0, items = 0, lo = Long.MAX_VALUE, hi = Long.MIN_VALUE;
        TypeDesc u = leaf.length > 0 ? leaf[0] : null;
        for (int i = 0; i < disp.length; i++) {
            s += count[i] * leaf[i].size;
            items += count[i];
            lo = Math.min(lo, disp[i]);
            hi = Math.max(hi, disp[i] + count[i] * leaf[i].extent);
            if (leaf[i] != u) u = null;
        }
        long g = extent;
        for (long d : disp) g |= d;
        this.granularity = g == 0 ? 1L << 30 : Long.lowestOneBit(g);
        this.size = s;
        this.leafItems = items;
        this.uniformLeaf = u;
        this.trueLb = disp.length == 0 ? 0 : lo;
        this.trueExtent = disp.length == 0 ? 0 : hi - lo;
    }

    /** Number of blocks. */
    public int blocks() {
        return disp.length;
    }

    /** Byte displacement of block {@code i} from the item's start. */
    public long disp(int i) {
        return disp[i];
    }

    /** Items of the leaf type in block {@code i}. */
    public int count(int i) {
        return count[i];
    }

    /** Predefined leaf type of block {@code i}. */
    public TypeDesc leaf(int i) {
        return leaf[i];
    }

    /** Bytes of data in block {@code i}. */
    public long bytes(int i) {
        return count[i] * leaf[i].size;
    }

    /** True when one item is one run of bytes starting at 0 and items follow each other without gaps. */
    public boolean isContiguous() {
        return disp.length <= 1 && (disp.length == 0 || disp[0] == 0) && extent == size && lb == 0;
    }

    /**
     * Leaf items in the first {@code bytes} bytes of the packed data of {@code items} items: the
     * basic elements MPI_Get_elements counts when a message ends inside an item; -1 when it ends
     * inside a basic element (MPI_Get_elements answers MPI_UNDEFINED then).
     */
    public long leafItemsIn(long bytes) {
        if (size == 0) return 0;
        long whole = bytes / size;
        long rest = bytes % size;
        long n = whole * leafItems;
        for (int i = 0; i < disp.length && rest > 0; i++) {
            long b = bytes(i);
            if (rest >= b) {
                n += count[i];
                rest -= b;
            } else {
                // A message ending inside a basic element has no whole number of them: MPI_UNDEFINED (-1 here).
                if (rest % leaf[i].size != 0) return -1;
                n += rest / leaf[i].size;
                rest = 0;
            }
        }
        return n;
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("{");
        for (int i = 0; i < disp.length; i++) {
            if (i > 0) s.append(", ");
            s.append(count[i]).append('x').append(leaf[i].name).append('@').append(disp[i]);
        }
        return s.append("} lb=").append(lb).append(" extent=").append(extent).toString();
    }

    // ---- building ------------------------------------------------------------------------------

    /** The type map of a predefined type seen as a derived one: one block of one item. */
    public static TypeMap of(TypeDesc t) {
        if (t.derived instanceof TypeMap) return (TypeMap) t.derived;
        if (t.predefinedId == Predefined.LB || t.predefinedId == Predefined.UB) {
            return new TypeMap(new long[0], new int[0], new TypeDesc[0], 0, 0, t.predefinedId == Predefined.LB,
                    t.predefinedId == Predefined.UB);
        }
        return new TypeMap(new long[] {0}, new int[] {1}, new TypeDesc[] {t}, t.lb, t.extent, false, false);
    }

    /**
     * Collects blocks in type-map order, merging each with the one before when it continues it,
     * and the bounds markers placed.
     */
    public static final class Builder {
        private long[] disp = new long[8];
        private int[] count = new int[8];
        private TypeDesc[] leaf = new TypeDesc[8];
        private int n;
        private long markedLb = Long.MAX_VALUE, markedUb = Long.MIN_VALUE;
        private boolean lbMarked, ubMarked;
        /** Smallest lb and largest ub of the placed copies (for types without markers). */
        private long lo = Long.MAX_VALUE, hi = Long.MIN_VALUE;
        /** Largest alignment of a leaf placed (for the padding of struct extents). */
        private long align = 1;

        /** Places {@code copies} copies of {@code t}, one extent apart, starting {@code at} bytes in. */
        public Builder place(TypeDesc t, long at, long copies) {
            TypeMap m = of(t);
            if (copies <= 0) return this;
            for (long r = 0; r < copies; r++) {
                long base = at + r * m.extent;
                for (int i = 0; i < m.disp.length; i++) add(base + m.disp[i], m.leaf[i], m.count[i]);
            }
            long first = at + m.lb, last = at + (copies - 1) * m.extent + m.lb + m.extent;
            long firstLo = Math.min(first, at + (copies - 1) * m.extent + m.lb);
            long lastHi = Math.max(last, at + m.lb + m.extent);
            if (m.lbMarked) {
                lbMarked = true;
                markedLb = Math.min(markedLb, firstLo);
            }
            if (m.ubMarked) {
                ubMarked = true;
                markedUb = Math.max(markedUb, lastHi);
            }
            if (m.disp.length > 0 || m.lbMarked || m.ubMarked) {
                lo = Math.min(lo, firstLo);
                hi = Math.max(hi, lastHi);
            }
            for (TypeDesc l : m.leaf) align = Math.max(align, alignment(l));
            return this;
        }

        private void add(long d, TypeDesc l, int c) {
            if (c == 0) return;
            if (n > 0 && leaf[n - 1] == l && disp[n - 1] + (long) count[n - 1] * l.extent == d
                    && (long) count[n - 1] + c <= Integer.MAX_VALUE && l.size == l.extent) {
                count[n - 1] += c;
                return;
            }
            if (n == disp.length) {
                disp = Arrays.copyOf(disp, n * 2);
                count = Arrays.copyOf(count, n * 2);
                leaf = Arrays.copyOf(leaf, n * 2);
            }
            disp[n] = d;
            count[n] = c;
            leaf[n] = l;
            n++;
        }

        /**
         * The type map with MPI's bounds: markers where set, else those of the placed copies;
         * {@code padStruct} rounds the extent up to the largest leaf alignment as
         * MPI_Type_create_struct does when no upper bound is marked.
         */
        public TypeMap build(boolean padStruct) {
            long l = lbMarked ? markedLb : (lo == Long.MAX_VALUE ? 0 : lo);
            long u = ubMarked ? markedUb : (hi == Long.MIN_VALUE ? 0 : hi);
            long ext = u - l;
            // MPI-1 markers may put the upper bound below the lower one: a negative extent, left unpadded.
            if (padStruct && !ubMarked && ext > 0 && ext % align != 0) ext += align - ext % align;
            return new TypeMap(Arrays.copyOf(disp, n), Arrays.copyOf(count, n), Arrays.copyOf(leaf, n), l, ext,
                    lbMarked, ubMarked);
        }

        /** The type map with bounds set by createResized: both count as markers from now on. */
        public TypeMap build(long lb, long extent) {
            return new TypeMap(Arrays.copyOf(disp, n), Arrays.copyOf(count, n), Arrays.copyOf(leaf, n), lb, extent,
                    true, true);
        }
    }

    /** C alignment of a leaf on LP64 Linux: that of its widest component. */
    static long alignment(TypeDesc leaf) {
        switch (leaf.layout) {
            case PAIR:
            case COMPLEX:
                return leaf.valueKind.bytes;
            case VALUE_INT:
                return Math.max(4, leaf.valueKind.bytes);
            default:
                return Math.max(1, leaf.size);
        }
    }
}
