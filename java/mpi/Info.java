package mpi;

import java.util.LinkedHashMap;
import java.util.Map;

/** Key/value hints (MPI_Info), kept in Java. */
public final class Info implements Freeable, Cloneable {
    private final Map<String, String> entries = new LinkedHashMap<>();
    private boolean freed;

    public Info() {
    }

    private Map<String, String> entries(String call) {
        if (freed) throw MPIException.of(MPI.ERR_INFO, call + ": info has been freed");
        return entries;
    }

    public void set(String key, String value) {
        if (key == null || value == null) throw MPIException.of(MPI.ERR_INFO_KEY, "Info.set: key and value must not be null");
        entries("Info.set").put(key, value);
    }

    /** The value of {@code key}, or null. */
    public String get(String key) {
        return entries("Info.get").get(key);
    }

    public void delete(String key) {
        if (entries("Info.delete").remove(key) == null) {
            throw MPIException.of(MPI.ERR_INFO_NOKEY, "Info.delete: no key '" + key + "'");
        }
    }

    public int size() {
        return entries("Info.size").size();
    }

    public String getKey(int i) {
        Map<String, String> m = entries("Info.getKey");
        if (i < 0 || i >= m.size()) throw MPIException.of(MPI.ERR_ARG, "Info.getKey: index " + i + " is not in [0, " + m.size() + ")");
        return m.keySet().toArray(new String[0])[i];
    }

    public Info dup() {
        Info copy = new Info();
        copy.entries.putAll(entries("Info.dup"));
        return copy;
    }

    @Override
    public Info clone() {
        return dup();
    }

    @Override
    public void free() {
        freed = true;
    }

    public boolean isNull() {
        return freed;
    }
}
