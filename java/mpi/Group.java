package mpi;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * An ordered set of processes, kept in Java as their ranks in MPI.COMM_WORLD. All group
 * arithmetic (union, incl, translate...) is local and backend-independent, as MPI defines it.
 */
public final class Group implements Freeable {
    /** Members as ranks in MPI.COMM_WORLD, in group-rank order. */
    final int[] members;
    /** This process's rank in MPI.COMM_WORLD (or -1 when unknown). */
    final int self;
    private boolean freed;

    Group(int[] members, int self) {
        this.members = members;
        this.self = self;
    }

    static final Group EMPTY = new Group(new int[0], -1);

    private int[] members(String call) {
        if (freed) throw MPIException.of(MPI.ERR_GROUP, call + ": group has been freed");
        return members;
    }

    /** Number of processes in the group. */
    public int getSize() {
        return members("Group.getSize").length;
    }

    /** This process's rank in the group, or MPI.UNDEFINED if it is not a member. */
    public int getRank() {
        int[] m = members("Group.getRank");
        for (int i = 0; i < m.length; i++) if (m[i] == self) return i;
        return MPI.UNDEFINED;
    }

    @Override
    public void free() {
        if (this != EMPTY) freed = true;
    }

    public boolean isNull() {
        return freed;
    }

    /** Ranks in {@code group2} of the processes with {@code ranks1} in {@code group1} (UNDEFINED if absent). */
    public static int[] translateRanks(Group group1, int[] ranks1, Group group2) {
        int[] m1 = nonNull(group1, "Group.translateRanks", "group1").members("Group.translateRanks");
        int[] m2 = nonNull(group2, "Group.translateRanks", "group2").members("Group.translateRanks");
        if (ranks1 == null) throw MPIException.of(MPI.ERR_ARG, "Group.translateRanks: ranks1 is null");
        int[] out = new int[ranks1.length];
        for (int i = 0; i < ranks1.length; i++) {
            int r = ranks1[i];
            if (r == MPI.PROC_NULL) {
                out[i] = MPI.PROC_NULL;
                continue;
            }
            if (r < 0 || r >= m1.length) {
                throw MPIException.of(MPI.ERR_RANK, "Group.translateRanks: ranks1[" + i + "] = " + r
                        + " is not in [0, " + m1.length + ")");
            }
            out[i] = indexOf(m2, m1[r]);
        }
        return out;
    }

    /** MPI.IDENT (same members, same order), MPI.SIMILAR (same members) or MPI.UNEQUAL. */
    public static int compare(Group group1, Group group2) {
        int[] a = nonNull(group1, "Group.compare", "group1").members("Group.compare");
        int[] b = nonNull(group2, "Group.compare", "group2").members("Group.compare");
        if (Arrays.equals(a, b)) return MPI.IDENT;
        if (a.length != b.length) return MPI.UNEQUAL;
        int[] sa = a.clone(), sb = b.clone();
        Arrays.sort(sa);
        Arrays.sort(sb);
        return Arrays.equals(sa, sb) ? MPI.SIMILAR : MPI.UNEQUAL;
    }

    public static Group union(Group group1, Group group2) {
        Set<Integer> s = new LinkedHashSet<>();
        for (int r : nonNull(group1, "Group.union", "group1").members("Group.union")) s.add(r);
        for (int r : nonNull(group2, "Group.union", "group2").members("Group.union")) s.add(r);
        return new Group(s.stream().mapToInt(Integer::intValue).toArray(), group1.self);
    }

    public static Group intersection(Group group1, Group group2) {
        int[] b = nonNull(group2, "Group.intersection", "group2").members("Group.intersection");
        return new Group(Arrays.stream(nonNull(group1, "Group.intersection", "group1").members("Group.intersection"))
                .filter(r -> indexOf(b, r) != MPI.UNDEFINED).toArray(), group1.self);
    }

    public static Group difference(Group group1, Group group2) {
        int[] b = nonNull(group2, "Group.difference", "group2").members("Group.difference");
        return new Group(Arrays.stream(nonNull(group1, "Group.difference", "group1").members("Group.difference"))
                .filter(r -> indexOf(b, r) == MPI.UNDEFINED).toArray(), group1.self);
    }

