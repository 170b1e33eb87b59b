package mpi;

/** The MPI standard version a library provides (MPI_Get_version). */
public final class Version {
    private final int version;
    private final int subversion;

    public Version(int version, int subversion) {
        this.version = version;
        this.subversion = subversion;
    }

    public int getVersion() {
        return version;
    }

    public int getSubversion() {
        return subversion;
    }

    /** Same as {@link #getSubversion()} (the Open MPI bindings' spelling). */
    public int getSubVersion() {
        return subversion;
    }

    @Override
    public String toString() {
        return version + "." + subversion;
    }
}
