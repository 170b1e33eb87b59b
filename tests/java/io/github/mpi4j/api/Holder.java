package io.github.mpi4j.api;

/**
 * One buffer under test, either a Java array or a direct buffer over the same values; tests
 * run every check with both ({@link #ARRAY}, {@link #DIRECT}).
 */
public final class Holder {
    public static final boolean ARRAY = false;
    public static final boolean DIRECT = true;

    public final Data data;
    public final boolean direct;
    public final int length;
    /** What is passed to MPI: the array or the direct buffer. */
    public final Object buf;

    public Holder(Data data, boolean direct, Object array) {
        this.data = data;
        this.direct = direct;
        this.length = data.length(array);
        this.buf = direct ? data.toDirect(array) : array;
    }

    /** Current contents as an array. */
    public Object contents() {
        return direct ? data.fromDirect((java.nio.Buffer) buf, length) : buf;
    }

    public static String kind(boolean direct) {
        return direct ? "direct" : "array";
    }
}
