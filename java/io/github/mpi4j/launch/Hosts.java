package io.github.mpi4j.launch;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

/** Hosts of a job and their slots, and the assignment of ranks to them. */
public final class Hosts {
    private Hosts() {
    }

    /** A host name (or address) and how many ranks it takes. */
    public static final class Host {
        public final String name;
        public final int slots;

        public Host(String name, int slots) {
            this.name = name;
            this.slots = slots;
        }

        @Override
        public String toString() {
            return name + ":" + slots;
        }
    }

    /** "h1:2,h2:2,h3" (a host without a count has one slot). */
    public static List<Host> parseList(String list) throws Options.UsageException {
        List<Host> out = new ArrayList<>();
        for (String item : list.split(",")) {
            item = item.trim();
            if (item.isEmpty()) continue;
            int colon = item.lastIndexOf(':');
            out.add(colon < 0 ? new Host(item, 1) : new Host(item.substring(0, colon), slots(item.substring(colon + 1))));
        }
        if (out.isEmpty()) throw new Options.UsageException("empty host list");
        return out;
    }

    /** Hostfile lines: "name", "name:slots", "name slots=S"; '#' starts a comment. */
    public static List<Host> parseFile(List<String> lines) throws Options.UsageException {
        List<Host> out = new ArrayList<>();
        for (String raw : lines) {
            String line = raw.replaceAll("#.*", "").trim();
            if (line.isEmpty()) continue;
            String[] f = line.split("\\s+");
            int slots = 1;
            String name = f[0];
            if (name.contains(":")) {
                slots = slots(name.substring(name.lastIndexOf(':') + 1));
                name = name.substring(0, name.lastIndexOf(':'));
            }
            for (int i = 1; i < f.length; i++) {
                if (f[i].startsWith("slots=")) slots = slots(f[i].substring(6));
            }
            out.add(new Host(name, slots));
        }
        if (out.isEmpty()) throw new Options.UsageException("the hostfile names no host");
        return out;
    }

    private static int slots(String v) throws Options.UsageException {
        try {
            int n = Integer.parseInt(v.trim());
            if (n < 1) throw new NumberFormatException();
            return n;
        } catch (NumberFormatException e) {
            throw new Options.UsageException("bad slot count '" + v + "'");
        }
    }

    /**
     * The host of each rank: hosts are filled in order, each up to its slots (so ranks of a host
     * are consecutive). With more ranks than slots, oversubscription starts again at the first host.
     */
    public static String[] assign(List<Host> hosts, int np, boolean oversubscribe) throws Options.UsageException {
        int total = 0;
        for (Host h : hosts) total += h.slots;
        if (np > total && !oversubscribe) {
            throw new Options.UsageException(np + " ranks but only " + total + " slots on " + hosts
                    + " (add --oversubscribe)");
        }
        String[] out = new String[np];
        int r = 0;
        while (r < np) {
            for (Host h : hosts) {
                for (int s = 0; s < h.slots && r < np; s++) out[r++] = h.name;
            }
        }
        return out;
    }

    /** Whether {@code host} is this machine (ranks there start without the remote agent). */
    public static boolean isLocal(String host) {
        if (host.equals("localhost") || host.equals("127.0.0.1") || host.equals("::1")) return true;
        try {
            InetAddress me = InetAddress.getLocalHost();
            return host.equals(me.getHostName()) || host.equals(me.getHostAddress());
        } catch (Exception e) {
            return false;
        }
    }
}