    /** The members with the given ranks, in that order. */
    public Group incl(int[] ranks) {
        int[] m = members("Group.incl");
        checkDistinctRanks("Group.incl", ranks, m.length);
        int[] out = new int[ranks.length];
        for (int i = 0; i < ranks.length; i++) out[i] = m[ranks[i]];
        return new Group(out, self);
    }

    /** The members without the given ranks, in group order. */
    public Group excl(int[] ranks) {
        int[] m = members("Group.excl");
        checkDistinctRanks("Group.excl", ranks, m.length);
        boolean[] drop = new boolean[m.length];
        for (int r : ranks) drop[r] = true;
        int[] out = new int[m.length - ranks.length];
        int n = 0;
        for (int i = 0; i < m.length; i++) if (!drop[i]) out[n++] = m[i];
        return new Group(out, self);
    }

    /** Ranks from triplets {first, last, stride}. */
    public Group rangeIncl(int[][] ranges) {
        return incl(expand("Group.rangeIncl", ranges, members("Group.rangeIncl").length));
    }

    public Group rangeExcl(int[][] ranges) {
        return excl(expand("Group.rangeExcl", ranges, members("Group.rangeExcl").length));
    }

    private static int[] expand(String call, int[][] ranges, int size) {
        if (ranges == null) throw MPIException.of(MPI.ERR_ARG, call + ": ranges is null");
        int[] out = new int[0];
        for (int i = 0; i < ranges.length; i++) {
            int[] t = ranges[i];
            if (t == null || t.length < 3) {
                throw MPIException.of(MPI.ERR_ARG, call + ": ranges[" + i + "] must be {first, last, stride}");
            }
            int first = t[0], last = t[1], stride = t[2];
            if (stride == 0) throw MPIException.of(MPI.ERR_ARG, call + ": ranges[" + i + "] has stride 0");
            if ((stride > 0 && first > last) || (stride < 0 && first < last)) continue;
            for (int r = first; stride > 0 ? r <= last : r >= last; r += stride) {
                if (r < 0 || r >= size) {
                    throw MPIException.of(MPI.ERR_RANK, call + ": rank " + r + " in ranges[" + i
                            + "] is not in [0, " + size + ")");
                }
                out = Arrays.copyOf(out, out.length + 1);
                out[out.length - 1] = r;
            }
        }
        return out;
    }

    private static void checkDistinctRanks(String call, int[] ranks, int size) {
        if (ranks == null) throw MPIException.of(MPI.ERR_ARG, call + ": ranks is null");
        boolean[] seen = new boolean[size];
        for (int i = 0; i < ranks.length; i++) {
            int r = ranks[i];
            if (r < 0 || r >= size) {
                throw MPIException.of(MPI.ERR_RANK, call + ": ranks[" + i + "] = " + r + " is not in [0, " + size + ")");
            }
            if (seen[r]) throw MPIException.of(MPI.ERR_RANK, call + ": rank " + r + " appears twice");
            seen[r] = true;
        }
    }

    private static int indexOf(int[] a, int v) {
        for (int i = 0; i < a.length; i++) if (a[i] == v) return i;
        return MPI.UNDEFINED;
    }

    private static Group nonNull(Group g, String call, String arg) {
        if (g == null) throw MPIException.of(MPI.ERR_GROUP, call + ": " + arg + " is null");
        return g;
    }

    // ---- mpiJava 1.2 names ------------------------------------------------------------------

    public int Size() {
        return getSize();
    }

    public int Rank() {
        return getRank();
    }

    public void Free() {
        free();
    }

    public static int[] Translate_ranks(Group group1, int[] ranks1, Group group2) {
        return translateRanks(group1, ranks1, group2);
    }

    public static int Compare(Group group1, Group group2) {
        return compare(group1, group2);
    }

    public static Group Union(Group group1, Group group2) {
        return union(group1, group2);
    }

    public static Group Intersection(Group group1, Group group2) {
        return intersection(group1, group2);
    }

    public static Group Difference(Group group1, Group group2) {
        return difference(group1, group2);
    }

    public Group Incl(int[] ranks) {
        return incl(ranks);
    }

    public Group Excl(int[] ranks) {
        return excl(ranks);
    }

    public Group Range_incl(int[][] ranges) {
        return rangeIncl(ranges);
    }

    public Group Range_excl(int[][] ranges) {
        return rangeExcl(ranges);
    }
}
