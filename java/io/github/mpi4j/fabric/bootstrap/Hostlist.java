package io.github.mpi4j.fabric.bootstrap;

import java.util.ArrayList;
import java.util.List;

/**
 * Expands Slurm's compact host lists: {@code node[01-04,09]} -> node01, node02, node03, node04,
 * node09; several ranges and prefixes separated by commas at the top level
 * ({@code a[1-2],b3,c[5,7]-ib}); zero padding is kept from the range's first number.
 */
public final class Hostlist {
    private Hostlist() {
    }

    public static List<String> expand(String list) {
        List<String> out = new ArrayList<>();
        for (String item : splitTop(list.trim())) {
            if (!item.isEmpty()) expandItem(item, out);
        }
        if (out.isEmpty()) throw new IllegalArgumentException("empty host list '" + list + "'");
        return out;
    }

    /**
     * Slurm's tasks-per-node lists ({@code SLURM_TASKS_PER_NODE}, {@code SLURM_STEP_TASKS_PER_NODE}):
     * {@code 2(x3),1} means 2 tasks on each of the first three nodes, then 1. Returns the count
     * of node {@code node}.
     *
     * @throws IllegalArgumentException when the text is not in that form or has no such node
     */
    public static int tasksOnNode(String spec, int node) {
        int seen = 0;
        for (String item : spec.trim().split(",")) {
            String t = item.trim();
            int repeat = 1;
            int open = t.indexOf("(x");
            if (open >= 0) {
                if (!t.endsWith(")")) throw new IllegalArgumentException("bad tasks-per-node item '" + t + "'");
                repeat = Integer.parseInt(t.substring(open + 2, t.length() - 1));
                t = t.substring(0, open);
            }
            int tasks = Integer.parseInt(t);
            if (node < seen + repeat) return tasks;
            seen += repeat;
        }
        throw new IllegalArgumentException("'" + spec + "' describes " + seen + " nodes, not node " + node);
    }

    /** Splits at commas outside brackets. */
    private static List<String> splitTop(String s) {
        List<String> parts = new ArrayList<>();
        int depth = 0, start = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '[') depth++;
            else if (c == ']') depth--;
            else if (c == ',' && depth == 0) {
                parts.add(s.substring(start, i));
                start = i + 1;
            }
        }
        if (depth != 0) throw new IllegalArgumentException("unbalanced brackets in host list '" + s + "'");
        parts.add(s.substring(start));
        return parts;
    }

    private static void expandItem(String item, List<String> out) {
        int open = item.indexOf('[');
        if (open < 0) {
            out.add(item);
            return;
        }
        int close = item.indexOf(']', open);
        String prefix = item.substring(0, open);
        String suffix = item.substring(close + 1);
        List<String> rest = new ArrayList<>();
        expandItem(suffix.isEmpty() ? "" : suffix, rest);
        if (rest.isEmpty()) rest.add("");
        for (String range : item.substring(open + 1, close).split(",")) {
            String[] ends = range.split("-", 2);
            String lo = ends[0].trim();
            String hi = ends.length > 1 ? ends[1].trim() : lo;
            long a = Long.parseLong(lo), b = Long.parseLong(hi);
            if (b < a) throw new IllegalArgumentException("descending range '" + range + "' in host list");
            for (long v = a; v <= b; v++) {
                String num = String.format("%0" + lo.length() + "d", v);
                for (String r : rest) out.add(prefix + num + r);
            }
        }
    }
}
